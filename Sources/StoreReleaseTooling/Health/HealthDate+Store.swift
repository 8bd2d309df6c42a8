import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension HealthDate {
    /// The day `store` counts `moment` on: the last day a judgement "as of" that moment may count.
    ///
    /// Google Play's daily metrics are days in `America/Los_Angeles`, their only time zone, so
    /// 03:00 UTC on 2 December is still 1 December there. Apple states no zone for the Analytics
    /// Reports' `Date`, so the App Store's days, and any other store's, are UTC days.
    ///
    /// The Pacific day comes from the system's time zone database; a system without one uses
    /// the United States' rule since 2007 (UTC−8, and UTC−7 from the second Sunday in March at
    /// 02:00 to the first Sunday in November at 02:00).
    public init(of moment: Date, countedBy store: Store) {
        let offset = store == .googlePlay ? Self.pacificOffset(at: moment) : 0
        self.init(dayNumber: Self.dayNumber(atSecond: Self.second(of: moment) + offset))
    }

    /// `America/Los_Angeles`' offset from UTC at `moment`, in seconds.
    static func pacificOffset(at moment: Date) -> Int {
        if let zone = TimeZone(identifier: PlayDeveloperReportingClient.timeZone) {
            return zone.secondsFromGMT(for: moment)
        }
        return pacificRuleOffset(at: moment)
    }

    /// The United States' daylight-saving rule for the Pacific zone, without a time zone database.
    static func pacificRuleOffset(at moment: Date) -> Int {
        let second = Self.second(of: moment)
        let year = HealthDate(dayNumber: Self.dayNumber(atSecond: second - 8 * 3600)).year
        /// The day number of the `nth` Sunday of `month` (1970-01-04 was a Sunday).
        func sunday(_ nth: Int, of month: Int) -> Int? {
            guard let first = HealthDate(year: year, month: month, day: 1)?.dayNumber else { return nil }
            return first + ((3 - first) % 7 + 7) % 7 + 7 * (nth - 1)
        }
        guard let march = sunday(2, of: 3), let november = sunday(1, of: 11) else { return -8 * 3600 }
        let starts = march * 86_400 + 10 * 3600  // 02:00 PST is 10:00 UTC
        let ends = november * 86_400 + 9 * 3600  // 02:00 PDT is 09:00 UTC
        return (starts..<ends).contains(second) ? -7 * 3600 : -8 * 3600
    }

    /// The whole seconds since 1970 of `moment`, rounded down.
    private static func second(of moment: Date) -> Int {
        Int(moment.timeIntervalSince1970.rounded(.down))
    }

    /// The day number (days since 1970-01-01) of the day holding `second`, before 1970 too.
    private static func dayNumber(atSecond second: Int) -> Int {
        second >= 0 ? second / 86_400 : (second + 1) / 86_400 - 1
    }
}
