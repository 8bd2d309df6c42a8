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
    ///
    /// A store's words in a cell or an item (a state, an error's message, a health reason) are
    /// escaped: a control character is written out (`\u{A}`, `\u{1B}`), and a backslash goes
    /// before each backslash, backtick, `*`, `_`, `[`, `<`, `|`, `~` and `&`, so an HTML tag, a
    /// link, an image, a code span or a table pipe in them reads as written; our own words stay
    /// as they are.
    public var markdown: String {
        let escape = OutsideText.markdownSentence
        var lines = ["### \(action) \(version): \(heading)", ""]
        if !steps.isEmpty {
            lines += ["| Store | From | To | Request | Done |", "| --- | --- | --- | --- | --- |"]
            lines += steps.map { step in
                // The manifest's cells are its versions as we write them (`blockedVersions [8.0.2]`).
                let (from, to) = step.store == .manifest ? (step.from, step.to) : (escape(step.from), escape(step.to))
                return "| \(step.store) | \(from) | \(to) | `\(step.request.method) \(step.request.path)` | "
                    + "\(mark(step, escape: escape)) |"
            }
            lines.append("")
        }
        lines += refusals.map { "- refused: \(escape($0))" } + notes.map { "- \(escape($0))" }
        if let gate { lines += ["- gate: \(gate.sentence)"] + gate.reasons.map { "  - \(escape($0))" } }
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

    /// The step's last cell: whether it was done, and the store's answer (`escape`d) when it failed.
    private func mark(_ step: ActingStep, escape: (String) -> String = { $0 }) -> String {
        if step.done { return step.failure.map { "done (\(escape($0)))" } ?? "done" }
        if let failure = step.failure { return "failed: \(escape(failure))" }
        return apply ? "not done" : "planned"
    }
}
