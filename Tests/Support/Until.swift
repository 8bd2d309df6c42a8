import Foundation

/// Waits until `condition` holds, checking every few milliseconds, for at most `deadline`: the
/// point a test acts at (cancel a task the server is holding, one the limiter keeps waiting).
///
/// The deadline is a hang guard, not a timing assertion: a minute by default, since the whole
/// suite on 2 cores can keep a task from running for many seconds (a 10-s guard failed once so).
///
/// - Throws: ``UntilError`` naming `what` when the deadline passes first, so a test that never
///   reaches its point fails instead of hanging.
public func until(
    _ what: String, deadline: Duration = .seconds(60), _ condition: @Sendable () async -> Bool
) async throws {
    let end = ContinuousClock.now + deadline
    while !(await condition()) {
        guard ContinuousClock.now < end else { throw UntilError(what: what, deadline: deadline) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// The deadline of ``until(_:deadline:_:)`` passed before its condition held.
public struct UntilError: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String
    /// How long.
    public let deadline: Duration

    /// "never happened within 10 s: the server holds the request".
    public var description: String { "never happened within \(deadline): \(what)" }
}

/// Waits on the calling thread until `condition` holds, checking every 5 ms, for at most
/// `deadline`: for a test that acts at a moment another process reaches.
///
/// Not ``until(_:deadline:_:)``: while other tests' processes hold the shared pool's threads,
/// an awaited sleep can resume seconds late, after the moment has passed.
///
/// - Throws: ``UntilError`` naming `what` when the deadline passes first.
public func waitUntil(_ what: String, deadline: Duration = .seconds(10), _ condition: () -> Bool) throws {
    let end = ContinuousClock.now + deadline
    while !condition() {
        guard ContinuousClock.now < end else { throw UntilError(what: what, deadline: deadline) }
        Thread.sleep(forTimeInterval: 0.005)
    }
}

/// Runs `body` and returns what it returns or throws, cancelling it when it has not ended within
/// `deadline`: a hang guard for a call that is meant to end by itself, never a timing assertion.
///
/// - Throws: What `body` throws, or ``UntilError`` naming `what` when the deadline passes first.
public func endingWithin<T: Sendable>(
    _ what: String, deadline: Duration = .seconds(60), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: deadline)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw UntilError(what: what, deadline: deadline)
        }
        return value
    }
}
