import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension ActingPlan {
    /// The plan for people: a heading, one line a step (with its request), then the refusals and notes.
    ///
    /// A store's words in a line (a release's name, an error's message, a health reason) have
    /// their control characters written out (`\u{A}`, `\u{1B}`): a line stays one line, and
    /// nothing in it acts on a terminal or forges a line of a CI log.
    public var text: String {
        var lines = ["\(action) \(version): " + heading]
        for step in steps {
            lines.append(
                "  \(step.move(separator: ": "))  "
                    + "\(step.request.method) \(step.request.path)  [\(mark(step))]"
            )
        }
        lines += refusals.map { "  refused: \($0)" } + notes.map { "  note: \($0)" }
        if let gate { lines += ["  gate: \(gate.sentence)"] + gate.reasons.map { "    \($0)" } }
        return lines.map(OutsideText.terminal).joined(separator: "\n") + "\n"
    }

    /// The plan as a Markdown table of its steps, with the refusals and notes as a list.
    public var markdown: String {
        var lines = ["### \(action) \(version): \(heading)", ""]
        if !steps.isEmpty {
            lines += ["| Store | From | To | Request | Done |", "| --- | --- | --- | --- | --- |"]
            lines += steps.map { step in
                "| \(step.store) | \(step.from) | \(step.to) | `\(step.request.method) \(step.request.path)` | \(mark(step)) |"
            }
            lines.append("")
        }
        lines += refusals.map { "- refused: \($0)" } + notes.map { "- \($0)" }
        if let gate { lines += ["- gate: \(gate.sentence)"] + gate.reasons.map { "  - \($0)" } }
        return lines.joined(separator: "\n") + "\n"
    }

    private var heading: String {
        if !refusals.isEmpty { return "refused, nothing written" }
        if let gate, steps.isEmpty || gate.kind == .halt { return "\(gate.kind), nothing written" }
        if steps.isEmpty { return "nothing to do" }
        guard apply else { return "plan, nothing written (\(FailureHint.applyConfirmed.words))" }
        switch verified {
        case true?: return "applied and verified"
        case false? where steps.allSatisfy(\.done): return "applied, but a new read does not show it yet"
        case false?, nil: return "stopped: a store refused a step"
        }
    }

    private func mark(_ step: ActingStep) -> String {
        if step.done { return step.failure.map { "done (\($0))" } ?? "done" }
        if let failure = step.failure { return "failed: \(failure)" }
        return apply ? "not done" : "planned"
    }
}
