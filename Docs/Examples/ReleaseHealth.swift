import Foundation
import StoreReleaseKit

// The examples of Docs/StoreReleaseKit.docc/ReleaseHealth.md: the public field report's first-day
// false alarm, and a real regression, judged by the one rule.

/// The field report as a health file: 8.0.2's first day had the same spike as 8.0.10's (2 crashed
/// users of 120), then it settled at 0.4% of 20,000 users a day.
let fieldReport = """
    {"store": "googlePlay", "app": "com.tencent.mm", "days": [
      {"date": "2021-01-01", "version": "8.0.2", "versionCode": 80, "users": 120, "crashedUsers": 2, "anrUsers": null},
      {"date": "2021-01-02", "version": "8.0.2", "versionCode": 80, "users": 20000, "crashedUsers": 80, "anrUsers": null},
      {"date": "2021-01-03", "version": "8.0.2", "versionCode": 80, "users": 20000, "crashedUsers": 80, "anrUsers": null},
      {"date": "2021-02-01", "version": "8.0.10", "versionCode": 81, "users": 130, "crashedUsers": 3, "anrUsers": null}
    ]}
    """

func releaseHealthExamples() throws {
    let file = try JSONDecoder().decode(HealthFile.self, from: Data(fieldReport.utf8))
    let health = StoreHealth.judge(
        try VersionOrCode(parsing: "8.0.10"), store: file.store, source: .healthFile, days: file.days,
        criteria: try HealthCriteria())
    print(health.line)
    // insufficientData: 130 user-days, and 8.0.2 on its own first day was no better.
    print(health.baseline?.users == 120)

    // Two days on, 8.0.10 has 21,000 user-days at 2.1%; 8.0.2 had 0.4% over its first three.
    var days = file.days
    for date in ["2021-02-02", "2021-02-03"] {
        guard let date = HealthDate(date),
            let day = HealthDay(
                date: date, version: try Version(parsing: "8.0.10"), versionCode: VersionCode(rawValue: 81),
                users: 10435, crashedUsers: 219, anrUsers: nil)
        else { continue }
        days.append(day)
    }
    let regressed = StoreHealth.judge(
        try VersionOrCode(parsing: "8.0.10"), store: .googlePlay, source: .healthFile, days: days,
        criteria: try HealthCriteria())
    print(regressed.line)
    print(regressed.reasons.joined(separator: "\n"))
}
