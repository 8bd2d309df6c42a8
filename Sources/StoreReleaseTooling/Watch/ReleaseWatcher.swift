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
        /// A version's health turned `regressed` and ``halting`` acted.
        ///
        /// The plan as applied (or refused, or with nothing to do).
        case halted(ActingPlan)
        /// A version's health turned `regressed` and the stores could not be read to halt it.
        ///
        /// Nothing was written; the halt is owed: the next round (or the next watch of the
        /// state) tries again while it stays `regressed`.
        case haltFailed(Version, ReleaseActorError)
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
    /// Who halts a release whose health turns `regressed` (`watch --halt-on regressed`), if anyone.
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
    /// writes nothing to any store. ``ReleaseSnapshot/take(appStore:play:appStoreConnect:health:now:previous:)``
    /// judges the version being released (``StoreReading/newestReleasing``), the version halted.
    public var halting: ReleaseActor?
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
    /// Each round reads them as ``ReleaseSnapshot/take(appStore:play:appStoreConnect:health:now:previous:)`` does.
    public init(
        state: any WatchStateStore, appStore: AppStoreSource?, play: PlaySource?,
        appStoreConnect: AppStoreConnectSource?, health: HealthSources? = nil, notifier: WebhookNotifier? = nil,
        interval: Duration = .seconds(300), clock: PollingClock = .continuous, startDate: Date = Date()
    ) {
        self.init(
            state: state, notifier: notifier, interval: interval, clock: clock, startDate: startDate
        ) { now, previous throws(ReleaseSourceError) in
            try await ReleaseSnapshot.take(
                appStore: appStore, play: play, appStoreConnect: appStoreConnect, health: health, now: now,
                previous: previous)
        }
    }

    /// The wait before the next round after `failures` failed rounds in a row.
    public func wait(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return interval }
        return min(interval * (1 << min(failures, 20)), max(maximumBackoff, interval))
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
        let read = try state.readState()
        var kept = read?.snapshot
        // A state without the memory (written before it was kept) counts each store's recorded
        // verdict as judged, for a watch that halts; one that does not keeps what it read.
        var memory = read?.memory ?? (halting == nil ? WatchMemory() : WatchMemory(recordedIn: kept))
        var latest = kept
        var failures = 0
        var round = 0
        var pending: [ReleaseEvent] = []
        var cutShort = false
        var historyLines: Int?
        func roundsLeft() -> Bool { rounds.map { round < $0 } ?? true }
        watching: while roundsLeft(), !stop.isRequested {
            if round > 0 {
                do {
                    try await clock.sleep(wait(afterFailures: failures))
                } catch {
                    break
                }
            }
            guard stop.beginRound() else { break }
            defer { stop.endRound() }
            round += 1
            let snapshot: ReleaseSnapshot
            do throws(ReleaseSourceError) {
                snapshot = try await self.read(startDate.addingTimeInterval(clock.now().seconds), latest)
            } catch {
                // Cancelled mid-read: the store did not fail, the watch is ending.
                if Task.isCancelled {
                    cutShort = true
                    break
                }
                failures += 1
                progress(.storeFailed(error, retryIn: wait(afterFailures: failures)))
                continue
            }
            // Cancelled as the read ended: the round is cut short all the same.
            if Task.isCancelled {
                cutShort = true
                break
            }
            if let kept, let conflict = snapshot.conflict(with: kept) {
                throw .otherApp(path: state.path, reason: conflict)
            }
            if let history {
                do throws(ReleaseHistoryFileError) {
                    historyLines = try history.append(ReleaseHistoryRound(snapshot), lines: historyLines)
                } catch {
                    historyLines = nil
                    progress(.historyFailed(error))
                }
            }
            var acted: [ReleaseEvent] = []
            if let halting {
                let remembered = memory
                for (version, store, record) in snapshot.haltsDue(memory: memory) {
                    do throws(ReleaseActorError) {
                        let plan = try await halting.act(.halt, version: version)
                        if Task.isCancelled {
                            cutShort = true
                            break watching
                        }
                        if plan.apply, plan.verified != true {
                            memory.haltsOwed.insert(version)
                        } else {
                            memory.haltsOwed.remove(version)
                        }
                        progress(.halted(plan))
                        acted.append(
                            ReleaseEvent(
                                .halted(
                                    version: version, store: store, steps: plan.steps, verified: plan.verified,
                                    refusals: plan.refusals, health: record), at: snapshot.takenAt))
                    } catch {
                        if Task.isCancelled {
                            cutShort = true
                            break watching
                        }
                        memory.haltsOwed.insert(version)
                        progress(.haltFailed(version, error))
                    }
                }
                memory.remember(snapshot.health)
                // What is owed and judged is kept at once, whatever becomes of the round's delivery.
                if memory != remembered, let kept { try state.replace(with: kept, memory: memory) }
            }
            let base: ReleaseSnapshot
            let new: [ReleaseEvent]
            if let kept {
                base = kept
                new = ReleaseEvent.numbered(
                    snapshot.events(since: latest ?? base) + acted, after: pending, from: base.takenAt)
            } else {
                latest = snapshot
                try state.replace(with: snapshot, memory: memory)
                kept = snapshot
                failures = 0
                progress(.baseline(snapshot))
                // A baseline reports nothing, but a halt it made is delivered.
                guard !acted.isEmpty else { continue }
                base = snapshot
                new = ReleaseEvent.numbered(acted, after: [], from: base.takenAt)
            }
            latest = snapshot
            if !new.isEmpty { progress(.events(new)) }
            var owed = pending + new
            if owed.count > Self.maximumOwed {
                owed = ReleaseEvent.numbered(snapshot.events(since: base) + acted, after: [], from: base.takenAt)
            }
            if let notifier, !owed.isEmpty {
                do throws(WebhookDeliveryError) {
                    try await notifier.deliver(owed)
                } catch {
                    pending = owed
                    // Cut short by a cancellation: owed, not failed; the file stays where it is.
                    if Task.isCancelled {
                        cutShort = true
                        break
                    }
                    failures += 1
                    progress(.deliveryFailed(error, kept: owed.count, retryIn: wait(afterFailures: failures)))
                    continue
                }
                progress(.delivered(count: owed.count))
            }
            try state.replace(with: snapshot, memory: memory)
            kept = snapshot
            pending = []
            failures = 0
        }
        // Rounds left over, or a round cut short, mean the watch was stopped (or cancelled).
        return Outcome(
            rounds: round, undelivered: pending.count, lastRoundFailed: failures > 0,
            stopped: roundsLeft() || cutShort, haltsOwed: memory.haltsOwed)
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
