import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease replay HISTORY [--schedule …] [--step-hours H] [--min-users N] …`.
    static let replay = Command(
        name: "replay",
        synopsis:
            "replay HISTORY [--schedule P1,…,100] [--step-hours H] [--lockstep] [--min-users N] [--max-crash-rate F] "
            + "[--max-anr-rate F] [--format json|text]",
        summary: "Runs the rollout gate again over a watch's history: when it would have halted, and at what exposure.",
        discussion: """
            Judges every round of HISTORY (a watch --history file recorded with health sources by a
            StoreRelease of round 5 of its design on: each store's candidate and baseline windows with
            their counts) again: each store's verdict from the counts by the rollout's sequential health
            rule, as advance judges it, with --min-users, --max-crash-rate and --max-anr-rate (defaults
            as health's), then the rollout gate with --schedule, --step-hours and --lockstep (as
            advance's). Prints {"version", "rounds", "decisions": [{"at", "decision", "reasons"}],
            "wouldHaltAt", "haltedAt", "exposedUserDaysBeforeHalt"}: the version the history judged
            last, what the gate would have decided each round and when it would have halted, beside when
            the release was halted (Play halted or the phased release paused), and the candidate's
            user-days on both stores at the rule's halt. What a history does not record: a step began at
            the round whose recorded decision (watch --rollout) moved Play to it, else at the first
            round showing Play's fraction; each store's data reach the day before the round; changes in
            review only where the round's recorded decision held for them. Rounds are judged in time
            order, whatever their order in the file. --format text: a line a round whose decision
            changed, then the summary. A torn last line (a watch killed mid-write) is skipped and named
            on stderr.
            Exit status: 0; 2 a history without counts (recorded by a StoreRelease before round 5 of its
            design, whose history lines keep no window counts: named), a file that is not a history,
            rounds that span more than five years (a clock that was wrong: the first and last rounds
            named, as timeline refuses them), or bad flags.
            """,
        options: [RolloutOptions.table, HealthOptions.criteriaTable, ReplayCommand.format],
        examples: [
            "storerelease replay Docs/Watch/rollout-history.jsonl --format text  # exit 0, 2021-03-05T11:00:00Z  advance",
            "storerelease replay Docs/Watch/timeline-history.jsonl  # exit 2",
        ],
        run: { arguments throws(CLIError) in try ReplayCommand.run(arguments) })
}

/// `replay`: the history read, the gate run over it again, the answer printed.
enum ReplayCommand {
    static let format: Option<ReplayFormat> = CommonOptions.format(
        "json (default): the replay; text: a line a change of decision, then the summary.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let command = arguments.command
        let format = try arguments.value(format) ?? .json
        let gate = try RolloutOptions.gate(arguments)
        let criteria = try HealthOptions.criteria(arguments).sequentially()
        let (path, history) = try HistoryInput.read(arguments, used: "replayed")
        let replay: RolloutReplay
        do throws(RolloutReplayError) {
            replay = try RolloutReplay(history.rounds, gate: gate, criteria: criteria)
        } catch {
            throw CLIError(error, "\(command): \(path)")
        }
        switch format {
        case .json: try JSONOutput.print(replay)
        case .text: StandardStreams.print(OutsideText.lines(replay.text))
        }
        return 0
    }
}

/// `replay --format`: the JSON answer, or lines for people.
enum ReplayFormat: String, CaseIterable, ChoiceArgument {
    case json, text
}

extension RolloutReplay {
    /// A line a round whose decision changed, then when the rule would have halted beside what happened.
    var text: String {
        var lines = ["replay of \(version): \(StoreHealth.grouped(rounds)) round\(rounds == 1 ? "" : "s") judged again"]
        var last: RolloutDecision.Kind?
        for decision in decisions where decision.decision != last {
            last = decision.decision
            lines.append(
                "  \(ISO8601Timestamp.string(from: decision.at))  \(decision.decision)"
                    + (decision.reasons.isEmpty ? "" : ": " + decision.reasons.joined(separator: "; ")))
        }
        let would =
            wouldHaltAt.map { "would have halted at \(ISO8601Timestamp.string(from: $0))" } ?? "would not have halted"
        let exposed = exposedUserDaysBeforeHalt.map { ", \(StoreHealth.grouped($0)) user-days exposed" } ?? ""
        let halted = haltedAt.map { "halted at \(ISO8601Timestamp.string(from: $0))" } ?? "never halted"
        lines.append("the rule \(would)\(exposed); the release was \(halted)")
        return lines.joined(separator: "\n") + "\n"
    }
}
