import Foundation
import StoreReleaseKit

/// What a watch prints as it goes.
///
/// Every line on stderr carries text from outside (a store's message and errors, a file's
/// path): it is printed through ``OutsideText/terminal(_:)``, so nothing in it reaches the
/// terminal as a control sequence.
extension ReleaseWatcher.Progress {
    /// Prints what a round did: events on stdout, the rest on stderr.
    func report(path: String, notifier: WebhookNotifier?) {
        switch self {
        case .baseline(let snapshot):
            WatchCommand.say("baseline recorded in \(path) at \(snapshot.takenAt.formatted(.iso8601))")
        case .events(let events):
            for event in events { try? JSONOutput.printLine(event) }
        case .delivered(let count):
            if let notifier { WatchCommand.say("delivered \(count) events to the \(notifier)") }
        case .deliveryFailed(let failure, let kept, let retryIn):
            WatchCommand.say(
                "could not deliver \(kept) events: \(failure); kept, \(path) not advanced; "
                    + "next round in \(ExchangeFailure.seconds(retryIn))")
        case .storeFailed(let error, let retryIn):
            WatchCommand.say(
                "\(CLIError(error, "a store").message); nothing changed; "
                    + "next round in \(ExchangeFailure.seconds(retryIn))")
        case .historyFailed(let failure):
            WatchCommand.say("the round was not added to the history: \(failure)")
        case .halted(let plan):
            WatchCommand.say(Self.account(plan, path: path))
        case .haltFailed(let version, let failure):
            WatchCommand.say(
                "the health of \(version) turned regressed, and the halt could not read the stores: "
                    + "\(failure); nothing was written; the halt is owed: tried again next round and by the next "
                    + "watch of \(path)")
        case .rolledOut(let plan):
            WatchCommand.say(Self.account(rollout: plan))
        case .rolloutFailed(let version, let failure):
            WatchCommand.say(
                "the rollout of \(version) could not read the stores: \(failure); nothing was written; the next round "
                    + "decides again")
        }
    }

    /// What the rollout gate decided and did, in one line.
    private static func account(rollout plan: ActingPlan) -> String {
        guard let decision = plan.gate else { return "the rollout of \(plan.version): no decision" }
        let head = "the rollout of \(plan.version): \(decision.sentence)"
        let why = decision.reasons.joined(separator: "; ")
        switch decision.kind {
        case .hold, .done: return head + (why.isEmpty ? "" : ": " + why)
        case .halt: return head + ": " + why + "; --halt-on halts it the round its health turns regressed"
        case .advance, .complete:
            if !plan.refusals.isEmpty { return head + ": refused: " + plan.refusals.joined(separator: "; ") }
            let steps = plan.steps.map { step in step.account + (step.done || step.error != nil ? "" : " (not done)") }
            return head + ": " + steps.joined(separator: "; ")
                + (plan.verified == true
                    ? "; verified" : "; not verified: the next round reads the stores and decides again")
        }
    }

    /// What a halt did, in one line.
    private static func account(_ plan: ActingPlan, path: String) -> String {
        let version = plan.version
        if !plan.refusals.isEmpty {
            return "the health of \(version) turned regressed; halting it is refused: "
                + plan.refusals.joined(separator: "; ")
        }
        if plan.steps.isEmpty {
            return "the health of \(version) turned regressed; it is already halted on every store"
        }
        let steps = plan.steps.map { step in step.account + (step.done || step.error != nil ? "" : " (not done)") }
        return "the health of \(version) turned regressed: halted, " + steps.joined(separator: "; ")
            + (plan.verified == true
                ? "; verified"
                : "; not verified: the halt is owed, tried again next round and by the next watch of \(path)")
    }
}

extension ReleaseWatcher.Outcome {
    /// What the watch says on stderr as it ends: why it stopped, and what it still owes.
    func summary(path: String) -> String {
        var lines: [String] = []
        if stopped {
            let owed = undelivered > 0 ? "; \(undelivered) events wait for the next watch of it" : ""
            lines.append("stopped after round \(rounds)\(owed)")
        } else if undelivered > 0 {
            lines.append(
                "\(undelivered) events are still undelivered; \(path) was not advanced, so the next watch of it "
                    + "delivers them")
        }
        if !haltsOwed.isEmpty {
            let versions = haltsOwed.sorted().map(\.description).joined(separator: ", ")
            lines.append(
                "the halt of \(versions) is owed (not verified on every store); \(path) keeps it, and the next watch "
                    + "of it tries again while the health stays regressed")
        }
        return lines.map { "watch: " + OutsideText.terminal($0) + "\n" }.joined()
    }
}
