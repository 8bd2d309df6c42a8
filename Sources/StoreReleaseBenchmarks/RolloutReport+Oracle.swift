import Foundation

/// The oracle's bound beside the done-when's median checks: which of them no rule with bounded
/// false halts can pass, and how far the gate is from what is possible (``OracleBound``).
extension RolloutReport {
    /// The false-halt chance per rollout the verdicts allow, and a stricter one shown beside it.
    static let oracleAlpha = 1.0 / 200
    static let strictAlpha = 1.0 / 1000

    var oracleLines: [String] {
        let regressions = Self.regressions
        let rank = medianRank
        func atLeastOne(_ alpha: Double) -> String {
            String(format: "%.1f%%", 100 * (1 - pow(1 - alpha, Double(rollouts))))
        }
        func means(_ alpha: Double) -> String {
            regressions.map { multiplier in
                let mean = OracleBound.criticalMean(multiplier: multiplier, alpha: alpha)
                return "\(Self.multiple(multiplier)) "
                    + String(format: "%.1f (N's %.1f)", mean, mean * multiplier)
            }.joined(separator: ", ")
        }
        var lines = Self.section(
            "The least exposure possible: an oracle's bound",
            paragraphs: [
                "Per rollout: the least user-days of N at which a test that knows N−1's true crash rate (and N's "
                    + "first day's) and looks once at N's crashed users so far (Poisson, their sum) halts the "
                    + "regression with a chance of 1/2 while halting the good release with a chance of at most α; "
                    + "never below the first day's users, before which no rule sees anything. A rule that halts a good "
                    + "release with a chance of 1/200 halts at least one of \(rollouts) with a chance of "
                    + "\(atLeastOne(Self.oracleAlpha)) (1/1000: \(atLeastOne(Self.strictAlpha))).",
                "Crashes a good release is expected to have there (a regression's in brackets): α 1/200: "
                    + means(Self.oracleAlpha) + "; α 1/1000: " + means(Self.strictAlpha) + ".",
                "A verdict's chance: the most chance a rule of false-halt chance at most 1/200 on every rollout has "
                    + "to halt \(rank) of \(rollouts) regressions by the check's limit (its median at most the limit): "
                    + "the oracle's power at the limit, rollout by rollout, as independent events.",
            ],
            table: "Regressions: the oracle's bound (median over rollouts) against each rule's median exposure",
            columns: [
                "daily users", "N", "bound, α 1/200 (Poisson alone)", "bound, α 1/1000", "gate (÷ bound)",
                "ceiling 1.09%", "2 × delta +20%", "halted below the bound: gate / ceiling / delta",
                "gate ≤ ceiling's", "gate ≤ 2 × delta's",
            ])
        for band in RolloutBenchmarks.bands {
            let apps = self.apps[band] ?? []
            for multiplier in regressions {
                let mean = OracleBound.criticalMean(multiplier: multiplier, alpha: Self.oracleAlpha)
                let strictMean = OracleBound.criticalMean(multiplier: multiplier, alpha: Self.strictAlpha)
                let bounds = apps.map { OracleBound.bound($0, criticalMean: mean) }
                let poisson = apps.map { OracleBound.poissonBound($0, criticalMean: mean) }
                let strict = apps.map { OracleBound.bound($0, criticalMean: strictMean) }
                let bound = RolloutSummary.rank(bounds, 0.5)
                let (gate, ceiling, delta) = medianExposures(band, multiplier)
                let below = haltedBelow(band, multiplier, bounds: bounds.map(Optional.some))
                func verdict(_ limit: Int?, times: Double) -> String {
                    Self.verdict(
                        multiplier: multiplier, gate: gate, limit: limit, times: times, bound: bound,
                        rank: rank
                    ) { reach in
                        apps.map {
                            OracleBound.bestChance($0, multiplier: multiplier, alpha: Self.oracleAlpha, by: reach)
                        }
                    }
                }
                lines.append(
                    "| \(band.name) | \(Self.multiple(multiplier)) | \(Self.users(bound)) "
                        + "(\(Self.users(RolloutSummary.rank(poisson, 0.5)))) | "
                        + "\(Self.users(RolloutSummary.rank(strict, 0.5))) | \(Self.users(gate)) "
                        + "(\(Self.ratio(gate, bound))) | \(Self.users(ceiling)) | "
                        + "\(Self.users(delta.map { 2 * $0 })) | " + below + " | "
                        + verdict(ceiling, times: 1) + " | " + verdict(delta, times: 2) + " |")
            }
        }
        return lines
    }

    /// How many of the scenario's regressions each rule halted with less exposure than its
    /// rollout's bound (`nil`: no bound within the run), as `gate / ceiling / delta`.
    func haltedBelow(_ band: RolloutBenchmarks.Band, _ multiplier: Double, bounds: [Int?]) -> String {
        RolloutBenchmarks.rules.map { rule in
            let exposures = summary(band, multiplier, rule).outcomes.map(\.exposedUserDays)
            return String(
                zip(exposures, bounds).count { exposure, bound in
                    guard let exposure else { return false }
                    return bound.map { exposure < $0 } ?? true
                })
        }.joined(separator: " / ")
    }

    /// A median check's verdict beside a bound: `no check` below 1.5x, `gate passes`, or whether
    /// the bound's median is above the check's limit (`times` × the rule's median), with the most
    /// chance a bounded rule has to halt `rank` regressions by it, from each rollout's chance there.
    static func verdict(
        multiplier: Double, gate: Int?, limit: Int?, times: Double, bound: Int?, rank: Int,
        chances: (Int) -> [Double]
    ) -> String {
        guard multiplier >= 1.5 else { return "no check" }
        guard !atMost(gate, limit, times: times) else { return "gate passes" }
        guard let limit else { return "the rule never halts" }
        let reach = Int((times * Double(limit)).rounded(.down))
        let chance = chance(OracleBound.chance(atLeast: rank, of: chances(reach)))
        return (bound.map { $0 > reach } ?? true ? "out of reach" : "not ruled out") + " (\(chance))"
    }

    /// `≤ 0.15`, `≤ 8e-04`, `< 1e-12`.
    static func chance(_ value: Double) -> String {
        if value >= 0.01 { return "≤ " + String(format: "%.2f", value) }
        if value >= 1e-12 { return "≤ " + String(format: "%.0e", value) }
        return "< 1e-12"
    }
}
