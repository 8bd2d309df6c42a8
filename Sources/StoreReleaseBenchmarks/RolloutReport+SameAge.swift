import Foundation

/// The same-age bound beside the oracle's: which median checks no unbiased rule that reads N−1's
/// rate from its same-age window can pass, and how far the gate is from it (``SameAgeWindow``).
extension RolloutReport {
    var sameAgeLines: [String] {
        let regressions = Self.regressions
        let rank = medianRank
        func means(_ alpha: Double) -> String {
            regressions.map { multiplier in
                let mean = { SameAgeWindow.criticalMean(ratio: $0, multiplier: multiplier, alpha: alpha) }
                return "\(Self.multiple(multiplier)) "
                    + String(format: "%.1f (%.1f; %.1f)", mean(1), mean(10), mean(100))
            }.joined(separator: ", ")
        }
        var lines = Self.section(
            "Without N−1's true rate: the same-age bound",
            paragraphs: [
                "Per rollout: the least user-days of N at which the best unbiased test that reads N−1's rate from "
                    + "N−1's window at the same age (N's share of both windows' crashed users given their sum, "
                    + "binomial, randomized to size α) halts the regression with a chance of 1/2 while halting the "
                    + "good release with a chance of at most α. N−1's window: the oldest a rule halted by then can "
                    + "have read (N at the first step all along, within the run), each day's users and first-day "
                    + "factors as generated; never below the first day's users or the oracle's bound.",
                "Crashes a good release is expected to have there when N−1's window expects as many (10 times as "
                    + "many; 100 times): α 1/200: " + means(Self.oracleAlpha) + "; α 1/1000: " + means(Self.strictAlpha)
                    + ".",
                "A verdict's chance: the most chance an unbiased rule of false-halt chance at most 1/200 on every "
                    + "rollout that reads N−1 only through its same-age window has to halt \(rank) of \(rollouts) "
                    + "regressions by the check's limit.",
            ],
            table: "Regressions: the same-age bound (median over rollouts) against each rule's median exposure",
            columns: [
                "daily users", "N", "same-age bound, α 1/200", "α 1/1000", "oracle's bound, α 1/200",
                "gate (÷ same-age bound)", "ceiling 1.09%", "2 × delta +20%",
                "halted below the same-age bound: gate / ceiling / delta", "gate ≤ ceiling's", "gate ≤ 2 × delta's",
            ])
        for band in RolloutBenchmarks.bands {
            let windows = (self.apps[band] ?? []).map { SameAgeWindow($0) }
            for multiplier in regressions {
                func bounds(_ alpha: Double) -> (oracle: [Int], sameAge: [Int?]) {
                    let mean = OracleBound.criticalMean(multiplier: multiplier, alpha: alpha)
                    let oracle = windows.map { OracleBound.bound($0.app, criticalMean: mean) }
                    return (
                        oracle,
                        zip(windows, oracle).map { $0.bound(multiplier: multiplier, alpha: alpha, oracle: $1) }
                    )
                }
                let (oracle, sameAge) = bounds(Self.oracleAlpha)
                let bound = RolloutSummary.rank(sameAge, 0.5)
                let (gate, ceiling, delta) = medianExposures(band, multiplier)
                func verdict(_ limit: Int?, times: Double) -> String {
                    Self.verdict(
                        multiplier: multiplier, gate: gate, limit: limit, times: times, bound: bound, rank: rank
                    ) { reach in
                        windows.map { $0.bestChance(multiplier: multiplier, alpha: Self.oracleAlpha, by: reach) }
                    }
                }
                lines.append(
                    "| \(band.name) | \(Self.multiple(multiplier)) | \(Self.users(bound)) | "
                        + "\(Self.users(RolloutSummary.rank(bounds(Self.strictAlpha).sameAge, 0.5))) | "
                        + "\(Self.users(RolloutSummary.rank(oracle, 0.5))) | \(Self.users(gate)) "
                        + "(\(Self.ratio(gate, bound))) | \(Self.users(ceiling)) | \(Self.users(delta.map { 2 * $0 })) | "
                        + haltedBelow(band, multiplier, bounds: sameAge) + " | " + verdict(ceiling, times: 1) + " | "
                        + verdict(delta, times: 2) + " |")
            }
        }
        return lines
    }
}
