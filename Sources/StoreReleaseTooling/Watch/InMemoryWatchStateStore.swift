import Foundation

/// A watcher's state in memory, holding the very bytes a ``WatchStateFile`` would.
///
/// For tests (days of rounds without a disk write), and for a program that keeps the snapshot
/// somewhere of its own (it takes ``contents()`` after a run).
/// It serves one watcher at a time, like the file.
public final class InMemoryWatchStateStore: WatchStateStore, @unchecked Sendable {
    /// What errors call the store.
    public let path: String
    private let mutex = NSLock()
    private var kept: Data?
    private var held = false

    /// A store holding `contents` (none: the first round records a baseline).
    public init(path: String = "(in memory)", contents: Data? = nil) {
        self.path = path
        self.kept = contents
    }

    /// The bytes kept, or `nil` when nothing is kept yet.
    public func contents() -> Data? {
        mutex.withLock { kept }
    }

    /// Replaces the bytes kept with `data`.
    public func replaceContents(with data: Data) {
        mutex.withLock { kept = data }
    }

    /// Takes the store for one watcher until the lock is released.
    ///
    /// - Throws: ``WatchStateFileError/locked(path:)`` while another lock on it is held.
    public func lock() throws(WatchStateFileError) -> WatchStateFile.Lock {
        let taken = mutex.withLock { () -> Bool in
            if held { return false }
            held = true
            return true
        }
        guard taken else { throw .locked(path: path) }
        return WatchStateFile.Lock { [self] in mutex.withLock { held = false } }
    }
}
