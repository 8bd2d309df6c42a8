import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Watches both stores: rounds of snapshot → events → report → deliver → keep.
///
/// Each round reads the stores, reports the events since the round before, delivers them to the
/// webhook (if any), and only then replaces the snapshot in its ``WatchStateStore`` (the
/// ``WatchStateFile`` of `watch --state`), so an event is never lost: a delivery that fails
/// leaves the state as it was and keeps the events, and the next
/// round delivers them again (same ids, same times) followed by anything newer, so a state passed
/// through between two rounds is still reported. A watcher that ends with events owed (killed,
/// cancelled mid-delivery, or out of rounds) leaves the file at the last delivered snapshot, and
/// the next watch of it reports the change from there in one step. A round that cannot read a
/// store reports it and changes nothing: a store that did not answer never turns into "removed"
/// events. After a failed round the wait before the next doubles, up to ``maximumBackoff``.
///
/// The very first round, without a state file, records a baseline and reports no events.
/// `firstSeen` is carried from the latest snapshot taken, delivered or not, so a lag is measured
/// from the round that first saw the version.
///
/// Time is read from ``clock`` (``startDate`` plus its elapsed time), and the stores through
/// ``read``, so a test runs days of rounds in no time against any timeline it likes.
public struct ReleaseWatcher: Sendable {
    /// Takes one snapshot at `now`, carrying `firstSeen` from `previous`.
    public typealias Reader =
        @Sendable (_ now: Date, _ previous: ReleaseSnapshot?) async throws(ReleaseSourceError) -> ReleaseSnapshot

    /// What happened in a round, reported as it happens.
    public enum Progress: Sendable {
        /// The first round without a state file: the snapshot was kept, nothing is reported.
        case baseline(ReleaseSnapshot)
        /// The events since the kept snapshot, before they are delivered.
        case events([ReleaseEvent])
        /// The webhook took the round's events.
        case delivered(count: Int)
        /// The webhook did not take them; they are kept and delivered again next round.
        case deliveryFailed(WebhookDeliveryError, kept: Int, retryIn: Duration)
        /// A store could not be read; nothing changed.
        case storeFailed(ReleaseSourceError, retryIn: Duration)
        /// The round could not be added to the ``history``; the watch goes on.
        case historyFailed(ReleaseHistoryFileError)
        /// A version's health turned `regressed` and the watch halted it (``haltsOnRegression``).
        ///
        /// The plan as applied (or refused, or with nothing to do).
        case halted(ActingPlan)
        /// A version's health turned `regressed` and the stores could not be read to halt it.
        ///
        /// Nothing was written; the halt is owed: the next round (or the next watch of the
        /// state) tries again while it stays `regressed`.
        case haltFailed(Version, ReleaseActorError)
        /// The rollout gate decided (``rollout``): the plan with its ``ActingPlan/gate``.
        ///
        /// As applied and read back when the decision moved a store, as planned when it did not.
        case rolledOut(ActingPlan)
        /// The stores could not be read for the rollout: nothing was written; the next round asks again.
        case rolloutFailed(Version, ReleaseActorError)
    }

    /// How the watch ended.
    public struct Outcome: Sendable, Hashable {
        /// Rounds run.
        public let rounds: Int
        /// Events the webhook has not taken yet (they are delivered by the next watch of the file).
        public let undelivered: Int
        /// Whether the last round failed (a store, or the delivery).
        public let lastRoundFailed: Bool
        /// Whether it ended because it was asked to stop.
        public let stopped: Bool
        /// The versions whose halt is owed (tried, not verified): the next watch of the state tries again.
        public let haltsOwed: Set<Version>
    }

    /// The most events kept for a webhook that keeps failing.
    ///
    /// Past it they are replaced by the net change since the last delivered snapshot, which the
    /// state bounds.
    public static let maximumOwed = 10_000

    /// Where the last delivered snapshot is kept: a ``WatchStateFile``, or any other store.
    public var state: any WatchStateStore
    /// Where events are delivered, if anywhere.
    public var notifier: WebhookNotifier?
    /// Where each round that read the stores is appended as a line (`watch --history`), if anywhere.
    public var history: ReleaseHistoryFile?
    /// Whether the watch halts a release whose health turns `regressed` (`watch --halt-on regressed`).
    ///
    /// It acts through the sources it reads (``ReleaseActor/init(acting:)``): Play's live track,
    /// App Store Connect about the app the App Store source names; a stored track is read, never
    /// written. A watcher over a reader alone (``init(state:notifier:interval:clock:startDate:read:)``)
    /// has no sources to act through and never halts.
    ///
    /// The round a store's verdict of a version turns `regressed` (its last judged verdict there,
    /// `unknown` rounds skipped, was not `regressed` of that version, or there was none; the
    /// first round of a new state file counts), the halt plan for the version is read, planned
    /// and applied on both stores (``ReleaseActor/act(_:version:)``), and a
    /// ``ReleaseEvent/Change/halted(version:store:steps:verified:refusals:health:)`` event is
    /// delivered with the round's events. A halt not verified (a store refused a step, or could
    /// not be read) is owed: tried again each round while the verdict stays `regressed`, and by
    /// the next watch of the state file (``Outcome/haltsOwed``). A verified one is not, so a
    /// person who resumes the release later is not overruled, through `unknown` rounds too. What
    /// is owed and judged is kept in the state (``WatchMemory``). Opt-in: without it the watch
    /// writes nothing to any store. ``ReleaseSnapshot/take(_:now:previous:)``
    /// judges the version being released (``StoreReading/newestReleasing``), the version halted.
    public var haltsOnRegression = false
    /// The gate that runs the version's rollout each round (`watch --rollout`).
    ///
    /// It acts on the stores the watch halts (``haltsOnRegression``). Each round, after the halts,
    /// the stores are read for the version being released, the gate decides
    /// (``RolloutGate/decide(_:)``) on them and the round's health, and its plan
    /// (``ActingPlan/advance(_:reading:decision:)``) is applied and read back when it moves a
    /// store: Play's `userFraction` to the next step, lockstep's pause or resume of the phased
    /// release. A halt decision writes nothing here: the watch halts the version the round its
    /// verdict turns `regressed`. The step and when it began are kept in the state
    /// (``WatchMemory/rollout``, the file's `rollout` key), so a step first seen began then and
    /// its first round holds. Events: ``ReleaseEvent/Change/rolloutAdvanced(version:store:from:to:)``
    /// for each move read back, ``ReleaseEvent/Change/rolloutHeld(version:reasons:)`` when the
    /// hold's reasons change. Needs ``haltsOnRegression`` and health sources.
    public var rollout: RolloutGate?
    /// The time between rounds.
    public var interval: Duration
    /// The longest wait after failed rounds (or ``interval``, when that is longer): six hours.
    public var maximumBackoff: Duration = .seconds(6 * 3600)
    /// The clock rounds are timed by.
    public var clock: PollingClock
    /// The wall time at the clock's zero.
    public var startDate: Date
    /// How a snapshot is taken.
    public var read: Reader

    /// The stores' sources a watcher over them reads, its health judging the version being
    /// released; `nil` for one over ``read`` alone.
    ///
    /// Read through them, a round keeps the health report its snapshot records, which the rollout
    /// gate judges (``rollout``).
    var sources: StoreSources?

    /// A watcher over any reader.
    public init(
        state: any WatchStateStore, notifier: WebhookNotifier? = nil, interval: Duration = .seconds(300),
        clock: PollingClock = .continuous, startDate: Date = Date(), read: @escaping Reader
    ) {
        self.state = state
        self.notifier = notifier
        self.interval = interval
        self.clock = clock
        self.startDate = startDate
        self.read = read
    }

    /// A watcher over the stores' sources.
    ///
    /// Each round reads them as ``ReleaseSnapshot/take(_:now:previous:)`` does.
    public init(
        state: any WatchStateStore, appStore: AppStoreSource?, play: PlaySource?,
        appStoreConnect: AppStoreConnectSource?, health: HealthSources? = nil, notifier: WebhookNotifier? = nil,
        interval: Duration = .seconds(300), clock: PollingClock = .continuous, startDate: Date = Date()
    ) {
        self.init(
            state: state,
            sources: StoreSources(appStore: appStore, play: play, appStoreConnect: appStoreConnect, health: health),
            notifier: notifier, interval: interval, clock: clock, startDate: startDate)
    }

    /// A watcher over the stores' sources, given whole.
    ///
    /// Each round reads them once (``StoreSources/read(_:)``), as ``ReleaseSnapshot/take(_:now:previous:)``
    /// does, its health judging the version being released; the rollout gate judges that health.
    public init(
        state: any WatchStateStore, sources: StoreSources, notifier: WebhookNotifier? = nil,
        interval: Duration = .seconds(300), clock: PollingClock = .continuous, startDate: Date = Date()
    ) {
        self.init(state: state, notifier: notifier, interval: interval, clock: clock, startDate: startDate) {
            now, previous throws(ReleaseSourceError) in
            try await ReleaseSnapshot.take(sources, now: now, previous: previous)
        }
        self.sources = ReleaseSnapshot.releasing(sources)
    }

    /// Who halts and rolls out: the sources' own actor, when the watch halts and has sources.
    private var actor: ReleaseActor? {
        guard haltsOnRegression, let sources else { return nil }
        return ReleaseActor(acting: sources)
    }

    /// The wait before the next round after `failures` failed rounds in a row.
    public func wait(afterFailures failures: Int) -> Duration {
        WatchRound.wait(afterFailures: failures, interval: interval, maximumBackoff: maximumBackoff)
    }

    /// Runs rounds until `rounds` have run, `stop` is requested, or the task is cancelled.
    ///
    /// Forever when `rounds` is `nil`. A stop requested between rounds ends the watch at once;
    /// mid-round, after that round, or when it outlasts the stop's ``WatchStop/grace``, cut
    /// short (``WatchStop``). Cancelling the task ends it at once, mid-round: a store read or a
    /// delivery in progress is cut short, nothing is reported of it, and the file is not
    /// advanced, so the events that delivery carried stay owed (``Outcome/undelivered``) and the
    /// next watch of the file delivers them.
    ///
    /// - Parameters:
    ///   - rounds: How many rounds, the first included.
    ///   - stop: Asked before each round and after each wait; told when a round begins and ends.
    ///   - progress: Told what each round did, as it happens.
    /// - Returns: How it ended; ``Outcome/undelivered`` events are still owed to the webhook,
    ///   ``Outcome/haltsOwed`` halts to the stores.
    /// - Throws: ``WatchStateFileError`` for a state file that is not this app's snapshot, held
    ///   by another watcher, or cannot be written (the file is then as it was).
    public func run(
        rounds: Int? = nil, stop: WatchStop = WatchStop(), progress: (Progress) -> Void = { _ in }
    ) async throws(WatchStateFileError) -> Outcome {
        let lock = try state.lock()
        defer { withExtendedLifetime(lock) {} }
        let acts = actor != nil
        let acting = WatchRound.Acting(haltsOnRegression: acts, rollout: acts ? rollout : nil)
        var machine = WatchRound(
            state: try state.readState(), acting: acting, rounds: rounds, interval: interval,
            maximumBackoff: maximumBackoff, hasHistory: history != nil, hasNotifier: notifier != nil)
        var action = machine.start()
        while true {
            if case .finish(let outcome) = action { return outcome }
            action = try await perform(action, on: &machine, stop: stop, progress: progress)
        }
    }

    /// Performs one of the machine's actions and tells it what came of it: its next action.
    private func perform(
        _ action: WatchRound.Action, on machine: inout WatchRound, stop: WatchStop,
        progress: (Progress) -> Void
    ) async throws(WatchStateFileError) -> WatchRound.Action {
        let acting = self.actor
        let actor = acting ?? ReleaseActor()
        func cut(_ next: WatchRound.Action) -> WatchRound.Action { Task.isCancelled ? machine.cancelled() : next }
        switch action {
        case .sleep(let wait):
            guard !stop.isRequested, (try? await clock.sleep(wait)) != nil else { return machine.stopRequested() }
            return machine.slept()
        case .beginRound:
            let now = startDate.addingTimeInterval(clock.now().seconds)
            return stop.beginRound() ? machine.roundBegan(at: now) : machine.stopRequested()
        case .read(let previous):
            let now = startDate.addingTimeInterval(clock.now().seconds)
            let result = await Result.of { () async throws(ReleaseSourceError) in
                guard var sources else {
                    return WatchRound.Reading(snapshot: try await read(now, previous), health: nil)
                }
                // No day after the round's own is counted (none exists on a real clock; a scripted one may see it).
                let through = sources.health?.through.map { min($0, now) } ?? now
                sources.health?.through = through
                let reading = try await sources.read(ReleaseSnapshot.extras.union(acting == nil ? [] : .everyTrack))
                return WatchRound.Reading(
                    snapshot: ReleaseSnapshot(reading, takenAt: now, previous: previous), health: reading.health,
                    acting: acting?.reading(from: reading, platform: sources.appStoreConnect?.platform))
            }
            return cut(machine.read(result))
        case .readForActing(let what, let version):
            let result = await Result.of { () async throws(ReleaseActorError) in
                try await actor.read(for: what, version: version)
            }
            return cut(machine.actingRead(result))
        case .apply(let plan):
            let applied = await actor.apply(plan)
            return cut(machine.planApplied(applied))
        case .appendHistory(let line, let lines):
            guard let history else { return machine.historyAppended(lines: nil) }
            return machine.historyAppended(
                Result { () throws(ReleaseHistoryFileError) in try history.append(line, lines: lines) })
        case .replaceState(let snapshot, let memory):
            try state.replace(with: snapshot, memory: memory)
            return machine.stateReplaced()
        case .report(let what):
            progress(what)
            return machine.reported()
        case .deliver(let events):
            let delivery = await Result.of { () async throws(WebhookDeliveryError) in
                if let notifier { try await notifier.deliver(events) }
            }
            return Task.isCancelled ? machine.deliveryCancelled() : machine.delivery(delivery)
        case .endRound:
            stop.endRound()
            return machine.roundEnded()
        case .refuse(let conflict):
            throw .otherApp(path: state.path, reason: conflict)
        case .finish:
            return action
        }
    }
}

extension Result where Failure: Error {
    /// The result of an async throwing `body`.
    static func of(_ body: () async throws(Failure) -> Success) async -> Result {
        do throws(Failure) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}

extension ReleaseSnapshot {
    /// The versions to halt this round: each store's verdict that is `regressed` here and whose
    /// last judged verdict (in `memory`) was not `regressed` of that version, or whose halt is
    /// still owed; a version once.
    ///
    /// `unknown` is not a judgement: a version regressed, halted and resumed by a person is not
    /// due again after `unknown` rounds, only after a judged verdict other than `regressed`.
    func haltsDue(memory: WatchMemory) -> [(Version, Store, StoreHealthRecord)] {
        var due: [(Version, Store, StoreHealthRecord)] = []
        for (store, record) in health?.stores ?? [] where record.verdict == .regressed {
            guard let version = record.version, !due.contains(where: { $0.0 == version }) else { continue }
            let was = memory.judgement(of: store)
            let turned = !(was?.verdict == .regressed && was?.version == version)
            if turned || memory.haltsOwed.contains(version) { due.append((version, store, record)) }
        }
        return due
    }
}
