import Foundation

/// The time along the bottom of a timeline: a step people count in, and its ticks' labels.
///
/// The step is the smallest of 1, 2, 5, 10, 15 and 30 seconds, 1, 2, 5, 10, 15 and 30 minutes,
/// 1, 2, 3, 6 and 12 hours, 1, 2 and 7 days, then whole weeks, that puts at most the axis's
/// limit of ticks on the range, so the axis fits the data's span (seconds when it is seconds)
/// and never holds more labels than fit (``tickLimit``), however long the span; ticks fall on whole
/// steps in UTC.
/// A tick at midnight is labelled with its day (`Tue 9 Feb`, with the year when the axis spans
/// more than one: `9 Feb 2021`), any other with its time (`18:00`, `18:00:30` when the step is
/// under a minute).
public struct TimelineTimeAxis: Sendable, Hashable {
    /// A tick: where, and what it says.
    public struct Tick: Sendable, Hashable {
        /// Its time.
        public var at: Date
        /// Its label.
        public var label: String
        /// Whether it starts a day (drawn stronger).
        public var isDay: Bool
    }

    /// The most ticks on an axis by default: 1,032 px of plot at about 100 px a label.
    public static let maximumTicks = 10
    /// The steps ticks may be apart, in seconds; past the last, whole weeks.
    static let steps: [TimeInterval] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800, 604_800,
    ]
    static let week: TimeInterval = 604_800

    /// The first time on the axis.
    public let start: Date
    /// The last time on the axis.
    public let end: Date
    /// The seconds between ticks.
    public let step: TimeInterval
    /// The most ticks this axis may hold.
    public let tickLimit: Int
    /// The ticks, in order: at most ``tickLimit``.
    public let ticks: [Tick]

    /// An axis from `start` to `end` with at most `maximumTicks` ticks (at least 2).
    ///
    /// An empty range is widened to a minute after `start`.
    public init(start: Date, end: Date, maximumTicks: Int = TimelineTimeAxis.maximumTicks) {
        self.init(start: start, end: end, intervals: Double(max(2, maximumTicks) - 1))
    }

    /// An axis from `start` to `end` whose ticks are at least `span / intervals` apart (so a plot
    /// `intervals × 72` px wide has a label at most every 72 px); `intervals` at least 1. When
    /// `compact`, a day is labelled without its month (`Tue 9`), for ticks closer than a long label.
    init(start: Date, end: Date, intervals: Double, compact: Bool = false) {
        let end = max(end, start.addingTimeInterval(60))
        let intervals = max(1, intervals)
        let most = Int(intervals) + 1
        self.start = start
        self.end = end
        self.tickLimit = most
        let span = end.timeIntervalSince(start)
        let step =
            Self.steps.first { span / $0 <= intervals } ?? (span / intervals / Self.week).rounded(.up) * Self.week
        self.step = step
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let showsYear = calendar.component(.year, from: start) != calendar.component(.year, from: end)
        // Ticks fall on whole steps since 1970 (weeks on Mondays: 1970-01-01 was a Thursday, four
        // days on); at most `most` of them, since span / step ≤ most − 1.
        let offset: TimeInterval = step >= Self.week ? 345_600 : 0
        var at = ((start.timeIntervalSince1970 - offset) / step).rounded(.up) * step + offset
        var ticks: [Tick] = []
        while at <= end.timeIntervalSince1970, ticks.count < most {
            let date = Date(timeIntervalSince1970: at)
            let parts = calendar.dateComponents([.year, .hour, .minute, .second, .day, .month, .weekday], from: date)
            let isDay = parts.hour == 0 && parts.minute == 0 && parts.second == 0
            let month = Self.months[((parts.month ?? 1) - 1) % 12]
            let label: String
            if isDay {
                label =
                    showsYear
                    ? "\(parts.day ?? 1) \(month) \(parts.year ?? 1970)"
                    : "\(Self.weekdays[((parts.weekday ?? 1) - 1) % 7]) \(parts.day ?? 1)"
                        + (compact ? "" : " \(month)")
            } else if step < 60 {
                label = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
            } else {
                label = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            }
            ticks.append(Tick(at: date, label: label, isDay: isDay))
            at += step
        }
        self.ticks = ticks
    }

    /// Where `date` falls, 0 at ``start`` to 1 at ``end``.
    public func position(_ date: Date) -> Double {
        min(1, max(0, date.timeIntervalSince(start) / end.timeIntervalSince(start)))
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
