import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Where a ``PromptHistory`` is kept.
///
/// Updates are read-modify-write as one step, so two writers never lose each other's change.
public protocol PromptHistoryStore: Sendable {
    /// The history now.
    func load() throws -> PromptHistory
    /// Changes the history and keeps it; returns what was kept.
    @discardableResult
    func update(_ change: @Sendable (inout PromptHistory) -> Void) throws -> PromptHistory
}

/// A history in memory, for tests and for apps that keep it elsewhere.
public final class InMemoryPromptHistoryStore: PromptHistoryStore, @unchecked Sendable {
    private let lock = NSLock()
    private var history: PromptHistory

    /// A store holding `history`.
    public init(_ history: PromptHistory = PromptHistory()) {
        self.history = history
    }

    /// The history now.
    public func load() -> PromptHistory {
        lock.withLock { history }
    }

    /// Changes the history under the store's lock; returns what was kept.
    @discardableResult
    public func update(_ change: @Sendable (inout PromptHistory) -> Void) -> PromptHistory {
        lock.withLock {
            change(&history)
            return history
        }
    }
}
