import Foundation
import StoreReleaseCore
import StoreReleaseModels
import Testing

@testable import StoreReleaseTooling

/// The day a store counts a moment on: Google Play's daily metrics are Pacific days, the App
/// Store's UTC days, so a judgement "as of" a moment never counts a day that had not begun there.
struct HealthDayOfStoreTests {
    static func moment(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test(arguments: [
        // moment, Google Play's day, the App Store's day
        ("2026-12-02T03:00:00Z", "2026-12-01", "2026-12-02"),  // PST: 19:00 the day before
        ("2026-12-02T08:00:00Z", "2026-12-02", "2026-12-02"),  // PST: midnight
        ("2026-12-02T07:59:59Z", "2026-12-01", "2026-12-02"),
        ("2026-07-01T06:59:59Z", "2026-06-30", "2026-07-01"),  // PDT: 23:59:59
        ("2026-07-01T07:00:00Z", "2026-07-01", "2026-07-01"),  // PDT: midnight
        ("2026-03-08T09:59:59Z", "2026-03-08", "2026-03-08"),  // 01:59:59 PST, the day clocks go forward
        ("2026-11-01T08:30:00Z", "2026-11-01", "2026-11-01"),  // 01:30 PDT, before clocks go back
        ("2024-02-29T07:00:00Z", "2024-02-28", "2024-02-29"),  // a leap day
        ("1969-12-31T23:00:00Z", "1969-12-31", "1969-12-31"),  // before 1970
    ])
    func eachStoreCountsTheMomentOnItsOwnDay(_ text: String, play: String, appStore: String) throws {
        let moment = try Self.moment(text)
        #expect(HealthDate(of: moment, countedBy: .googlePlay) == HealthDate(play))
        #expect(HealthDate(of: moment, countedBy: .appStore) == HealthDate(appStore))
    }

    /// The rule used without a time zone database gives the database's offset at noon of every
    /// day of 2007 to 2030, and at every hour of March and November (when the clocks change) with
    /// the minutes either side.
    @Test func theRuleWithoutADatabaseAgreesWithIt() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var disagreements: [Date] = []
        let first = try #require(HealthDate("2007-01-01")).dayNumber
        let last = try #require(HealthDate("2030-12-31")).dayNumber
        for dayNumber in first...last {
            let changing = [3, 11].contains(HealthDate(dayNumber: dayNumber).month)
            let moments = changing ? (0..<24).flatMap { hour in [-60, 0, 60].map { hour * 3600 + $0 } } : [12 * 3600]
            for offset in moments {
                let moment = Date(timeIntervalSince1970: Double(dayNumber * 86_400 + offset))
                if HealthDate.pacificRuleOffset(at: moment) != zone.secondsFromGMT(for: moment) {
                    disagreements.append(moment)
                }
            }
        }
        #expect(disagreements.count == 0, "the first: \(disagreements.prefix(3))")
    }
}
