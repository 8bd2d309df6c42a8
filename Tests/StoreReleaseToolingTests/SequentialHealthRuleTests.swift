import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The rollout's sequential health rule: each verdict a row, its false halts over many looks
/// bounded, its power at a known regression, and the margin 100% waits for.
@Suite struct SequentialHealthRuleTests {
    static let criteria = (try? HealthCriteria())?.sequentially()

    /// A window of `users` user-days with `crashed` crashed users and 0.1% ANR users (`nil`: not counted).
    static func window(_ version: String, users: Int, crashed: Double, anr: Double? = nil, age: Int = 3) throws
        -> HealthWindow
    {
        HealthWindow(
            HealthCounts(
                version: try Version(parsing: version), versionCode: nil, ageDays: age, users: users,
                crashedUsers: crashed, anrUsers: anr ?? Double(users) * 0.001))
    }

    /// A row: N's window, N−1's (if any), and the verdict the rule must give.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let users: Int
        let crashed: Double
        var anr: Double?? = .some(nil)
        let baseline: (users: Int, crashed: Double)?
        let verdict: HealthVerdict.Kind
        var cause: String? = nil
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "the same rate over 100,000 user-days each: healthy", users: 100_000, crashed: 500,
            baseline: (100_000, 500), verdict: .healthy),
        Row(
            name: "twice N−1's rate over 20,000 user-days each: regressed (evidence e^17)", users: 20_000,
            crashed: 200, baseline: (20_000, 100), verdict: .regressed, cause: "aboveBaseline"),
        Row(
            name: "0.8% against 0.45% over 10,000 each: one look calls it regressed; here it leans (evidence ~40)",
            users: 10_000, crashed: 80, baseline: (10_000, 45), verdict: .insufficientData),
        Row(
            name: "1.5x over 3,000 each (18 against 12 crashes): no evidence either way, healthy", users: 3_000,
            crashed: 18, baseline: (3_000, 12), verdict: .healthy),
        Row(
            name: "below the minimum of user-days: insufficientData", users: 900, crashed: 4, baseline: (900, 4),
            verdict: .insufficientData),
        Row(
            name: "no baseline, 2% over 100,000 user-days: above the 1.09% ceiling", users: 100_000, crashed: 2_000,
            baseline: nil, verdict: .regressed, cause: "aboveCeiling"),
        Row(
            name: "no baseline, 3% over 500 user-days: the ceiling waits for the minimum", users: 500, crashed: 15,
            baseline: nil, verdict: .insufficientData),
        Row(
            name: "no baseline, 1.2% over 20,000 user-days: not beyond doubt above 1.09%", users: 20_000,
            crashed: 240, baseline: nil, verdict: .healthy),
        Row(
            name: "the ANR rate not counted: unknown", users: 100_000, crashed: 500, anr: .some(.some(-1)),
            baseline: (100_000, 500), verdict: .unknown),
    ]

    @Test(arguments: rows) func eachVerdictIsARow(_ row: Row) throws {
        let criteria = try #require(Self.criteria)
        var candidate = try Self.window("8.1.0", users: row.users, crashed: row.crashed)
        if case .some(.some(let anr)) = row.anr, anr < 0 {
            candidate = HealthWindow(
                HealthCounts(
                    version: candidate.version, versionCode: nil, ageDays: 3, users: row.users,
                    crashedUsers: row.crashed, anrUsers: nil))
        }
        let baseline = try row.baseline.map { try Self.window("8.0.9", users: $0.users, crashed: $0.crashed) }
        let verdict = HealthRule.verdict(
            candidate: candidate, baseline: baseline, criteria: criteria,
            metrics: HealthMetric.reported(by: .googlePlay))
        #expect(verdict.kind == row.verdict, "\(verdict)")
        if let cause = row.cause, case .regressed(let regressions) = verdict {
            let causes = regressions.map { regression in
                switch regression {
                case .aboveBaseline: "aboveBaseline"
                case .aboveCeiling: "aboveCeiling"
                }
            }
            #expect(causes.contains(cause), "\(regressions)")
        }
    }

    @Test func oneLookCallsTheLeaningRowRegressed() throws {
        let candidate = try Self.window("8.1.0", users: 10_000, crashed: 80)
        let baseline = try Self.window("8.0.9", users: 10_000, crashed: 45)
        let single = HealthRule.verdict(
            candidate: candidate, baseline: baseline, criteria: try HealthCriteria(), metrics: [.crash, .anr])
        #expect(single.kind == .regressed, "the general rule's intervals no longer overlap")
        let evidence = SequentialHealthRule.evidenceAboveBaseline(
            candidate: 80, of: 10_000, baseline: 45, of: 10_000)
        #expect(evidence > SequentialHealthRule.leaningEvidence && evidence < 100, "\(evidence)")
    }

    @Test func sequentiallyKeepsTheNumbersAndTheDefaultIsOneLook() throws {
        let criteria = try HealthCriteria(minimumUserDays: 300, maximumCrashRate: 0.02, maximumANRRate: 0.01)
        #expect(!criteria.sequential)
        let rollout = criteria.sequentially()
        #expect(rollout.sequential && rollout.minimumUserDays == 300)
        #expect(rollout.maximumCrashRate == 0.02 && rollout.maximumANRRate == 0.01)
    }

    @Test func theEvidenceIsTheMixtureOfLikelihoodRatios() {
        // 200 of 300 crashes on N, the same users: π(1) = 1/2; at r = 2, π = 2/3.
        let atTwo = 200 * log((2.0 / 3) / 0.5) + 100 * log((1.0 / 3) / 0.5)
        let ratio = SequentialHealthRule.logRatio(200, 20_000, 100, 20_000, ratio: 2, against: 1)
        #expect(abs(ratio - atTwo) < 1e-9)
        #expect(SequentialHealthRule.evidenceAboveBaseline(candidate: 0, of: 0, baseline: 3, of: 100) == 1)
        #expect(SequentialHealthRule.evidenceAboveCeiling(candidate: 1, of: 10, ceiling: 0) == .infinity)
        #expect(SequentialHealthRule.evidenceAboveCeiling(candidate: 0, of: 10, ceiling: 0) == 1)
    }

    /// A day of a version at `rate`: its crashed users a Poisson draw (normal above 30 expected).
    static func draw(_ mean: Double, _ random: inout SeededGenerator) -> Double {
        if mean > 30 { return max(0, (mean + mean.squareRoot() * random.gaussian()).rounded()) }
        var (count, product, limit) = (0.0, random.unit(), exp(-mean))
        while product > limit {
            count += 1
            product *= random.unit()
        }
        return count
    }

    /// How many of `rollouts` generated rollouts the rule halts within `looks` daily looks: N at
    /// `ratio` times N−1's 0.5% crash rate (ANR 0.2% for both), N and N−1 climbing 1, 2, 5, 10,
    /// 20, 50, 100% of `dailyUsers` a step a day.
    static func halts(
        rollouts: Int, ratio: Double, dailyUsers: Double, seed: UInt64, criteria: HealthCriteria, looks: Int = 30
    ) throws -> Int {
        let steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
        var random = SeededGenerator(state: seed)
        var halted = 0
        for _ in 0..<rollouts {
            var (n1, x1, a1, n0, x0, a0) = (0, 0.0, 0.0, 0, 0.0, 0.0)
            for day in 0..<looks {
                let users = Int(dailyUsers * steps[min(day, steps.count - 1)])
                n1 += users
                n0 += users
                x1 += draw(Double(users) * 0.005 * ratio, &random)
                x0 += draw(Double(users) * 0.005, &random)
                a1 += draw(Double(users) * 0.002, &random)
                a0 += draw(Double(users) * 0.002, &random)
                let candidate = HealthWindow(
                    HealthCounts(
                        version: try Version(parsing: "8.1.0"), versionCode: nil, ageDays: day + 1, users: n1,
                        crashedUsers: min(x1, Double(n1)), anrUsers: min(a1, Double(n1))))
                let baseline = HealthWindow(
                    HealthCounts(
                        version: try Version(parsing: "8.0.9"), versionCode: nil, ageDays: day + 1, users: n0,
                        crashedUsers: min(x0, Double(n0)), anrUsers: min(a0, Double(n0))))
                let verdict = HealthRule.verdict(
                    candidate: candidate, baseline: baseline, criteria: criteria, metrics: [.crash, .anr])
                if verdict.kind == .regressed {
                    halted += 1
                    break
                }
            }
        }
        return halted
    }

    @Test func goodReleasesLookedAtEveryDayAreAlmostNeverHalted() throws {
        let criteria = try #require(Self.criteria)
        // 1,000 good rollouts, 30 looks each, crash and ANR: at most 1 in 2,000 per test by
        // Ville's inequality, so 0.5 expected at most.
        let sequential = try Self.halts(rollouts: 1_000, ratio: 1, dailyUsers: 20_000, seed: 43, criteria: criteria)
        #expect(sequential <= 2, "\(sequential) of 1,000 good rollouts halted")
        // The same data judged one look at a time (health's rule) halt many of them.
        let single = try Self.halts(
            rollouts: 1_000, ratio: 1, dailyUsers: 20_000, seed: 43, criteria: try HealthCriteria())
        #expect(single >= 10, "\(single) of 1,000 halted one look at a time")
    }

    @Test func aRegressionOfTwiceTheRateIsHaltedBeforeEveryoneHasIt() throws {
        let criteria = try #require(Self.criteria)
        // At 20,000 daily users the sixth look (50%) holds 17,600 user-days: 176 crashes of N
        // against 88 of N−1 on average, evidence about e^15 ÷ 6 at r = 2 (about 9 in 10 halted
        // by then); the seventh, 37,600 user-days, about e^32.
        let double = try Self.halts(
            rollouts: 200, ratio: 2, dailyUsers: 20_000, seed: 7, criteria: criteria, looks: 7)
        #expect(double >= 195, "\(double) of 200 2x regressions halted by the seventh look at 20,000 daily users")
        // 1.5x at 50,000 daily users: 94,000 user-days by the seventh look, evidence about e^24.
        let half = try Self.halts(
            rollouts: 200, ratio: 1.5, dailyUsers: 50_000, seed: 8, criteria: criteria, looks: 7)
        #expect(half >= 190, "\(half) of 200 1.5x regressions halted by the seventh look at 50,000 daily users")
    }

    @Test func theMarginIsRuledOutOnlyWithEnoughCrashes() throws {
        let same = try Self.window("8.1.0", users: 100_000, crashed: 500, anr: 500)
        let before = try Self.window("8.0.9", users: 100_000, crashed: 500, anr: 500)
        #expect(SequentialHealthRule.clearsMargin(candidate: same, baseline: before))
        // 100 ANR users each (0.1%): too few to rule out 1.5x on the ANR rate, which must too.
        let fewANRs = try Self.window("8.1.0", users: 100_000, crashed: 500)
        let fewANRsBefore = try Self.window("8.0.9", users: 100_000, crashed: 500)
        #expect(!SequentialHealthRule.clearsMargin(candidate: fewANRs, baseline: fewANRsBefore))
        let few = try Self.window("8.1.0", users: 3_000, crashed: 15)
        let fewBefore = try Self.window("8.0.9", users: 3_000, crashed: 15)
        #expect(!SequentialHealthRule.clearsMargin(candidate: few, baseline: fewBefore))
        let worse = try Self.window("8.1.0", users: 100_000, crashed: 750, anr: 500)
        #expect(!SequentialHealthRule.clearsMargin(candidate: worse, baseline: before), "1.5x is not ruled out")
        #expect(SequentialHealthRule.clearsMargin(candidate: few, baseline: nil), "no baseline: the ceilings judge")
        #expect(!SequentialHealthRule.clearsMargin(candidate: nil, baseline: before))
    }

    /// One day of 10,000 users each of 8.1.0 with `crashed` crashed users and of 8.0.9 with
    /// `baseline`, judged by `criteria`.
    static func judgeOneDay(crashed: Double, baseline: Double, criteria: HealthCriteria) throws -> StoreHealth {
        let (new, old) = (try Version(parsing: "8.1.0"), try Version(parsing: "8.0.9"))
        let date = try #require(HealthDate("2026-01-05"))
        let days = try [(new, crashed), (old, baseline)].map { version, crashed in
            try #require(
                HealthDay(
                    date: date, version: version, versionCode: nil, users: 10_000, crashedUsers: crashed, anrUsers: 10))
        }
        return StoreHealth.judge(
            VersionOrCode(new), store: .googlePlay, source: .healthFile, days: days, criteria: criteria)
    }

    @Test func aLeaningVerdictSaysSoInItsReasons() throws {
        let health = try Self.judgeOneDay(crashed: 80, baseline: 45, criteria: try #require(Self.criteria))
        #expect(health.verdict.kind == .insufficientData)
        #expect("\(health.verdict)" == "insufficientData (the data lean towards a regression)")
        #expect(health.reasons.contains { $0.contains("leans above 8.0.9's") && $0.contains("4,000 halts") })
        let gate = RolloutGate.Health(health)
        #expect(!gate.clearsMargin)
    }

    /// The false-halt chance the criteria carry is the one judged by, and said: 100 crashes against
    /// 50 over 10,000 user-days each is evidence of about 1,090 to 1, which holds at the rule's 1 in
    /// 1,000 (4,000 halts) and halts at 1 in 200 (800 halts: the benchmark's `--false-halts 0.005`).
    @Test func theCriteriasFalseHaltChanceIsTheOneJudgedBy() throws {
        var criteria = try #require(Self.criteria)
        let strict = try Self.judgeOneDay(crashed: 100, baseline: 50, criteria: criteria)
        #expect(strict.verdict.kind == .insufficientData, "\(strict.reasons)")
        #expect(strict.reasons.contains { $0.contains("evidence 1,090 to 1") && $0.contains("4,000 halts") })
        criteria.falseHaltsPerStore = 0.005
        let loose = try Self.judgeOneDay(crashed: 100, baseline: 50, criteria: criteria)
        #expect(loose.verdict.kind == .regressed, "\(loose.reasons)")
        #expect(loose.reasons.contains { $0.contains("evidence 1,090 to 1") && $0.contains(" 800 halts") })
    }
}

extension SeededGenerator {
    /// A uniform draw in (0, 1).
    mutating func unit() -> Double {
        (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992
    }

    /// A standard normal draw (Box–Muller).
    mutating func gaussian() -> Double {
        (-2 * log(unit())).squareRoot() * cos(2 * .pi * unit())
    }
}
