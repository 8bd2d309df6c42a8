import StoreReleaseCore
import StoreReleaseModels

/// A sliding-window limit on requests: at most `limit` in any `period`.
///
/// Pure bookkeeping, so it is tested without a clock: times are durations since any fixed
/// origin. ``RateLimiter`` runs it against the real clock.
struct RateLimitWindow: Sendable {
    let limit: Int
    let period: Duration
    /// The start times granted within the last period, ascending.
    private(set) var grants: [Duration] = []
    /// No request starts before this time (the server throttled us).
    private(set) var pausedUntil: Duration = .zero

    init(limit: Int, period: Duration) {
        self.limit = max(1, limit)
        self.period = period
    }

    /// Reserves the next slot for a request that wants to start at `now`.
    ///
    /// - Returns: When the request may start (`now` or later); the slot is taken either way.
    mutating func reserve(at now: Duration) -> Duration {
        grants.removeAll { $0 <= now - period }
        var start = max(now, pausedUntil)
        if grants.count >= limit {
            start = max(now, grants[grants.count - limit] + period)
        }
        grants.append(start)
        return start
    }

    /// Starts no request before `time`.
    mutating func pause(until time: Duration) {
        pausedUntil = max(pausedUntil, time)
    }
}

/// Keeps lookups within the App Store's limit (about 20 a minute).
///
/// Every caller that holds the same limiter shares it: concurrent lookups wait their turn instead
/// of all being refused.
public actor RateLimiter {
    private var window: RateLimitWindow
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant

    /// Makes a limiter of `requests` per `period`; the default is Apple's 20 a minute.
    public init(requests: Int = 20, per period: Duration = .seconds(60)) {
        window = RateLimitWindow(limit: requests, period: period)
        origin = clock.now
    }

    /// Called with a request's wait for its turn, when it has to wait at all: what a tool shows
    /// while the limit holds it back (set with ``observeWaits(_:)``).
    private var waitObserver: (@Sendable (Duration) -> Void)?

    /// How many requests hold a slot of the current window: granted, or waiting their turn.
    var reservedSlots: Int { window.grants.count }

    /// How long from now until the last request given a slot may start: zero when none waits.
    ///
    /// A tool polls it to say how long the limit still holds its work back.
    public var waitRemaining: Duration {
        max(.zero, (window.grants.last ?? .zero) - (clock.now - origin))
    }

    /// Calls `observer` with each request's wait for its turn, just before a request waits.
    ///
    /// A request that need not wait is not reported; a second observer replaces the first.
    public func observeWaits(_ observer: @escaping @Sendable (Duration) -> Void) {
        waitObserver = observer
    }

    /// Holds every request back for `duration` from now: the server is throttling.
    public func pause(for duration: Duration) {
        window.pause(until: clock.now - origin + duration)
    }

    /// Waits until a request may start, and counts it.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled (its slot is not given back).
    public func acquire() async throws {
        let start = window.reserve(at: clock.now - origin)
        let wait = start - (clock.now - origin)
        if wait > .zero {
            waitObserver?(wait)
            try await Task.sleep(for: wait)
        }
    }
}
