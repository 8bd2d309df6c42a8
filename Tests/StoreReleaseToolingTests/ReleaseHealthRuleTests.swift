import Foundation
import StoreReleaseCore
import StoreReleaseModels
import Testing

@testable import StoreReleaseTooling

/// The release-health rule: Wilson intervals, same-age windows, and the verdicts, with numbers a
/// reader can check by hand.
///
/// Every interval below was computed independently of this package with Python's standard
/// library (z = 1.959964):
///
/// ```
/// python3 -c "
/// from math import sqrt
/// z=1.959964
/// def w(x,n):
///   p=x/n; d=1+z*z/n; c=(p+z*z/(2*n))/d; h=z/d*sqrt(p*(1-p)/n+z*z/(4*n*n)); return (p,c-h,c+h)
/// print(w(3,130))"
/// ```
@Suite struct ReleaseHealthRuleTests {
    /// One Wilson interval: `events` of `trials`, and what the Python line above prints.
    struct WilsonCase: Sendable, CustomTestStringConvertible {
        let events: Int, trials: Int, value: Double, lower: Double, upper: Double
        var testDescription: String { "\(events)/\(trials)" }
    }

    static let wilson: [WilsonCase] = [
        // The field report's first day: 3 crashed users of 130 (Play showed 2.30%).
        .init(events: 3, trials: 130, value: 0.023077, lower: 0.007879, upper: 0.065652),
        // The same 3 crashed users of "about 90".
        .init(events: 3, trials: 90, value: 0.033333, lower: 0.011400, upper: 0.093473),
        // The earlier version's own first day: the same spike.
        .init(events: 2, trials: 120, value: 0.016667, lower: 0.004583, upper: 0.058736),
        // The earlier version over all its 30 days: settled at 0.4%.
        .init(events: 2322, trials: 580_120, value: 0.004003, lower: 0.003843, upper: 0.004168),
        // A real regression, 2.1% of 21,000 user-days, and its baseline, 0.6%.
        .init(events: 441, trials: 21000, value: 0.021000, lower: 0.019147, upper: 0.023029),
        .init(events: 126, trials: 21000, value: 0.006000, lower: 0.005042, upper: 0.007139),
        // No crash at all still has an upper bound.
        .init(events: 0, trials: 50, value: 0, lower: 0, upper: 0.071348),
        .init(events: 40, trials: 2000, value: 0.020000, lower: 0.014722, upper: 0.027119),
    ]

    @Test(arguments: wilson) func wilsonScoreIntervalAt95Percent(_ row: WilsonCase) {
        let rate = HealthRate(events: row.events, of: row.trials)
        #expect(abs(rate.value - row.value) < 1e-6)
        #expect(abs(rate.lower - row.lower) < 1e-6, "lower \(rate.lower)")
        #expect(abs(rate.upper - row.upper) < 1e-6, "upper \(rate.upper)")
    }

    @Test func noUsersIsNoKnowledge() {
        #expect(HealthRate(events: 0, of: 0) == HealthRate(events: 0, of: 0))
        let rate = HealthRate(events: 0, of: 0)
        #expect(rate.value == 0 && rate.lower == 0 && rate.upper == 1)
    }

    // MARK: - Days

    static func version(_ text: String) throws -> Version { try Version(parsing: text) }

    /// `counts` as consecutive days of `version` from `start`: (users, crashed[, anr]).
    static func days(
        _ name: String, code: Int?, from start: String = "2021-02-01", _ counts: [(Int, Int, Int?)]
    ) throws -> [HealthDay] {
        let first = try #require(HealthDate(start))
        let calendar = Calendar(identifier: .gregorian)
        var components = DateComponents(year: first.year, month: first.month, day: first.day)
        components.timeZone = TimeZone(identifier: "UTC")
        var utc = calendar
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let origin = try #require(utc.date(from: components))
        return try counts.enumerated().map { offset, count in
            let date = try #require(utc.date(byAdding: .day, value: offset, to: origin))
            let parts = utc.dateComponents([.year, .month, .day], from: date)
            let text = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            let day = try #require(HealthDate(text))
            return try #require(
                HealthDay(
                    date: day, version: try version(name),
                    versionCode: code.flatMap(VersionCode.init(rawValue:)), users: count.0,
                    crashedUsers: Double(count.1), anrUsers: count.2.map(Double.init)))
        }
    }

    static func repeated(_ count: (Int, Int, Int?), _ times: Int) -> [(Int, Int, Int?)] {
        Array(repeating: count, count: times)
    }

    static let criteria: HealthCriteria = {
        do { return try HealthCriteria() } catch { preconditionFailure("the defaults are valid") }
    }()

    static func judge(
        _ version: String, baseline: String? = nil, store: Store = .googlePlay, _ days: [HealthDay],
        criteria: HealthCriteria = criteria
    ) throws -> StoreHealth {
        StoreHealth.judge(
            try VersionOrCode(parsing: version), baseline: try baseline.map(VersionOrCode.init(parsing:)),
            store: store, source: .healthFile,
            days: days, criteria: criteria)
    }

    /// The public field report: the earlier version 8.0.9 had the same first-day spike (2 of 120)
    /// and settled at 0.4% over 30 days; 8.0.10's first day is 3 crashed users of 130.
    static func fieldReport(firstDay: (Int, Int, Int?) = (130, 3, nil)) throws -> [HealthDay] {
        try days("8.0.9", code: 80, from: "2021-01-01", [(120, 2, nil)] + repeated((20000, 80, nil), 29))
            + days("8.0.10", code: 81, from: "2021-02-01", [firstDay])
    }

    // MARK: - Verdicts

    @Test(arguments: [(130, 3), (90, 3)])
    func theFirstDayFalseAlarmIsInsufficientDataNeverRegressed(_ users: Int, _ crashed: Int) throws {
        let health = try Self.judge("8.0.10", try Self.fieldReport(firstDay: (users, crashed, nil)))
        #expect(health.verdict == .insufficientData(userDays: users, minimum: 1000))
        #expect(health.candidate?.ageDays == 1 && health.candidate?.users == users)
        // Same age: the baseline is read over its own first day only.
        #expect(health.baseline?.version.description == "8.0.9")
        #expect(health.baseline?.ageDays == 1 && health.baseline?.users == 120 && health.baseline?.crashedUsers == 2)
        #expect(health.reasons.contains { $0.contains("fewer than the 1,000 a verdict needs") })
    }

    @Test func theBaselinesLaterDaysWouldHaveRaisedTheFalseAlarm() throws {
        let days = try Self.fieldReport()
        let candidate = HealthWindow(version: try Self.version("8.0.10"), days: days, age: 1)
        let settled = HealthWindow(version: try Self.version("8.0.9"), days: days, age: 30)
        // 0.79% (3 of 130, lower bound) is above 0.42% (2,322 of 580,120, upper bound): the
        // comparison a threshold gate makes halts a good release.
        #expect(settled.users == 580_120 && settled.crashedUsers == 2322)
        let verdict = HealthRule.verdict(
            candidate: candidate, baseline: settled, criteria: Self.criteria, metrics: [.crash])
        guard case .regressed(let regressions) = verdict else {
            Issue.record("expected regressed, got \(verdict)")
            return
        }
        #expect(regressions.count == 1)
        #expect(try Self.judge("8.0.10", days).verdict.name == "insufficientData")
    }

    /// The same-age rule flips a case with enough users too: 1.2% of 5,000 user-days over two
    /// days is within the baseline's first two days (1.0%), far above its 0.2% later on.
    @Test func theSameAgeRuleDecidesBetweenHealthyAndRegressed() throws {
        let days =
            try Self.days(
                "8.0.9", code: 80, from: "2021-01-01",
                Self.repeated((2500, 25, nil), 2) + Self.repeated((10000, 20, nil), 28))
            + Self.days("8.0.10", code: 81, from: "2021-02-01", Self.repeated((2500, 30, nil), 2))
        // 60/5000: [0.9335%, 1.5415%]; the baseline's first two days 50/5000: [0.7594%, 1.3159%];
        // its 30 days 610/285,000: [0.1977%, 0.2317%]. The ceiling 1.09% is above 0.9335%. On
        // the App Store, which has no ANR rate to read.
        let health = try Self.judge("8.0.10", store: .appStore, days)
        #expect(health.verdict == .healthy)
        #expect(health.baseline?.ageDays == 2 && health.baseline?.users == 5000 && health.baseline?.crashedUsers == 50)
        let candidate = try #require(health.candidate)
        let later = HealthWindow(version: try Self.version("8.0.9"), days: days, age: 30)
        #expect(later.users == 285_000 && later.crashedUsers == 610)
        #expect(
            HealthRule.verdict(candidate: candidate, baseline: later, criteria: Self.criteria, metrics: [.crash]).name
                == "regressed")
    }

    @Test func aRealRegressionNamesBothRatesAndIntervals() throws {
        let days =
            try Self.days(
                "8.0.9", code: 80, from: "2021-01-01",
                Self.repeated((7000, 42, nil), 3) + Self.repeated((9000, 9, nil), 10))
            + Self.days("8.0.10", code: 81, from: "2021-02-01", Self.repeated((7000, 147, nil), 3))
        let health = try Self.judge("8.0.10", days)
        let candidate = try #require(health.candidate)
        let baseline = try #require(health.baseline)
        #expect(
            health.verdict
                == .regressed([.aboveBaseline(.crash, candidate: candidate.crashRate, baseline: baseline.crashRate)]))
        #expect(candidate.users == 21000 && candidate.crashedUsers == 441 && baseline.users == 21000)
        #expect(
            health.reasons.contains(
                "crash rate 2.10% [1.91–2.30] over 8.0.10's first 3 days (21,000 user-days) is above 8.0.9's "
                    + "0.60% [0.50–0.71] at the same age (21,000 user-days)"), "\(health.reasons)")
        #expect(
            ReleaseHealthReport(appStore: nil, googlePlay: health).text
                == "Google Play 81 (8.0.10): 2.1% [1.9–2.3] of 21,000 user-days vs 0.6% for 80 at the same age: regressed\n"
        )
    }

    @Test func theCeilingCountsOnlyOnceTheWindowHoldsTheMinimum() throws {
        // 40 of 2,000: lower bound 1.4722% > 1.09%; 10 of 500: 1.0899% lower bound, but 500 < 1,000.
        let above = try Self.judge("2.0", Self.days("2.0", code: nil, Self.repeated((1000, 20, nil), 2)))
        #expect(above.baseline == nil)
        guard case .regressed(let regressions) = above.verdict,
            case .aboveCeiling(.crash, _, let ceiling) = regressions.first
        else {
            Issue.record("expected regressed above the ceiling, got \(above.verdict)")
            return
        }
        #expect(ceiling == 0.0109)
        let young = try Self.judge("2.0", Self.days("2.0", code: nil, [(500, 10, nil)]))
        #expect(young.verdict == .insufficientData(userDays: 500, minimum: 1000))
        let strict = try HealthCriteria(minimumUserDays: 400)
        let judged = try Self.judge(
            "2.0", store: .appStore, Self.days("2.0", code: nil, [(500, 10, nil)]), criteria: strict)
        #expect(judged.verdict == .healthy, "500 user-days is enough now, and 1.0899% is not above 1.09%")
        let lower = try HealthCriteria(minimumUserDays: 400, maximumCrashRate: 0.0108)
        let lowered = try Self.judge("2.0", Self.days("2.0", code: nil, [(500, 10, nil)]), criteria: lower)
        #expect(lowered.verdict.name == "regressed", "1.0899% is above 1.08%")
    }

    @Test func aHealthyReleaseIsHealthy() throws {
        // 40/5000 for both: [0.5881%, 1.0875%]; the lower bound is below the ceiling 1.09%.
        let days =
            try Self.days("3.1", code: 31, Self.repeated((2500, 20, 2), 2))
            + Self.days("3.2", code: 32, from: "2021-03-01", Self.repeated((2500, 20, 3), 2))
        let health = try Self.judge("3.2", days)
        #expect(health.verdict == .healthy)
        #expect(ReleaseHealthReport(appStore: nil, googlePlay: health).isHealthy)
        #expect(!ReleaseHealthReport(appStore: nil, googlePlay: nil).isHealthy)
    }

    @Test func anANRRegressionCounts() throws {
        // ANR 35/7000: [0.3597%, 0.6946%] vs 14/7000: [0.1192%, 0.3355%]; crashes equal (20/7000).
        let days =
            try Self.days("4.0", code: 40, [(7000, 20, 14)])
            + Self.days("4.1", code: 41, from: "2021-03-01", [(7000, 20, 35)])
        let health = try Self.judge("4.1", days)
        guard case .regressed(let regressions) = health.verdict else {
            Issue.record("expected regressed, got \(health.verdict)")
            return
        }
        #expect(regressions.count == 1)
        guard case .aboveBaseline(.anr, let candidate, let baseline) = regressions.first else {
            Issue.record("expected the ANR rate, got \(regressions)")
            return
        }
        #expect(abs(candidate.lower - 0.003597) < 1e-6 && abs(baseline.upper - 0.003355) < 1e-6)
    }

    @Test func neverHealthyByDefault() throws {
        let days = try Self.days("4.0", code: 40, [(7000, 20, 14)])
        let missing = try Self.judge("4.1", days)
        #expect(missing.verdict == .insufficientData(userDays: 0, minimum: 1000))
        #expect(missing.reasons.first == "4.1 has no day with users in the health file")
        let namedBaseline = try Self.judge("4.0", baseline: "3.9", days)
        #expect(namedBaseline.verdict.name == "unknown")
        #expect(namedBaseline.reasons.contains("the baseline 3.9 has no day with users in the health file"))
        let unread = StoreHealth.unreadable(store: .appStore, source: .healthFile, reason: "cannot read it")
        #expect(unread.verdict == .unknown(reason: "cannot read it") && unread.candidate == nil)
        #expect(!ReleaseHealthReport(appStore: unread, googlePlay: try Self.judge("4.0", days)).isHealthy)
    }

    @Test func onPlayAVersionCodeNamesItsVersion() throws {
        let days = try Self.fieldReport()
        #expect(try Self.judge("81", days).candidate?.version.description == "8.0.10")
        #expect(try Self.judge("81", baseline: "80", days).baseline?.version.description == "8.0.9")
        #expect(try Self.judge("81", store: .appStore, days).candidate?.users == 0)
    }

    @Test func badCriteriaNameTheirValue() {
        #expect(throws: HealthCriteriaError.minimumUserDays(0)) { try HealthCriteria(minimumUserDays: 0) }
        #expect(throws: HealthCriteriaError.ceiling(.crash, 1.5)) { try HealthCriteria(maximumCrashRate: 1.5) }
        #expect(throws: HealthCriteriaError.ceiling(.anr, -0.1)) { try HealthCriteria(maximumANRRate: -0.1) }
    }

    // MARK: - Health as the stores report it (issues 39 and 40)

    /// Play's held-out day-1 case: a rate of 2.30% over 90 distinct users is 2.07 crashed users.
    /// Rounded to 2 before the rate is taken it read 2.22%; the window keeps Play's own number.
    @Test func aFractionalCountKeepsPlaysOwnRate() throws {
        let days = try Self.fieldReport(firstDay: (90, 0, 0))
        let first = try #require(days.last)
        let heldOut = try #require(
            HealthDay(
                date: first.date, version: first.version, versionCode: first.versionCode, users: 90,
                crashedUsers: 0.023 * 90, anrUsers: 0))
        let health = try Self.judge("8.0.10", Array(days.dropLast()) + [heldOut])
        let candidate = try #require(health.candidate)
        #expect(abs(candidate.crashRate.value - 0.023) < 1e-12, "\(candidate.crashRate)")
        #expect(abs(candidate.crashedUsers - 2.07) < 1e-9)
        #expect(health.reasons.contains { $0.contains("crash rate 2.30% [") }, "\(health.reasons)")
        // The Wilson interval of a fractional count is the same formula: 2.07 of 90.
        let rate = HealthRate(events: 2.07, of: 90)
        #expect(abs(rate.lower - 0.006455) < 1e-6 && abs(rate.upper - 0.078598) < 1e-6, "\(rate)")
        #expect(
            HealthDay(
                date: first.date, version: first.version, versionCode: nil, users: 90, crashedUsers: 90.5, anrUsers: nil
            ) == nil)
        #expect(
            HealthDay(
                date: first.date, version: first.version, versionCode: nil, users: 90, crashedUsers: .nan, anrUsers: nil
            ) == nil)
    }

    /// An ANR rate whose last day has no count yet, or no day at all, is not a passed one: Google
    /// Play's verdict is `unknown`, naming it. A 3.0% ANR rate (the baseline's 0.2%, the ceiling
    /// 0.47%) on the days it was read is `regressed` all the same, judged through those days.
    @Test func anUnreadANRRateIsNeverAPassedOne() throws {
        let baseline = try Self.days("4.0", code: 40, Self.repeated((7000, 35, 14), 3))
        let unread = "the ANR rate of 41 (4.1) is not read (2021-03-03 has none): an unread rate is never a passed one"
        let lagging =
            try baseline
            + Self.days("4.1", code: 41, from: "2021-03-01", [(7000, 35, 14), (7000, 35, 14), (7000, 35, nil)])
        let health = try Self.judge("4.1", lagging)
        #expect(
            health.candidate?.anrRate == nil && health.candidate?.daysWithoutANR.map(\.description) == ["2021-03-03"])
        #expect(health.verdict == .unknown(reason: unread), "\(health.verdict)")
        #expect(health.candidate?.ageDays == 3)
        #expect(!ReleaseHealthReport(appStore: nil, googlePlay: health).isHealthy)
        let stale =
            try baseline
            + Self.days("4.1", code: 41, from: "2021-03-01", [(7000, 35, 210), (7000, 35, 210), (7000, 35, nil)])
        let regressed = try Self.judge("4.1", stale)
        guard case .regressed(let regressions) = regressed.verdict, case .aboveBaseline(.anr, _, _) = regressions.first
        else {
            Issue.record("expected the ANR rate regressed, got \(regressed.verdict)")
            return
        }
        #expect(regressed.candidate?.ageDays == 2 && regressed.candidate?.anrRate != nil)
        #expect(regressed.reasons.contains(unread))
        #expect(regressed.reasons.contains("judged through 2021-03-02, the last day every rate of 41 (4.1) is read"))
        let none = try Self.judge(
            "4.1", baseline + Self.days("4.1", code: 41, from: "2021-03-01", Self.repeated((7000, 35, nil), 3)))
        #expect(none.verdict.name == "unknown")
        #expect(none.reasons.contains { $0.contains("ANR rate of 41 (4.1) is not read (none of its 3 days has one)") })
        // Too few users is still said first, and the unread rate with it.
        let young = try Self.judge(
            "4.1", baseline + Self.days("4.1", code: 41, from: "2021-03-01", [(500, 2, nil)]))
        #expect(young.verdict == .insufficientData(userDays: 500, minimum: 1000))
        #expect(young.reasons.contains { $0.contains("ANR rate of 41 (4.1) is not read (its one day has none)") })
        // The App Store has no ANR rate: nothing is unread there.
        let apple = try Self.judge(
            "4.1", store: .appStore,
            Self.days("4.0", code: nil, Self.repeated((7000, 35, nil), 3))
                + Self.days("4.1", code: nil, from: "2021-03-01", Self.repeated((7000, 35, nil), 3)))
        #expect(apple.verdict == .healthy, "\(apple.reasons)")
    }

    /// One row a day per version: a row repeated exactly counts once; two that disagree make the
    /// source `unknown`, naming the day, where the first one silently won.
    @Test func duplicateRowsCountOnceAndConflictingOnesAreUnknown() throws {
        let days =
            try Self.days("3.1", code: 31, Self.repeated((2500, 20, 2), 2))
            + Self.days("3.2", code: 32, from: "2021-03-01", Self.repeated((2500, 20, 3), 2))
        let repeated = try Self.judge("3.2", days + days.suffix(1))
        #expect(repeated.verdict == .healthy && repeated.candidate?.users == 5000, "\(repeated.reasons)")
        let last = try #require(days.last)
        let other = try #require(
            HealthDay(
                date: last.date, version: last.version, versionCode: last.versionCode, users: 2500, crashedUsers: 90,
                anrUsers: 3))
        let conflicting = try Self.judge("3.2", days + [other])
        #expect(conflicting.verdict.name == "unknown" && conflicting.candidate == nil)
        #expect(
            conflicting.reasons == [
                "the health file has two different rows for 32 (3.2) on 2021-03-02 (2,500 users, 20 crashed, 3 ANR "
                    + "vs 2,500 users, 90 crashed, 3 ANR): one row a day per version is counted, and which is right "
                    + "is unknown"
            ], "\(conflicting.reasons)")
        // Two versionCodes of one version on one day are two rows, summed.
        let rebuilt = try #require(
            HealthDay(
                date: last.date, version: last.version, versionCode: VersionCode(rawValue: 33), users: 2500,
                crashedUsers: 20, anrUsers: 3))
        #expect(try Self.judge("3.2", days + [rebuilt]).candidate?.users == 7500)
    }
}
