import Foundation
import StoreReleaseCore
import StoreReleaseModels
import StoreReleaseTooling
import Testing

/// What people read of a verdict: `print(health.verdict)` in Swift prints the verdict, not the
/// enum's internals, and an App Store line counts sessions (App Store Connect's Analytics Reports
/// count sessions, not users), a Play line user-days.
@Suite struct HealthVerdictDescriptionTests {
    @Test func anAppStoreLineCountsSessionsAndAPlayLineUserDays() throws {
        for (store, unit, other) in [("appStore", "sessions", "user-days"), ("googlePlay", "user-days", "sessions")] {
            let json = """
                {"store": "\(store)", "app": "1", "days": [
                  {"date": "2021-01-01", "version": "8.0.9", "versionCode": null, "users": 50000, "crashedUsers": 150, "anrUsers": null},
                  {"date": "2021-02-01", "version": "8.0.10", "versionCode": null, "users": 500, "crashedUsers": 1, "anrUsers": null}
                ]}
                """
            let file = try JSONDecoder().decode(HealthFile.self, from: Data(json.utf8))
            let health = StoreHealth.judge(
                try VersionOrCode(parsing: "8.0.10"), store: file.store, source: .healthFile, days: file.days,
                criteria: try HealthCriteria())
            #expect(health.line.contains("of 500 \(unit)") && !health.line.contains(other), "\(health.line)")
            #expect(health.line.hasSuffix("(fewer than 1,000 \(unit))"), "\(health.line)")
            let reason = try #require(health.gateReason)
            #expect(reason.contains("over 500 \(unit)") && !reason.contains(other), "\(reason)")
        }
    }

    @Test func aVerdictPrintsItsNameAndWhatItRestsOn() throws {
        let rate = HealthRate(events: 219, of: 10435)
        let baseline = HealthRate(events: 62, of: 10440)
        let verdicts: [(HealthVerdict, String)] = [
            (.healthy, "healthy"),
            (
                .regressed([.aboveBaseline(.crash, candidate: rate, baseline: baseline)]),
                "regressed (crash rate above the baseline)"
            ),
            (.insufficientData(userDays: 130, minimum: 1000), "insufficientData (130 of the 1000 needed)"),
            (.unknown(reason: "no analytics report request"), "unknown (no analytics report request)"),
        ]
        for (verdict, expected) in verdicts {
            #expect("\(verdict)" == expected)
            #expect(String(describing: verdict) == expected)
        }
    }
}
