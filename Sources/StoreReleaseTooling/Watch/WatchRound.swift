import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// The watch's rounds as a state machine: each event returns the next action for the caller.
///
/// Private state (the snapshot kept, the latest one, the events owed, failures, what the watch
/// remembers), no clock, no network, no file: ``ReleaseWatcher/run(rounds:stop:progress:)``
/// performs each ``Action`` and tells the machine what came of it, so every decision of a round
/// is tested as events → actions.
///
/// A round: ``Action/read(previous:)`` the stores; the halts due (``ReleaseSnapshot/haltsDue(memory:)``,
/// with `--halt-on`) each planned here on the round's own read when it covers the stores acted
/// on, else on a read for acting (``Action/readForActing(_:version:)``, always after a write),
/// and applied (``Action/apply(_:)``); the rollout gate (with `--rollout`) asked about the version
/// being released and its plan applied; what is owed and judged kept at once
/// (``Action/replaceState(_:memory:)``); the round added to the history; the events since the
/// kept snapshot reported and delivered; then the snapshot kept. A store that cannot be read, a
/// delivery that fails, or a cancellation ends the round early, as ``ReleaseWatcher`` says.
package struct WatchRound {
    /// What the caller does next.
    package enum Action {
        /// Wait this long, unless a stop was requested (then ``stopRequested()``); then ``slept()``.
        case sleep(Duration)
        /// Start a round if the stop allows (``roundBegan(at:)``), else ``stopRequested()``.
        case beginRound
        /// Read the stores (``storesRead(_:health:)`` or ``readFailed(_:)``).
        case read(previous: ReleaseSnapshot?)
        /// Read the stores for acting on `version` (``actingRead(_:)`` or ``actingFailed(_:)``).
        case readForActing(ReleaseAction, version: Version)
        /// Apply the plan and read it back (``planApplied(_:)``).
        case apply(ActingPlan)
        /// Append the round to the history, if any (``historyAppended(lines:)`` or ``historyFailed(_:)``).
        case appendHistory(ReleaseHistoryRound, lines: Int?)
        /// Keep the snapshot and the memory in the state (then ``stateReplaced()``; a failure ends the watch).
        case replaceState(ReleaseSnapshot, memory: WatchMemory)
        /// Tell the progress (then ``reported()``).
        case report(ReleaseWatcher.Progress)
        /// Deliver the events owed to the webhook, if any (``delivered()`` or ``deliveryFailed(_:)``).
        case deliver([ReleaseEvent])
        /// The round is over (then ``roundEnded()``).
        case endRound
        /// The state is another app's (the conflict says how): the watch ends with an error.
        case refuse(conflict: String)
        /// The watch is over.
        case finish(ReleaseWatcher.Outcome)
    }

    /// What a round read: the snapshot, and the health report it judged, when it judged one.
    package struct Reading: Sendable {
        /// The snapshot.
        package var snapshot: ReleaseSnapshot
        /// The health report the snapshot's health records came from (the rollout gate judges it).
        package var health: ReleaseHealthReport?
        /// What a plan to act is made from, when the read covered the stores acted on
        /// (``ReleaseActor/reading(from:platform:)``): the round's first act plans on it instead
        /// of reading the stores again.
        package var acting: ActingReading? = nil
    }

    /// What the watch does to the stores on its own.
    package struct Acting: Sendable {
        /// Halt a version whose health turns `regressed` (`--halt-on regressed`).
        package var haltsOnRegression: Bool
        /// Run the rollout through this gate each round (`--rollout`).
        package var rollout: RolloutGate?

        /// Nothing: the watch only reads.
        package static let none = Acting(haltsOnRegression: false, rollout: nil)
    }

    /// Where the round is.
    private enum Stage {
        /// Between rounds (none run yet, or one just ended).
        case between
        /// Reading the stores.
        case reading
        /// Halting the versions due, one at a time; once `asked`, the first is being read or applied.
        case halting(Round, due: [(Version, Store, ReleaseSnapshot.StoreHealthRecord)], asked: Bool)
        /// Asking the gate (once `asked`, the stores are being read for it) and applying its plan.
        case rollingOut(Round, asked: Bool)
        /// Adding the round to the history.
        case recording(Round)
        /// Delivering `owed`, counted from `base`.
        case delivering(Round, owed: [ReleaseEvent])
        /// The round is over: ``Action/endRound`` is owed.
        case ending
        /// The watch is over.
        case finished
    }

    /// What a round has gathered so far.
    private struct Round {
        var snapshot: ReleaseSnapshot
        var health: ReleaseHealthReport?
        /// The events the round's own acts made (halts, the rollout's moves and holds).
        var acted: [ReleaseEvent] = []
        /// The gate's decision, when it ran.
        var decision: RolloutDecision?
        /// Play's fraction when the gate ran (1 completed), if it has a release of the version.
        var fraction: Double?
        /// The memory before the round's acts, to keep it at once when they changed it.
        var remembered: WatchMemory
        /// The round's own read, for acting, until something is written: then an act reads again.
        var fresh: ActingReading?
    }

    private let acting: Acting
    private let rounds: Int?
    private let interval: Duration
    private let maximumBackoff: Duration
    private let hasHistory: Bool
    private let hasNotifier: Bool

    private var stage = Stage.between
    private var queue: [Action] = []
    private var kept: ReleaseSnapshot?
    private var latest: ReleaseSnapshot?
    private var memory: WatchMemory
    private var failures = 0
    private var round = 0
    private var pending: [ReleaseEvent] = []
    private var cutShort = false
    private var historyLines: Int?
    private var now = Date(timeIntervalSince1970: 0)

    /// A machine starting from the state read (`nil`: none yet, the first round records a baseline).
    package init(
        state: (snapshot: ReleaseSnapshot, memory: WatchMemory?)?, acting: Acting, rounds: Int?, interval: Duration,
        maximumBackoff: Duration, hasHistory: Bool, hasNotifier: Bool
    ) {
        self.acting = acting
        self.rounds = rounds
        self.interval = interval
        self.maximumBackoff = maximumBackoff
        self.hasHistory = hasHistory
        self.hasNotifier = hasNotifier
        kept = state?.snapshot
        latest = kept
        // A state without the memory (written before it was kept) counts each store's recorded
        // verdict as judged, for a watch that halts; one that does not keeps what it read.
        var memory = state?.memory ?? WatchMemory()
        let owed = memory.owedEvents
        memory.owedEvents = []
        if acting.haltsOnRegression || acting.rollout != nil, memory.isEmpty {
            let rollout = memory.rollout
            memory = WatchMemory(recordedIn: kept)
            memory.rollout = rollout
        }
        memory.owedEvents = owed
        self.memory = memory
        // The acts an earlier run could not deliver are owed first, as they were written.
        pending = memory.owedEvents.map { ReleaseEvent(.owed($0), at: state?.snapshot.takenAt ?? Date()) }
    }

    /// The wait before the next round after `failures` failed rounds in a row.
    package static func wait(afterFailures failures: Int, interval: Duration, maximumBackoff: Duration) -> Duration {
        guard failures > 0 else { return interval }
        return min(interval * (1 << min(failures, 20)), max(maximumBackoff, interval))
    }

    private var retryIn: Duration {
        Self.wait(afterFailures: failures, interval: interval, maximumBackoff: maximumBackoff)
    }

    private var roundsLeft: Bool { rounds.map { round < $0 } ?? true }

    // MARK: Events

    /// The watch starts: the first round begins, or it ends when no round is asked for.
    package mutating func start() -> Action {
        roundsLeft ? .beginRound : finish()
    }

    /// The wait between rounds is over.
    package mutating func slept() -> Action { .beginRound }

    /// A stop was requested (or the wait was cancelled) between rounds: the watch ends.
    package mutating func stopRequested() -> Action { finish() }

    /// The round began at `date` (the clock's wall time).
    package mutating func roundBegan(at date: Date) -> Action {
        round += 1
        now = date
        stage = .reading
        return .read(previous: latest)
    }

    /// The task was cancelled while an action ran: the round is cut short, nothing more is done.
    package mutating func cancelled() -> Action {
        cutShort = true
        queue = []
        return endRound()
    }

    /// A store could not be read: nothing changes, the next round waits longer.
    package mutating func readFailed(_ error: ReleaseSourceError) -> Action {
        failures += 1
        queue.append(.report(.storeFailed(error, retryIn: retryIn)))
        return endRound()
    }

    /// The stores were read: the snapshot, and the health report it judged, when there is one.
    ///
    /// With `forActing` (what the same read gives a plan), the round's first act plans on it; an
    /// act after a write reads the stores again (``Action/readForActing(_:version:)``).
    package mutating func storesRead(
        _ snapshot: ReleaseSnapshot, health: ReleaseHealthReport?, forActing: ActingReading? = nil
    ) -> Action {
        if let kept, let conflict = snapshot.conflict(with: kept) {
            stage = .finished
            return .refuse(conflict: conflict)
        }
        let work = Round(snapshot: snapshot, health: health, remembered: memory, fresh: forActing)
        if acting.haltsOnRegression {
            stage = .halting(work, due: snapshot.haltsDue(memory: memory), asked: false)
        } else {
            stage = .rollingOut(work, asked: false)
        }
        return advance()
    }

    /// The stores were read for the act in progress (a halt, or the rollout).
    package mutating func actingRead(_ reading: ActingReading) -> Action {
        switch stage {
        case .halting(var work, let due, true):
            let version = due[0].0
            let plan = ActingPlan(.halt, version: version, reading: reading)
            guard plan.steps.isEmpty else {
                work.fresh = nil
                stage = .halting(work, due: due, asked: true)
                return .apply(plan)
            }
            stage = .halting(work, due: due, asked: true)
            return planApplied(plan)
        case .rollingOut(var work, true):
            guard let gate = acting.rollout, let version = work.health?.version else {
                stage = .recording(work)
                return advance()
            }
            let situation = RolloutGate.Situation(
                version, reading: reading, health: work.health, state: rolloutState(of: version), now: now)
            let decision = gate.decide(situation)
            work.decision = decision
            work.fraction = situation.play.map(\.rolloutFraction)
            stage = .rollingOut(work, asked: true)
            let plan = ActingPlan.advance(version, reading: reading, decision: decision)
            let moves = decision.kind == .advance || decision.kind == .complete || decision.phased != nil
            guard moves, !plan.steps.isEmpty, plan.refusals.isEmpty else { return rolledOut(plan) }
            work.fresh = nil
            stage = .rollingOut(work, asked: true)
            return .apply(plan)
        default:
            return advance()
        }
    }

    /// The stores could not be read for the act in progress: nothing was written.
    package mutating func actingFailed(_ error: ReleaseActorError) -> Action {
        switch stage {
        case .halting(let work, var due, true):
            let version = due.removeFirst().0
            memory.haltsOwed.insert(version)
            stage = .halting(work, due: due, asked: false)
            queue.append(.report(.haltFailed(version, error)))
        case .rollingOut(let work, _):
            stage = .recording(work)
            if let version = work.health?.version { queue.append(.report(.rolloutFailed(version, error))) }
        default:
            break
        }
        return advance()
    }

    /// The plan of the act in progress was applied (or had nothing to do, or was refused).
    package mutating func planApplied(_ plan: ActingPlan) -> Action {
        switch stage {
        case .halting(var work, var due, true):
            let (version, store, record) = due.removeFirst()
            if plan.apply, plan.verified != true {
                memory.haltsOwed.insert(version)
            } else {
                memory.haltsOwed.remove(version)
            }
            queue.append(.report(.halted(plan)))
            work.acted.append(
                ReleaseEvent(
                    .halted(
                        version: version, store: store, steps: plan.steps, verified: plan.verified,
                        refusals: plan.refusals, health: record), at: work.snapshot.takenAt))
            stage = .halting(work, due: due, asked: false)
            return advance()
        case .rollingOut(_, true):
            return rolledOut(plan)
        default:
            return advance()
        }
    }

    /// The round was added to the history, which now has `lines` lines (when counted).
    package mutating func historyAppended(lines: Int?) -> Action {
        historyLines = lines
        return advance()
    }

    /// The round could not be added to the history: the watch goes on.
    package mutating func historyFailed(_ error: ReleaseHistoryFileError) -> Action {
        historyLines = nil
        queue.append(.report(.historyFailed(error)))
        return advance()
    }

    /// The progress was told.
    package mutating func reported() -> Action { advance() }

    /// The state was replaced.
    package mutating func stateReplaced() -> Action { advance() }

    /// The webhook took the events owed.
    package mutating func delivered() -> Action {
        guard case .delivering(let work, let owed) = stage else { return advance() }
        queue.append(.report(.delivered(count: owed.count)))
        return keep(work.snapshot)
    }

    /// The webhook did not take them: they stay owed, the state is not advanced.
    ///
    /// The acts among them are kept in the state (``WatchMemory/owedEvents``): no later
    /// snapshot tells them again, so the next run of the watch delivers them.
    package mutating func deliveryFailed(_ error: WebhookDeliveryError) -> Action {
        guard case .delivering(_, let owed) = stage else { return advance() }
        pending = owed
        failures += 1
        queue.append(.report(.deliveryFailed(error, kept: owed.count, retryIn: retryIn)))
        keepOwedActs(owed)
        return endRound()
    }

    /// Keeps the acts among `owed` in the state, when they differ from what it keeps.
    ///
    /// An act that cannot be written as JSON is not kept: no webhook could be sent it either.
    private mutating func keepOwedActs(_ owed: [ReleaseEvent]) {
        let acts = owed.filter(\.isAct).compactMap { event in
            if case .owed(let kept) = event.change { return kept }
            return try? ReleaseEvent.Owed(event)
        }
        guard acts != memory.owedEvents, let kept else { return }
        memory.owedEvents = acts
        queue.append(.replaceState(kept, memory: memory))
    }

    /// The delivery was cut short by a cancellation: the events stay owed, not failed.
    ///
    /// The acts among them are kept in the state, as after a failed delivery.
    package mutating func deliveryCancelled() -> Action {
        guard case .delivering(_, let owed) = stage else { return cancelled() }
        pending = owed
        cutShort = true
        queue = []
        keepOwedActs(owed)
        return endRound()
    }

    /// The round's end was told to the stop: the next round waits, or the watch ends.
    package mutating func roundEnded() -> Action {
        stage = .between
        // Rounds left over, or a round cut short, mean the watch was stopped (or cancelled).
        guard roundsLeft, !cutShort else { return finish() }
        return .sleep(retryIn)
    }

    // MARK: Results, as the caller gets them

    /// The stores' read: ``storesRead(_:health:)``, or ``readFailed(_:)``.
    package mutating func read(
        _ result: Result<Reading, ReleaseSourceError>
    ) -> Action {
        switch result {
        case .success(let read): storesRead(read.snapshot, health: read.health, forActing: read.acting)
        case .failure(let error): readFailed(error)
        }
    }

    /// The read for acting: ``actingRead(_:)``, or ``actingFailed(_:)``.
    package mutating func actingRead(_ result: Result<ActingReading, ReleaseActorError>) -> Action {
        switch result {
        case .success(let reading): actingRead(reading)
        case .failure(let error): actingFailed(error)
        }
    }

    /// The history's append: ``historyAppended(lines:)``, or ``historyFailed(_:)``.
    package mutating func historyAppended(_ result: Result<Int, ReleaseHistoryFileError>) -> Action {
        switch result {
        case .success(let lines): historyAppended(lines: lines)
        case .failure(let error): historyFailed(error)
        }
    }

    /// The delivery: ``delivered()``, or ``deliveryFailed(_:)``.
    package mutating func delivery(_ result: Result<Void, WebhookDeliveryError>) -> Action {
        switch result {
        case .success: delivered()
        case .failure(let error): deliveryFailed(error)
        }
    }

    // MARK: The round

    /// The next action of the round in progress: what is queued first, then its next stage.
    private mutating func advance() -> Action {
        if !queue.isEmpty { return queue.removeFirst() }
        switch stage {
        case .halting(let work, let due, _):
            if let (version, _, _) = due.first {
                stage = .halting(work, due: due, asked: true)
                return work.fresh.map { actingRead($0) } ?? .readForActing(.halt, version: version)
            }
            stage = .rollingOut(work, asked: false)
            return advance()
        case .rollingOut(let work, let asked):
            if !asked, let gate = acting.rollout, let version = work.health?.version,
                !memory.haltsOwed.contains(version),
                !Self.rolledOut(version, in: work.snapshot, lockstep: gate.lockstep)
            {
                stage = .rollingOut(work, asked: true)
                return work.fresh.map { actingRead($0) } ?? .readForActing(.advance, version: version)
            }
            stage = .recording(work)
            return rememberActs(work)
        case .recording(let work):
            stage = .delivering(work, owed: [])
            if hasHistory {
                var line = ReleaseHistoryRound(work.snapshot)
                line.rollout = work.decision
                return .appendHistory(line, lines: historyLines)
            }
            return advance()
        case .delivering(let work, let owed) where owed.isEmpty:
            return events(of: work)
        case .between, .reading, .delivering, .ending, .finished:
            return endRound()
        }
    }

    /// What is owed and judged, kept at once whatever becomes of the round's delivery.
    private mutating func rememberActs(_ work: Round) -> Action {
        if acting.haltsOnRegression || acting.rollout != nil { memory.remember(work.snapshot.health) }
        if memory != work.remembered, let kept { queue.append(.replaceState(kept, memory: memory)) }
        return advance()
    }

    /// The round's events (since the latest snapshot, and its acts), reported and delivered.
    private mutating func events(of work: Round) -> Action {
        let snapshot = work.snapshot
        let base: ReleaseSnapshot
        let new: [ReleaseEvent]
        if let kept {
            base = kept
            new = ReleaseEvent.numbered(
                snapshot.events(since: latest ?? base) + work.acted, after: pending, from: base.takenAt)
        } else {
            latest = snapshot
            kept = snapshot
            failures = 0
            queue.append(.replaceState(snapshot, memory: memory))
            queue.append(.report(.baseline(snapshot)))
            // A baseline reports nothing, but an act it made is delivered.
            guard !work.acted.isEmpty else { return endRound() }
            base = snapshot
            new = ReleaseEvent.numbered(work.acted, after: [], from: base.takenAt)
        }
        latest = snapshot
        // Without a webhook the progress is where events are told: acts an earlier run owed too.
        let told = hasNotifier ? new : pending + new
        if !told.isEmpty { queue.append(.report(.events(told))) }
        var owed = pending + new
        if owed.count > ReleaseWatcher.maximumOwed {
            owed = ReleaseEvent.numbered(snapshot.events(since: base) + work.acted, after: [], from: base.takenAt)
        }
        guard hasNotifier, !owed.isEmpty else { return keep(snapshot) }
        stage = .delivering(work, owed: owed)
        queue.append(.deliver(owed))
        return advance()
    }

    /// Keeps `snapshot` (and the memory) as the last delivered one: the round is over.
    private mutating func keep(_ snapshot: ReleaseSnapshot) -> Action {
        memory.owedEvents = []
        queue.append(.replaceState(snapshot, memory: memory))
        kept = snapshot
        pending = []
        failures = 0
        return endRound()
    }

    /// Ends the round once what is queued is done.
    private mutating func endRound() -> Action {
        stage = .ending
        queue.append(.endRound)
        return queue.removeFirst()
    }

    /// The outcome: rounds left over, or a round cut short, mean the watch was stopped.
    private mutating func finish() -> Action {
        stage = .finished
        return .finish(
            ReleaseWatcher.Outcome(
                rounds: round, undelivered: pending.count, lastRoundFailed: failures > 0,
                stopped: roundsLeft || cutShort, haltsOwed: memory.haltsOwed))
    }

    // MARK: The rollout

    /// The rollout's state of `version`: as kept, or a new one (its step begins now).
    private func rolloutState(of version: Version) -> RolloutState {
        memory.rollout ?? RolloutState(version: version)
    }

    /// The rollout's plan carried out (or not needed): the state kept, its events and progress.
    private mutating func rolledOut(_ plan: ActingPlan) -> Action {
        guard case .rollingOut(var work, _) = stage, let decision = work.decision, let version = work.health?.version
        else { return advance() }
        let applied = plan.apply && plan.verified == true
        memory.rollout = rolloutState(of: version).after(
            version, fraction: work.fraction, decision: decision, applied: applied, now: now)
        queue.append(.report(.rolledOut(plan)))
        let at = work.snapshot.takenAt
        if plan.apply, let to = decision.to, plan.steps.contains(where: { $0.store == .googlePlay && $0.done }) {
            work.acted.append(
                ReleaseEvent(
                    .rolloutAdvanced(version: version, store: .googlePlay, from: decision.from, to: to), at: at))
        }
        if decision.kind == .hold {
            let key = Self.reasonKey(decision.reasons)
            if memory.rolloutHeld != key {
                work.acted.append(ReleaseEvent(.rolloutHeld(version: version, reasons: decision.reasons), at: at))
            }
            memory.rolloutHeld = key
        } else {
            memory.rolloutHeld = nil
        }
        stage = .recording(work)
        return rememberActs(work)
    }

    /// Whether the round's snapshot shows `version` rolled out on Play: a completed release of it,
    /// none in progress or halted. Without lockstep, nothing is left for the gate to do, so the
    /// stores are not read for it (with lockstep, the phased release may still want resuming).
    static func rolledOut(_ version: Version, in snapshot: ReleaseSnapshot, lockstep: Bool) -> Bool {
        guard !lockstep, let releases = snapshot.googlePlay?.releases.filter({ $0.version == version }) else {
            return false
        }
        return releases.contains { $0.status == .completed }
            && !releases.contains { $0.status == .inProgress || $0.status == .halted }
    }

    /// Hold reasons with their numbers left out: a hold is told again when its reasons change,
    /// not when its hours, user-days or days move on.
    static func reasonKey(_ reasons: [String]) -> String {
        var key = ""
        var inNumber = false
        for character in reasons.joined(separator: "\n") {
            if character.isNumber || (inNumber && (character == "." || character == "," || character == "-")) {
                if !inNumber { key.append("#") }
                inNumber = true
            } else {
                key.append(character)
                inNumber = false
            }
        }
        return key
    }
}
