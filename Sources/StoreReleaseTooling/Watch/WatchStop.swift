import Synchronization

/// A request to stop a watch, and the grace the round in progress has to finish.
///
/// ``request()`` may come from any thread (a signal handler). Between rounds, the watch ends at
/// once: the task running it (``cancels(_:)``) is cancelled, which ends its wait. Mid-round, the
/// round goes on, and the watch ends after it, its events delivered and the state advanced; a
/// round still running ``grace`` after the request is cut short by cancelling the task: a store
/// read or a delivery in flight is abandoned, and its events are kept for the next watch of
/// the state.
public final class WatchStop: Sendable {
    /// How long a round in progress may go on after a request: 10 s unless told.
    public let grace: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let state = Mutex(State())

    private struct State {
        var requested = false
        /// The round running, if one is (counted from 1).
        var round: Int?
        var rounds = 0
        var cancel: (@Sendable () -> Void)?
        var timer: Task<Void, Never>?
    }

    /// A stop not yet requested, whose grace is timed by `clock`.
    public init(grace: Duration = .seconds(10), clock: PollingClock = .continuous) {
        self.grace = grace
        self.sleep = clock.sleep
    }

    /// Whether a stop was requested.
    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Asks the watch to stop: at once between rounds, after the round in progress within ``grace``.
    public func request() {
        let first = state.withLock { state in
            defer { state.requested = true }
            return !state.requested
        }
        if first { act() }
    }

    /// Cancels `task` (the one running the watch) when the stop comes, as ``request()`` says.
    public func cancels<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) {
        let requested = state.withLock { state in
            state.cancel = { task.cancel() }
            return state.requested
        }
        if requested { act() }
    }

    /// Starts a round, or says the watch is to stop (`false`).
    func beginRound() -> Bool {
        state.withLock { state in
            guard !state.requested else { return false }
            state.rounds += 1
            state.round = state.rounds
            return true
        }
    }

    /// Ends the round in progress: a grace being timed is no longer needed.
    func endRound() {
        let timer = state.withLock { state in
            state.round = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// Cancels the task now, between rounds; mid-round, once the grace is over and the round still runs.
    private func act() {
        enum Action {
            case cancel((@Sendable () -> Void)?)
            case time(round: Int)
            case timing
        }
        let action = state.withLock { state -> Action in
            guard let round = state.round else { return .cancel(state.cancel) }
            return state.timer == nil ? .time(round: round) : .timing
        }
        switch action {
        case .cancel(let cancel):
            cancel?()
        case .timing:
            break
        case .time(let round):
            let timer = Task { [sleep, grace] in
                do {
                    try await sleep(grace)
                } catch {
                    return  // the round ended in time
                }
                let cancel = self.state.withLock { $0.round == round ? $0.cancel : nil }
                cancel?()
            }
            state.withLock { $0.timer = timer }
        }
    }
}
