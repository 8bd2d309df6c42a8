import Foundation

/// The time along the bottom of a timeline: a step people count in, and its ticks' labels.
///
/// The step is the smallest of 15 minutes, 30 minutes, 1, 2, 3, 6 and 12 hours, 1, 2 and 7 days
/// that puts at most ``maximumTicks`` ticks on the range; ticks fall on whole steps in UTC, and a
/// tick at midnight is labelled with its day (`Tue 9 Feb`), any other with its time (`18:00`).
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

    /// The most ticks on an axis: 1032 px of plot at about 100 px a label.
    public static let maximumTicks = 10
    /// The steps ticks may be apart, in seconds.
    static let steps: [TimeInterval] = [900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800, 604_800]

    /// The first time on the axis.
    public let start: Date
    /// The last time on the axis.
    public let end: Date
    /// The seconds between ticks.
    public let step: TimeInterval
    /// The ticks, in order.
    public let ticks: [Tick]

    /// An axis from `start` to `end` (an empty range is widened to an hour around it).
    public init(start: Date, end: Date) {
        var (start, end) = (start, max(end, start))
        if end.timeIntervalSince(start) < 900 {
            start = start.addingTimeInterval(-1800)
            end = end.addingTimeInterval(1800)
        }
        self.start = start
        self.end = end
        let span = end.timeIntervalSince(start)
        let step = Self.steps.first { span / $0 <= Double(Self.maximumTicks - 1) } ?? Self.steps[Self.steps.count - 1]
        self.step = step
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var ticks: [Tick] = []
        var at = (start.timeIntervalSince1970 / step).rounded(.up) * step
        if step == 604_800 {
            // Weeks start on Monday: 1970-01-01 was a Thursday, four days on.
            at = ((start.timeIntervalSince1970 - 345_600) / step).rounded(.up) * step + 345_600
        }
        while at <= end.timeIntervalSince1970 {
            let date = Date(timeIntervalSince1970: at)
            let parts = calendar.dateComponents([.hour, .minute, .day, .month, .weekday], from: date)
            let isDay = parts.hour == 0 && parts.minute == 0
            let label =
                isDay
                ? "\(Self.weekdays[((parts.weekday ?? 1) - 1) % 7]) \(parts.day ?? 1) \(Self.months[((parts.month ?? 1) - 1) % 12])"
                : String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
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
