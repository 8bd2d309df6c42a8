import Foundation
import Synchronization

/// A watcher's state in memory, holding the very bytes a ``WatchStateFile`` would: a test double.
///
/// The soak and the watcher's tests run days of rounds with it, without a disk write a round. It
/// serves one watcher at a time, like the file. Not public API: a program that keeps the snapshot
/// somewhere of its own conforms its store to ``WatchStateStore``.
package final class InMemoryWatchStateStore: WatchStateStore, Sendable {
    /// What errors call the store.
    package let path: String
    private let state: Mutex<State>

    private struct State {
        var kept: Data?
        var held = false
    }

    /// A store holding `contents` (none: the first round records a baseline).
    package init(path: String = "(in memory)", contents: Data? = nil) {
        self.path = path
        self.state = Mutex(State(kept: contents))
    }

    /// The bytes kept, or `nil` when nothing is kept yet.
    package func contents() -> Data? {
        state.withLock { $0.kept }
    }

    /// Replaces the bytes kept with `data`.
    package func replaceContents(with data: Data) {
        state.withLock { $0.kept = data }
    }

    /// Takes the store for one watcher until the lock is released.
    ///
    /// - Throws: ``WatchStateFileError/locked(path:)`` while another lock on it is held.
    package func lock() throws(WatchStateFileError) -> WatchStateFile.Lock {
        let taken = state.withLock { state in
            defer { state.held = true }
            return !state.held
        }
        guard taken else { throw .locked(path: path) }
        return WatchStateFile.Lock { [self] in state.withLock { $0.held = false } }
    }
}
