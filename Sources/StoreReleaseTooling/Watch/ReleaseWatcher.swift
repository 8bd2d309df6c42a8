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
        /// Nothing was written; the next round tries again while it stays `regressed`.
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
    /// The round a store's verdict of a version turns `regressed` (it was not, or that version
    /// was not judged, in the snapshot before; the first round of a new state file counts), the
    /// halt plan for the version is read, planned and applied on both stores
    /// (``ReleaseActor/act(_:version:)``), and a ``ReleaseEvent/Change/halted(version:store:steps:verified:refusals:health:)``
    /// event is delivered with the round's events. A halt not verified (a store refused a step,
    /// or could not be read) is tried again each round while the verdict stays `regressed`; a
    /// verified one is not, so a person who resumes the release later is not overruled. Opt-in:
    /// without it the watch writes nothing to any store. The health sources should judge the
    /// version being released (``HealthSources/Candidate/newestReleasing``).
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

    /// Runs rounds until `rounds` have run, `isStopping` says so, or the task is cancelled.
    ///
    /// Forever when `rounds` is `nil`. A stop asked for through `isStopping` mid-round ends the
    /// watch after that round. Cancelling the task ends it at once, mid-round: a store read or a
    /// delivery in progress is cut short, nothing is reported of it, and the file is not advanced,
    /// so the events that delivery carried stay owed (``Outcome/undelivered``) and the next watch
    /// of the file delivers them.
    ///
    /// - Parameters:
    ///   - rounds: How many rounds, the first included.
    ///   - isStopping: Checked before each round and after each wait.
    ///   - progress: Told what each round did, as it happens.
    /// - Returns: How it ended; ``Outcome/undelivered`` events are still owed to the webhook.
    /// - Throws: ``WatchStateFileError`` for a state file that is not this app's snapshot, held
    ///   by another watcher, or cannot be written (the file is then as it was).
    public func run(
        rounds: Int? = nil, isStopping: @Sendable () -> Bool = { false },
        progress: (Progress) -> Void = { _ in }
    ) async throws(WatchStateFileError) -> Outcome {
        let lock = try state.lock()
        defer { withExtendedLifetime(lock) {} }
        var kept = try state.read()
        var latest = kept
        var failures = 0
        var round = 0
        var pending: [ReleaseEvent] = []
        var cutShort = false
        var historyLines: Int?
        var haltsOwed: Set<Version> = []
        func roundsLeft() -> Bool { rounds.map { round < $0 } ?? true }
        watching: while roundsLeft(), !isStopping() {
            if round > 0 {
                do {
                    try await clock.sleep(wait(afterFailures: failures))
                } catch {
                    break
                }
                if isStopping() { break }
            }
            round += 1
            let snapshot: ReleaseSnapshot
            do throws(ReleaseSourceError) {
                snapshot = try await read(startDate.addingTimeInterval(clock.now().seconds), latest)
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
                for (version, store, record) in snapshot.haltsDue(since: latest, owed: haltsOwed) {
                    do throws(ReleaseActorError) {
                        let plan = try await halting.act(.halt, version: version)
                        if Task.isCancelled {
                            cutShort = true
                            break watching
                        }
                        progress(.halted(plan))
                        if plan.apply, plan.verified != true {
                            haltsOwed.insert(version)
                        } else {
                            haltsOwed.remove(version)
                        }
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
                        haltsOwed.insert(version)
                        progress(.haltFailed(version, error))
                    }
                }
            }
            let base: ReleaseSnapshot
            let new: [ReleaseEvent]
            if let kept {
                base = kept
                new = snapshot.events(since: latest ?? base) + acted
            } else {
                latest = snapshot
                try state.replace(with: snapshot)
                kept = snapshot
                failures = 0
                progress(.baseline(snapshot))
                // A baseline reports nothing, but a halt it made is delivered.
                guard !acted.isEmpty else { continue }
                base = snapshot
                new = acted
            }
            latest = snapshot
            if !new.isEmpty { progress(.events(new)) }
            var owed = pending + new
            if owed.count > Self.maximumOwed { owed = snapshot.events(since: base) + acted }
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
            try state.replace(with: snapshot)
            kept = snapshot
            pending = []
            failures = 0
        }
        // Rounds left over, or a round cut short, mean the watch was stopped (or cancelled).
        return Outcome(
            rounds: round, undelivered: pending.count, lastRoundFailed: failures > 0,
            stopped: roundsLeft() || cutShort)
    }
}

extension ReleaseSnapshot {
    /// The versions to halt this round: each store's verdict that is `regressed` here and was not
    /// in `previous` (for that version), or whose halt is still `owed`; a version once.
    func haltsDue(since previous: ReleaseSnapshot?, owed: Set<Version>) -> [(Version, Store, StoreHealthRecord)] {
        var due: [(Version, Store, StoreHealthRecord)] = []
        for (store, record) in health?.stores ?? [] where record.verdict == .regressed {
            guard let version = record.version, !due.contains(where: { $0.0 == version }) else { continue }
            let was = previous?.health?.record(of: store)
            let turned = !(was?.verdict == .regressed && was?.version == version)
            if turned || owed.contains(version) { due.append((version, store, record)) }
        }
        return due
    }
}
