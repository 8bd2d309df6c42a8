import Foundation
import StoreReleaseKit

/// What a watch prints as it goes.
extension ReleaseWatcher.Progress {
    /// Prints what a round did: events on stdout, the rest on stderr.
    func report(path: String, notifier: WebhookNotifier?) {
        switch self {
        case .baseline(let snapshot):
            StandardStreams.printError(
                "watch: baseline recorded in \(path) at \(snapshot.takenAt.formatted(.iso8601))\n")
        case .events(let events):
            for event in events { try? JSONOutput.printLine(event) }
        case .delivered(let count):
            if let notifier { StandardStreams.printError("watch: delivered \(count) events to the \(notifier)\n") }
        case .deliveryFailed(let failure, let kept, let retryIn):
            StandardStreams.printError(
                "watch: could not deliver \(kept) events: \(failure); kept, \(path) not advanced; "
                    + "next round in \(ExchangeFailure.seconds(retryIn))\n")
        case .storeFailed(let error, let retryIn):
            StandardStreams.printError(
                "watch: \(CLIError.source(error, command: "a store").message); nothing changed; "
                    + "next round in \(ExchangeFailure.seconds(retryIn))\n")
        case .historyFailed(let failure):
            StandardStreams.printError("watch: the round was not added to the history: \(failure)\n")
        case .halted(let plan):
            StandardStreams.printError("watch: \(Self.account(plan))\n")
        case .haltFailed(let version, let failure):
            StandardStreams.printError(
                "watch: the health of \(version) turned regressed, and the halt could not read the stores: "
                    + "\(failure); nothing was written; tried again next round\n")
        }
    }

    /// What a halt did, in one line.
    private static func account(_ plan: ActingPlan) -> String {
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
            + (plan.verified == true ? "; verified" : "; not verified, tried again next round")
    }
}

extension ReleaseWatcher.Outcome {
    /// What the watch says on stderr as it ends: why it stopped, and what it still owes.
    func summary(path: String) -> String {
        if stopped {
            let owed = undelivered > 0 ? "; \(undelivered) events wait for the next watch of it" : ""
            return "watch: stopped after round \(rounds)\(owed)\n"
        }
        guard undelivered > 0 else { return "" }
        return "watch: \(undelivered) events are still undelivered; \(path) was not advanced, so the next "
            + "watch of it delivers them\n"
    }
}
