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

/// A history in memory: a test double.
///
/// Not public API: an app that keeps the history elsewhere conforms its own store to
/// ``PromptHistoryStore`` (an in-memory one would not keep it across launches). Locked with
/// `NSLock`, so `@unchecked Sendable`: `Mutex` needs iOS 18 and macOS 15, and this target is
/// built for iOS 16 and macOS 13.
package final class InMemoryPromptHistoryStore: PromptHistoryStore, @unchecked Sendable {
    private let lock = NSLock()
    private var history: PromptHistory

    /// A store holding `history`.
    package init(_ history: PromptHistory = PromptHistory()) {
        self.history = history
    }

    /// The history now.
    package func load() -> PromptHistory {
        lock.withLock { history }
    }

    /// Changes the history under the store's lock; returns what was kept.
    @discardableResult
    package func update(_ change: @Sendable (inout PromptHistory) -> Void) -> PromptHistory {
        lock.withLock {
            change(&history)
            return history
        }
    }
}
