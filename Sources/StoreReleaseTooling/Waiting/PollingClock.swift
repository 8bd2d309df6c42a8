import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// The time a polling loop reads and the sleep it takes, injectable so tests take no real time.
public struct PollingClock: Sendable {
    /// Time elapsed since any fixed origin.
    public var now: @Sendable () -> Duration
    /// Waits for a duration; throws when the task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Makes a clock from its two functions.
    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The real clock: `ContinuousClock` and `Task.sleep`.
    public static var continuous: PollingClock {
        let clock = ContinuousClock()
        let origin = clock.now
        return PollingClock(now: { clock.now - origin }, sleep: { try await Task.sleep(for: $0) })
    }
}
