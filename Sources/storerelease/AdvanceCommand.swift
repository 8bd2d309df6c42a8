import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease advance VERSION SOURCES [--schedule …] [--step-hours H] [--lockstep] [--state FILE] …`.
    static let advance = Command(
        name: "advance",
        synopsis:
            "advance VERSION SOURCES [--schedule P1,…,100] [--step-hours H] [--lockstep] [--state FILE] "
            + "[--health-file FILE | --health] [--now ISO8601] [--apply --confirm APP[,APP]] "
            + "[--format json|text|markdown]",
        summary: "One decision of the rollout gate now: Play's rollout to the next step while both stores are healthy.",
        discussion: """
            The rollout gate judges VERSION (first match wins): halt when either store's health of it
            is regressed; done when Play's release is completed; hold when a store's verdict is
            insufficientData or unknown (or no health was read), the step began less than
            --step-hours ago (default 24), a store's data do not yet include the day the step began,
            Play's release is halted or the phased release PAUSED by a person (never overruled:
            resume lifts it), Play has changes in review, with --lockstep Play would go more than
            one step above the phased release, or the next step is 100 and Play's data do not yet
            rule out a 1.5x regression; complete when the next step is 100; else
            advance: Play's userFraction to the next step of --schedule (default 1,2,5,10,20,50,100,
            Apple's phased steps; increasing percentages ending at 100). With --lockstep the phased
            release is paused while it is more than a step above Play's, and resumed when it no
            longer is, only if the gate paused it.
            SOURCES: Google Play --package PKG [--track NAME] with the Play token; App Store Connect
            --id ID (or --bundle-id) with its credentials (\(AppStoreConnectOptions.help)). Health:
            --health-file FILE (once a store) or --health, as snapshot reads it (--baseline,
            --min-users, --max-crash-rate, --max-anr-rate), counting no day after --now, judged by
            the rollout's sequential rule: regressed only on evidence a good release shows at most
            once in 1,000 rollouts however many rounds look (a mixture SPRT of N's events against
            N−1's at the same age and against the ceilings); insufficientData also while the data
            lean towards a regression.
            --state FILE keeps when the current step began and which pause the gate made (the
            "rollout" key of a JSON object; a watch state's other keys are kept), each counted only
            for the version it was kept for: a step first seen began then, so the first decision of
            it holds. Without --state neither the step's age nor the data's freshness after it is
            judged, and a reason says so. FILE is refused as watch --state refuses it (a link, a FIFO
            or a folder at FILE, FILE.tmp or FILE.lock; a watch state of another app or track), and
            so is a step that began after --now (a wrong clock) or a folder that does not exist; a
            step is never kept as begun later than the real time. The state is written only with
            --apply, which holds FILE.lock for the whole run: while a watch of FILE (or another
            advance) holds it, advance exits 1 with nothing read or written.
            Prints the plan as halt does, {"action": "advance", "version", "apply", "steps",
            "verified", "gate": {"decision": "advance"|"complete"|"hold"|"halt"|"done", "reasons",
            "from", "to"}} (from: Play's userFraction, 1 when completed). Without --apply nothing is
            written; --apply --confirm naming every app acted on writes the step (one edit) and reads
            it back. A halt decision prints halt's plan and writes nothing: a person runs halt.
            Exit status: 0 advanced, completed or planned; 1 hold, halt, done, or a store refused a
            step; 2 bad input (a schedule that does not increase to 100, a step of 0 hours, --apply
            without --confirm, a state file refused as above); nothing is read or written then.
            """,
        options: [
            RolloutOptions.table, AdvanceCommand.state, ActingOptions.table, ActingOptions.storesTable,
            AdvanceCommand.now, AppStoreConnectOptions.table(), HealthSourceOptions.table,
        ],
        examples: [
            "storerelease advance 8.0.10 --package com.example.rollout --format text  # exit 1, hold at 20%"
        ],
        run: { arguments throws(CLIError) in try await AdvanceCommand.run(arguments) })
}

/// `advance`: the flags read, the stores and their health read, the gate asked, its plan applied.
enum AdvanceCommand {
    static let state = Option<String>(
        "--state", "FILE", "Where the rollout keeps when each step began and the gate's pauses (written with --apply).")
    static let now = HealthOptions.now

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        let command = arguments.command
        let options = try ActingOptions(arguments, action: .advance)
        let gate = try RolloutOptions.gate(arguments)
        let statePath = try arguments.value(state)
        let sources = try SourceOptions(arguments)
        let now = try arguments.value(Self.now) ?? Date()
        let healthOptions = try HealthSourceOptions(arguments, rollout: true)
        let kept = try keptState(statePath, of: sources, at: now, command: command)
        // With --apply, the state is held for the whole run: no watch of it (or second advance)
        // acts on the same rollout meanwhile, and nothing is read or written while one does.
        var held: WatchStateFile.Lock?
        if options.apply, let statePath {
            do throws(WatchStateFileError) {
                held = try RolloutStateFile.lock(statePath)
            } catch {
                guard case .locked = error else {
                    throw .badInput("\(command): \(state) \(error); nothing was read or written")
                }
                StandardStreams.printError(
                    OutsideText.terminal("\(command): \(state) \(error); nothing was read or written") + "\n")
                return 1
            }
        }
        let health = try healthOptions.sources(for: sources, through: now)
        let actor = try sources.releaseActor(timeout: options.timeout, command: command)
        guard actor.play != nil else {
            throw .usage("\(command): advance rolls out Google Play: give \(PlayOptions.package)")
        }
        if gate.lockstep, actor.appStoreConnect == nil {
            throw .usage(
                "\(command): \(RolloutOptions.lockstep.name) keeps Google Play within a step of the App Store's phased "
                    + "release: give the App Store app (\(AppStoreOptions.id) or \(AppStoreOptions.bundleID)) and App "
                    + "Store Connect's key")
        }
        // The apps a step may write, confirmed before anything is read: a --confirm that does not
        // name them fails now, not on the day the gate first advances.
        if options.apply {
            try ActingOptions.requireConfirmation(
                of: gate.lockstep ? [.googlePlay, .appStore] : [.googlePlay], actor: actor, appID: nil,
                confirmed: options.confirmed, command: command)
        }
        let reading: ActingReading
        do throws(ReleaseActorError) {
            reading = try await actor.read(for: .advance, version: options.version)
        } catch {
            throw CLIError(error, command)
        }
        if let missing = ActingPlan.whereMissing(options.version, in: reading) {
            throw .failure("\(command): \(missing)")
        }
        var report: ReleaseHealthReport?
        do throws(ReleaseSourceError) {
            report = try await health?.judge(
                VersionOrCode(options.version), packageName: sources.play.package,
                appID: reading.appStoreConnect?.status.appID)
        } catch {
            throw CLIError(error, command)
        }
        let stateBefore = statePath == nil ? nil : (kept ?? RolloutState(version: options.version))
        let situation = RolloutGate.Situation(
            options.version, reading: reading, health: report, state: stateBefore, now: now)
        let decision = gate.decide(situation)
        var plan = ActingPlan.advance(options.version, reading: reading, decision: decision)
        let acts = decision.kind != .halt && !plan.steps.isEmpty && plan.refusals.isEmpty
        if options.apply, acts {
            try ActingOptions.requireConfirmation(
                of: plan.storesActedOn, actor: actor, appID: reading.appStoreConnect?.status.appID,
                confirmed: options.confirmed, command: command)
            plan = await actor.apply(plan)
        }
        if options.apply, let statePath, let stateBefore {
            let fraction = situation.play.map(\.rolloutFraction)
            let after = stateBefore.after(
                options.version, fraction: fraction, decision: decision, applied: plan.apply && plan.verified == true,
                now: now)
            do throws(RolloutStateFileError) {
                try RolloutStateFile.write(after, to: statePath, holding: held)
            } catch {
                StandardStreams.printError("\(command): the state was not kept: \(error)\n")
            }
        }
        try JSONOutput.print(plan, as: options.format, text: plan.text, markdown: plan.markdown)
        for refusal in plan.refusals {
            StandardStreams.printError("\(command): refused: \(OutsideText.terminal(refusal))\n")
        }
        switch decision.kind {
        case .advance, .complete:
            guard plan.refusals.isEmpty else { return 1 }
            guard plan.apply else { return 0 }
            if plan.verified == true { return 0 }
            StandardStreams.printError(plan.account(command: command))
            return 1
        case .hold, .halt, .done:
            StandardStreams.printError(
                "\(command): \(decision.sentence): \(OutsideText.terminal(decision.reasons.joined(separator: "; ")))\n")
            return 1
        }
    }
}

extension AdvanceCommand {
    /// The rollout's state kept in `--state FILE`, for the app and track the flags name.
    ///
    /// Bad input (exit 2), before anything is read or written: a file that cannot be the
    /// rollout's state (``RolloutStateFile/read(_:of:track:at:)``).
    static func keptState(_ path: String?, of sources: SourceOptions, at now: Date, command: String)
        throws(CLIError) -> RolloutState?
    {
        guard let path else { return nil }
        let app = ReleaseSnapshot.App(
            appStoreID: sources.appStore.ids?.first.map(String.init), bundleID: sources.appStore.bundleID,
            packageName: sources.play.package)
        do throws(RolloutStateFileError) {
            return try RolloutStateFile.read(
                path, of: app, track: sources.play.package == nil ? nil : sources.play.track, at: now)
        } catch {
            throw .badInput("\(command): \(state) \(error)")
        }
    }
}

/// `--schedule 1,2,5,10,20,50,100`: percentages, each a number (the schedule's rules are the gate's).
struct RolloutSteps: ArgumentValue {
    let percentages: [Double]

    init(argument: String) throws(ArgumentProblem) {
        var percentages: [Double] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = plainDecimal(part), value.isFinite else {
                throw .detail("\(String(part).debugDescription) is not a percentage (1,2,5,10,20,50,100)")
            }
            percentages.append(value)
        }
        guard percentages.count <= 100 else { throw .detail("more than 100 steps") }
        self.percentages = percentages
    }
}
