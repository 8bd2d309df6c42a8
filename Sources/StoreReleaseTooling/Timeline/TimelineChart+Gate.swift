import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension TimelineChart {
    /// The gate's marks on the Play panel, on the version's series at each marked round: an advance
    /// or complete a triangle where the step began to rise, labelled with the step it rose to
    /// beside the rise; a hold a diamond. Each carries its decision and reasons as a tooltip (an SVG
    /// `title`), which the HTML page's table also lists.
    func gateMarks(_ svg: inout SVGWriter, y: (Double) -> Double) {
        for round in gateMarks {
            guard let percent = round.percent else { continue }
            let (x, at) = (self.x(round.at), y(percent))
            let isHold = round.decision.kind == .hold
            svg.open(
                "g",
                [
                    ("data-mark", isHold ? "hold" : "advance"), ("data-at", ISO8601Timestamp.string(from: round.at)),
                ])
            svg.element("title", [], text: Self.gateText(round))
            if isHold {
                Self.holdMark(&svg, x: x, y: at)
            } else {
                Self.advanceMark(&svg, x: x, y: at)
            }
            svg.close("g")
            // The step it rose to, left of the rise, halfway up it.
            guard !isHold, let to = round.decision.to else { continue }
            let label = "→ " + Self.percent(to * 100)
            let left = x - 8 - SVGWriter.estimatedWidth(label, size: 12)
            svg.text(label, x: max(left, 8), y: (at + y(to * 100)) / 2 + 4, size: 12)
        }
    }

    /// A gate round in words: `Tue 9 Feb 2021 10:00: hold at 1%: Google Play: insufficientData (…)`.
    static func gateText(_ round: ReleaseTimeline.GateRound) -> String {
        "\(stamp(round.at)): " + gateCell(round.decision)
    }

    /// A decision as the HTML table's cell says it: `advance 1% → 2%: Google Play: healthy; …`.
    static func gateCell(_ decision: RolloutDecision) -> String {
        decision.sentence + (decision.reasons.isEmpty ? "" : ": " + decision.reasons.joined(separator: "; "))
    }

    /// The gate's cell of each round that recorded a decision, for the HTML table: a hold whose
    /// reasons are the round before's but for their numbers says what the first round of the run
    /// said, so a run of holds for the same reasons is one row.
    var gateCells: [Date: String] {
        var cells: [Date: String] = [:]
        var (shown, before) = ("", nil as RolloutDecision?)
        for round in timeline.gate {
            let decision = round.decision
            let sameHold =
                decision.kind == .hold && before?.kind == .hold
                && before.map { ReleaseTimeline.shape($0.reasons) } == ReleaseTimeline.shape(decision.reasons)
            if !sameHold { shown = Self.gateCell(decision) }
            cells[round.at] = shown
            before = decision
        }
        return cells
    }

    /// The gate's part of the screen reader's sentence: how often it advanced and held.
    var gateSummary: String? {
        guard !timeline.gate.isEmpty else { return nil }
        let marks = timeline.gate.filter(\.isMarked)
        let advances = marks.filter { $0.decision.kind != .hold }.count
        let holds = marks.count - advances
        return "the rollout gate advanced Play \(advances) time(s) and held \(holds) time(s)"
    }
}
