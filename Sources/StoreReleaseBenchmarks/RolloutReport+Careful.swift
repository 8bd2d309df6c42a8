/// The fixed rules made as careful as the gate: each one's least threshold that halts no more good
/// releases than the gate in a band, and what it then does with the regressions.
///
/// The done-when compares the gate with fixed rules that halt 25 to 198 of 200 good releases;
/// this table compares it with the same rules at a line where they halt none, as the gate does.
extension RolloutReport {
    var carefulLines: [String] {
        let regressions = Self.regressions
        var lines = Self.section(
            "Fixed rules as careful as the gate",
            paragraphs: [
                "Each fixed rule's line raised until it halts no more of a band's good releases than the gate "
                    + "does (the least of ceilings "
                    + RolloutBenchmarks.carefulCeilings.map(Self.percent).joined(separator: ", ")
                    + " and of deltas "
                    + RolloutBenchmarks.carefulDeltas.map { "+\(Int(($0 * 100).rounded()))%" }.joined(separator: ", ")
                    + "), and its regressions: median exposure, and how many reached 100% unhalted."
            ],
            table: "Regressions against fixed rules that halt no more good releases than the gate",
            columns: ["daily users", "rule", "good halted"]
                + regressions.map { "\(Self.multiple($0)): median; missed" })
        for band in RolloutBenchmarks.bands {
            let gateHalts = summary(band, 1, RolloutBenchmarks.gate).halted
            let families: [(String, [RolloutRule])] = [
                ("ceiling", RolloutBenchmarks.carefulCeilings.map(RolloutRule.ceiling)),
                ("delta", RolloutBenchmarks.carefulDeltas.map(RolloutRule.delta)),
            ]
            var rows: [(String, RolloutRule?)] = [(RolloutBenchmarks.gate.name, RolloutBenchmarks.gate)]
            for (family, rules) in families {
                let careful = rules.first { summary(band, 1, $0).halted <= gateHalts }
                rows.append((careful?.name ?? "no \(family) of those tried", careful))
            }
            for (name, rule) in rows {
                guard let rule else {
                    lines.append(
                        "| \(band.name) | \(name) | | " + regressions.map { _ in "" }.joined(separator: " | ") + " |")
                    continue
                }
                let good = summary(band, 1, rule)
                lines.append(
                    "| \(band.name) | \(name) | \(good.halted) of \(good.outcomes.count) | "
                        + regressionCells(band, rule, p90: false).joined(separator: " | ") + " |")
            }
        }
        return lines
    }
}
