import Foundation
import StoreReleaseKit

/// Issue 43's evidence: generated rollouts run through the rollout gate and two fixed rules,
/// the same rollouts for each (``RolloutSimulation`` says how they are drawn and run).
///
/// For every app size band × N's crash rate as a multiple of N−1's, and every rule: how many
/// good releases (1x) it halts and how many days they take to reach 100%; how many user-days a
/// regression reaches before its halt (median, p90) and how many regressions it never halts
/// before 100%. Then the gate's `--min-users` for a small app, the issue's done-when checked, the
/// fixed rules made as careful with good releases as the gate (``RolloutReport/carefulLines``), and
/// beside its median checks the least exposure any rule with bounded false halts could reach
/// (``OracleBound``).
enum RolloutBenchmarks {
    /// An app size band, drawn log-uniform.
    struct Band: Sendable, Hashable {
        let name: String
        let users: ClosedRange<Double>
    }

    static let bands = [
        Band(name: "2,000–20,000", users: 2_000...20_000), Band(name: "20,000–200,000", users: 20_000...200_000),
        Band(name: "200,000–2,000,000", users: 200_000...2_000_000),
    ]
    /// N's true crash rate as a multiple of N−1's.
    static let multipliers: [Double] = [1, 1.2, 1.5, 2, 5]
    static let gate = RolloutRule.gate(minimumUserDays: HealthCriteria.defaultMinimumUserDays)
    static let ceiling = RolloutRule.ceiling(HealthCriteria.defaultMaximumCrashRate)
    static let delta = RolloutRule.delta(0.2)
    static let rules = [gate, ceiling, delta]
    /// The ceilings and deltas tried for fixed rules as careful as the gate (``RolloutReport/carefulLines``).
    static let carefulCeilings: [Double] = [0.0109, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25]
    static let carefulDeltas: [Double] = [0.2, 0.5, 1, 2, 5, 10, 20, 50]
    static let carefulRules = carefulCeilings.map(RolloutRule.ceiling) + carefulDeltas.map(RolloutRule.delta)
    /// The gate before the sequential rule, beside it: its health judged one look a round (`health`'s rule).
    static let singleLookGate = RolloutRule.gate(
        minimumUserDays: HealthCriteria.defaultMinimumUserDays, looks: .single)
    /// The small app, and the gate's `--min-users` tried on it.
    static let smallApp = Band(name: "2,000", users: 2_000...2_000)
    static let smallAppMinimums = [100, 300, 1_000, 3_000]
    /// The most rounds (days) a rollout runs.
    static let maximumRounds = 240

    /// Runs `rollouts` generated rollouts per band and multiplier through every rule, the gate
    /// halting a good release of a store with a chance of at most `falseHaltsPerStore`.
    static func run(
        rollouts: Int, seed: UInt64, falseHaltsPerStore: Double = SequentialHealthRule.falseHaltsPerStore
    ) throws -> RolloutReport {
        let simulation = try RolloutSimulation(maximumRounds: maximumRounds)
        var results: [RolloutReport.Key: RolloutSummary] = [:]
        var apps: [Band: [RolloutApp]] = [:]
        let runs: [(Int, Band, [RolloutRule])] =
            bands.enumerated().map {
                ($0.offset, $0.element, rules + carefulRules.filter { !rules.contains($0) } + [singleLookGate])
            }
            + [(bands.count, smallApp, smallAppMinimums.map { RolloutRule.gate(minimumUserDays: $0) })]
        for (bandIndex, band, bandRules) in runs {
            for index in 0..<rollouts {
                // The same app (size, rates, early adopters) for every multiplier and rule.
                var appRandom = SplitMix64(seed: seed, bandIndex, index)
                let appSeed = appRandom.next()
                if bandIndex < bands.count {
                    apps[band, default: []].append(RolloutApp(users: band.users, multiplier: 1, seed: appSeed))
                }
                for multiplier in multipliers {
                    let app = RolloutApp(users: band.users, multiplier: multiplier, seed: appSeed)
                    let previousDays = try simulation.previousDays(app)
                    for rule in bandRules {
                        let outcome = try simulation.run(
                            app, rule: rule, previousDays: previousDays, falseHaltsPerStore: falseHaltsPerStore)
                        results[RolloutReport.Key(band: band, multiplier: multiplier, rule: rule), default: .init()]
                            .outcomes.append(outcome)
                    }
                }
            }
        }
        return RolloutReport(
            rollouts: rollouts, seed: seed, falseHaltsPerStore: falseHaltsPerStore, results: results, apps: apps)
    }
}

/// What one rule did with a scenario's rollouts.
struct RolloutSummary: Sendable {
    var outcomes: [RolloutOutcome] = []

    /// Halted at any time within the run.
    var halted: Int { outcomes.count(where: { $0.haltRound != nil }) }
    /// Not halted before reaching 100%.
    var missed: Int { outcomes.count(where: { !$0.haltedBeforeComplete }) }
    /// Neither halted nor at 100% when the run ended: held all the while.
    var undecided: Int { outcomes.count(where: { $0.haltRound == nil && $0.completeRound == nil }) }

    /// The user-days exposed before the halt at quantile `q` (nearest rank); `nil`: that rank
    /// was not halted within the run.
    func exposure(_ q: Double) -> Int? {
        RolloutSummary.rank(outcomes.map(\.exposedUserDays), q)
    }

    /// The days to 100% at quantile `q`; `nil`: that rank did not reach 100% within the run.
    func daysToComplete(_ q: Double) -> Int? {
        RolloutSummary.rank(outcomes.map { $0.haltRound == nil ? $0.completeRound : nil }, q)
    }

    /// The nearest-rank quantile, `nil` ranking above every number.
    static func rank(_ values: [Int?], _ q: Double) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted { ($0 ?? .max) < ($1 ?? .max) }
        return sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
    }
}

/// The benchmark's tables and checks, as Markdown.
struct RolloutReport: Sendable {
    struct Key: Sendable, Hashable {
        let band: RolloutBenchmarks.Band
        let multiplier: Double
        let rule: RolloutRule
    }

    let rollouts: Int
    let seed: UInt64
    /// The gate's chance a store of halting a good release, as the run set it (`--false-halts`).
    let falseHaltsPerStore: Double
    let results: [Key: RolloutSummary]
    /// Each band's apps, in the order of its outcomes (at 1x: the multiplier is the scenario's).
    let apps: [RolloutBenchmarks.Band: [RolloutApp]]

    /// One check of the issue's done-when.
    struct Check: Sendable {
        let passed: Bool
        let text: String

        var line: String { (passed ? "PASS " : "FAIL ") + text }
    }

    func summary(_ band: RolloutBenchmarks.Band, _ multiplier: Double, _ rule: RolloutRule) -> RolloutSummary {
        results[Key(band: band, multiplier: multiplier, rule: rule)] ?? RolloutSummary()
    }

    /// The multipliers of the regressions: every scenario's but 1x.
    static let regressions = RolloutBenchmarks.multipliers.filter { $0 > 1 }

    /// How many of a band's regressions a rule halts by a limit when its median exposure is at
    /// most the limit: half the rollouts, rounded up.
    var medianRank: Int { max(1, Int((0.5 * Double(rollouts)).rounded(.up))) }

    /// The median exposure of the gate, the ceiling and the delta rule to the regression of
    /// `multiplier` in `band`.
    func medianExposures(_ band: RolloutBenchmarks.Band, _ multiplier: Double) -> (
        gate: Int?, ceiling: Int?, delta: Int?
    ) {
        func median(_ rule: RolloutRule) -> Int? { summary(band, multiplier, rule).exposure(0.5) }
        return (median(RolloutBenchmarks.gate), median(RolloutBenchmarks.ceiling), median(RolloutBenchmarks.delta))
    }

    var lines: [String] {
        let regressions = Self.regressions
        var lines = [
            "## Rollouts: the gate against two fixed rules",
            "",
            "\(rollouts) generated rollouts per app size band and multiplier (seed \(seed)), Google Play only, the "
                + "schedule 1, 2, 5, 10, 20, 50, 100% with 24-hour steps; Play's data a day behind"
                + (falseHaltsPerStore == SequentialHealthRule.falseHaltsPerStore
                    ? "."
                    : "; the gate halting a good release with a chance of \(falseHaltsPerStore) a store "
                        + "(--false-halts; the rule's is \(SequentialHealthRule.falseHaltsPerStore))."),
        ]
        lines += Self.table(
            "Good releases (N at N−1's rate)",
            columns: ["daily users", "rule", "halted", "days to 100%, median", "p90"])
        for band in RolloutBenchmarks.bands {
            for rule in RolloutBenchmarks.rules {
                let good = summary(band, 1, rule)
                lines.append(
                    "| \(band.name) | \(rule.name) | \(good.halted) of \(good.outcomes.count) | "
                        + "\(Self.days(good.daysToComplete(0.5))) | \(Self.days(good.daysToComplete(0.9))) |")
            }
        }
        lines += Self.table(
            "Regressions: user-days on N before the halt (median / p90), and how many reached 100% unhalted",
            columns: ["daily users", "N"] + RolloutBenchmarks.rules.map(\.name) + ["gate ÷ ceiling", "gate ÷ delta"])
        for band in RolloutBenchmarks.bands {
            for multiplier in regressions {
                let cells = RolloutBenchmarks.rules.map { rule in
                    let bad = summary(band, multiplier, rule)
                    return "\(Self.users(bad.exposure(0.5))) / \(Self.users(bad.exposure(0.9))); "
                        + "\(bad.missed) missed"
                }
                let (gate, ceiling, delta) = medianExposures(band, multiplier)
                lines.append(
                    "| \(band.name) | \(Self.multiple(multiplier)) | " + cells.joined(separator: " | ")
                        + " | \(Self.ratio(gate, ceiling)) | \(Self.ratio(gate, delta)) |")
            }
        }
        lines += Self.table(
            "A small app (2,000 daily users): the gate's --min-users",
            columns: ["--min-users", "good halted", "days to 100%, median / p90"]
                + regressions.map { "\(Self.multiple($0)): missed (still held at the end); exposure median" })
        for minimum in RolloutBenchmarks.smallAppMinimums {
            let rule = RolloutRule.gate(minimumUserDays: minimum)
            let good = summary(RolloutBenchmarks.smallApp, 1, rule)
            let cells = regressions.map { multiplier in
                let bad = summary(RolloutBenchmarks.smallApp, multiplier, rule)
                return "\(bad.missed) of \(bad.outcomes.count) (\(bad.undecided)); \(Self.users(bad.exposure(0.5)))"
            }
            lines.append(
                "| \(minimum) | \(good.halted) of \(good.outcomes.count) | \(Self.days(good.daysToComplete(0.5))) / "
                    + "\(Self.days(good.daysToComplete(0.9))) | " + cells.joined(separator: " | ") + " |")
        }
        lines += Self.table(
            "The gate before: the same gate, its health judged one look a round (health's rule, N's interval "
                + "against N−1's; the 1.5x margin before 100% kept)",
            columns: ["daily users", "good halted", "days to 100%, median"]
                + regressions.map { "\(Self.multiple($0)): median / p90; missed" })
        for band in RolloutBenchmarks.bands {
            let rule = RolloutBenchmarks.singleLookGate
            let good = summary(band, 1, rule)
            lines.append(
                "| \(band.name) | \(good.halted) of \(good.outcomes.count) | \(Self.days(good.daysToComplete(0.5))) | "
                    + regressionCells(band, rule).joined(separator: " | ") + " |")
        }
        let causes = RolloutOutcome.HaltCause.allCases
        lines += Self.table(
            "Good releases the gate halted, and why (its health's first regression)",
            columns: ["daily users", "rule", "halted"] + causes.map(\.rawValue) + ["day of the halt, median"])
        var examples: [String] = []
        for (band, rule) in self.gateRules {
            let outcomes = summary(band, 1, rule).outcomes
            let halted = outcomes.filter { $0.haltRound != nil }
            let counts = causes.map { cause in String(halted.count(where: { $0.haltCause == cause })) }
            let day = RolloutSummary.rank(halted.map(\.haltRound), 0.5).map(String.init) ?? "—"
            lines.append(
                "| \(band.name) | \(rule.name) | \(halted.count) of \(outcomes.count) | "
                    + counts.joined(separator: " | ") + " | \(day) |")
            if let first = halted.first {
                examples.append(
                    "- \(band.name) daily users, \(rule.name), day \(first.haltRound ?? 0): \(first.haltNote ?? "")")
            }
        }
        lines += ["", "The first good release halted in each row:", ""] + examples
        let checks = self.checks
        lines += ["", "### Checks (issue 43, done when)", ""] + checks.map(\.line)
        lines.append("checks: \(checks.count(where: \.passed)) passed, \(checks.count(where: { !$0.passed })) failed")
        return lines + carefulLines + oracleLines + sameAgeLines
    }

    /// A rule's regressions in `band`, a cell each: `19,001 / 48,758; 0 missed` (the median
    /// exposure, the p90 unless `p90` is false, and how many reached 100% unhalted).
    func regressionCells(_ band: RolloutBenchmarks.Band, _ rule: RolloutRule, p90: Bool = true) -> [String] {
        Self.regressions.map { multiplier in
            let bad = summary(band, multiplier, rule)
            return Self.users(bad.exposure(0.5)) + (p90 ? " / \(Self.users(bad.exposure(0.9)))" : "")
                + "; \(bad.missed) missed"
        }
    }

    /// The gate's rules and bands: the gate as written and as it was (one look a round) on every
    /// band, each `--min-users` on the small app.
    var gateRules: [(RolloutBenchmarks.Band, RolloutRule)] {
        RolloutBenchmarks.bands.flatMap { [($0, RolloutBenchmarks.gate), ($0, RolloutBenchmarks.singleLookGate)] }
            + RolloutBenchmarks.smallAppMinimums.map {
                (RolloutBenchmarks.smallApp, RolloutRule.gate(minimumUserDays: $0))
            }
    }

    /// The done-when: no good release halted, every ≥1.5x regression halted before 100%, the
    /// gate's median exposure at most the ceiling rule's and within 2x the delta rule's (≥1.5x).
    var checks: [Check] {
        var checks: [Check] = []
        let gate = RolloutBenchmarks.gate
        for band in RolloutBenchmarks.bands {
            let good = summary(band, 1, gate)
            checks.append(
                Check(
                    passed: good.halted == 0,
                    text: "the gate halts no good release, \(band.name) daily users: "
                        + "\(good.halted) of \(good.outcomes.count) halted"))
        }
        for band in RolloutBenchmarks.bands {
            for multiplier in RolloutBenchmarks.multipliers where multiplier >= 1.5 {
                let bad = summary(band, multiplier, gate)
                let label = "\(band.name) daily users, \(Self.multiple(multiplier))"
                checks.append(
                    Check(
                        passed: bad.missed == 0,
                        text: "the gate halts every regression before 100%, \(label): "
                            + "\(bad.missed) of \(bad.outcomes.count) not halted"))
                let median = bad.exposure(0.5)
                let ceiling = summary(band, multiplier, RolloutBenchmarks.ceiling).exposure(0.5)
                let delta = summary(band, multiplier, RolloutBenchmarks.delta).exposure(0.5)
                checks.append(
                    Check(
                        passed: Self.atMost(median, ceiling, times: 1),
                        text: "the gate's median exposure is at most the ceiling rule's, \(label): "
                            + "\(Self.users(median)) vs \(Self.users(ceiling)) (\(Self.ratio(median, ceiling)))"))
                checks.append(
                    Check(
                        passed: Self.atMost(median, delta, times: 2),
                        text: "the gate's median exposure is within 2x the delta rule's, \(label): "
                            + "\(Self.users(median)) vs \(Self.users(delta)) (\(Self.ratio(median, delta)))"))
            }
        }
        return checks
    }

    /// `value ≤ times × other`, `nil` being more than any number (never halted).
    static func atMost(_ value: Int?, _ other: Int?, times: Double) -> Bool {
        switch (value, other) {
        case (nil, _): other == nil
        case (.some, nil): true
        case (.some(let value), .some(let other)): Double(value) <= times * Double(other)
        }
    }

    static func ratio(_ value: Int?, _ other: Int?) -> String {
        switch (value, other) {
        case (nil, nil): "neither halts"
        case (nil, .some): "∞ (gate never)"
        case (.some, nil): "0 (other never)"
        case (.some(let value), .some(let other)):
            other == 0 ? "∞" : String(format: "%.2f", Double(value) / Double(other))
        }
    }

    static func users(_ value: Int?) -> String {
        value.map(grouped) ?? "never"
    }

    /// `21,000`.
    static func grouped(_ count: Int) -> String {
        var characters = Array(String(count))
        var at = characters.count - 3
        while at > 0 {
            characters.insert(",", at: at)
            at -= 3
        }
        return String(characters)
    }

    /// A table's heading and header rows, after a blank line.
    static func table(_ title: String, columns: [String]) -> [String] {
        [
            "", "### \(title)", "", "| " + columns.joined(separator: " | ") + " |",
            "|" + String(repeating: "---|", count: columns.count),
        ]
    }

    /// A section's heading and paragraphs, each after a blank line, then its table's heading and
    /// header rows.
    static func section(_ heading: String, paragraphs: [String], table title: String, columns: [String])
        -> [String]
    {
        ["", "### \(heading)"] + paragraphs.flatMap { ["", $0] } + table(title, columns: columns)
    }

    static func days(_ value: Int?) -> String {
        value.map(String.init) ?? "not reached"
    }

    static func multiple(_ multiplier: Double) -> String {
        (multiplier == multiplier.rounded() ? String(Int(multiplier)) : String(multiplier)) + "x"
    }

    static func percent(_ fraction: Double) -> String {
        String(format: "%.2f%%", fraction * 100)
    }
}
