import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The file a watcher keeps its last delivered snapshot in: the ``WatchStateStore`` on disk.
///
/// It is replaced atomically and held by one watcher at a time.
/// A replacement is written to `FILE.tmp` beside it, flushed to disk (`fsync`), renamed over the
/// file, and the folder flushed too: a watcher killed at any point leaves either the old snapshot
/// or the new one, never a torn file. ``lock()`` takes an exclusive `flock(2)` on `FILE.lock`,
/// which the kernel releases when the process ends, however it ends. (The prompt history's file
/// is kept the same way.) FILE must be a regular file, not a link (the rename would replace the
/// link) nor a FIFO; `FILE.tmp` and `FILE.lock` are never opened through a link planted there.
public struct WatchStateFile: WatchStateStore, Hashable {
    /// The largest state file read: a snapshot of every storefront is far smaller.
    public static let maximumSize = 16 << 20

    /// Where the snapshot is kept.
    public let path: String

    /// Names the file; nothing is read or written yet.
    public init(path: String) {
        self.path = path
    }

    /// The file's bytes, or `nil` when there is no file yet (the first round).
    ///
    /// - Throws: ``WatchStateFileError/notASnapshot(path:reason:)`` for a file over ``maximumSize``,
    ///   ``WatchStateFileError/notAFile(path:reason:)`` for a link, a FIFO or a folder (never waited on).
    public func contents() throws(WatchStateFileError) -> Data? {
        try requireName()
        do throws(RegularFile.Problem) {
            return try RegularFile.contents(path, limit: Self.maximumSize, followingLinks: false)
        } catch {
            switch error {
            case .missing: return nil
            case .notAFile(let kind) where kind == "a symbolic link":
                throw .notAFile(
                    path: path,
                    reason:
                        "\(error) (the state is replaced by renaming, which would replace the link: name the file itself)"
                )
            case .notAFile: throw .notAFile(path: path, reason: "\(error)")
            case .tooLarge: throw .notASnapshot(path: path, reason: "\(error)")
            case .system(let reason): throw .io(path: path, operation: "read", reason: reason)
            }
        }
    }

    /// Replaces the file with `data`, atomically and durably.
    ///
    /// - Throws: ``WatchStateFileError/io(path:operation:reason:)``, or ``WatchStateFileError/notAFile(path:reason:)`` for
    ///   something other than a file left by an earlier write at `FILE.tmp`; the old file is then
    ///   as it was.
    public func replaceContents(with data: Data) throws(WatchStateFileError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.replace(path, with: data)
        } catch {
            throw Self.failure(error)
        }
    }

    /// A lock on a watcher's state (the file's, or any ``WatchStateStore``'s).
    ///
    /// It is held until the value is released (or, for the file, the process ends).
    public final class Lock: Sendable {
        private let held: any Sendable

        fileprivate init(_ held: AtomicFile.Lock) {
            self.held = held
        }

        /// A lock that runs `release` when it is released: for a store of your own.
        public init(releasing release: @escaping @Sendable () -> Void) {
            held = Release(release)
        }

        /// Runs its closure when the last reference goes.
        private final class Release: Sendable {
            let release: @Sendable () -> Void
            init(_ release: @escaping @Sendable () -> Void) { self.release = release }
            deinit { release() }
        }
    }

    /// Takes the file's lock (`FILE.lock`) without waiting.
    ///
    /// - Throws: ``WatchStateFileError/locked(path:)`` when another watcher (in any process) holds it,
    ///   ``WatchStateFileError/notAFile(path:reason:)`` when `FILE.lock` is a link, a FIFO or a folder.
    public func lock() throws(WatchStateFileError) -> Lock {
        try requireName()
        let held: AtomicFile.Lock?
        do throws(AtomicFile.Failure) {
            held = try AtomicFile.lock(path + ".lock", waiting: false)
        } catch {
            throw Self.failure(error)
        }
        guard let held else { throw .locked(path: path) }
        return Lock(held)
    }

    /// An empty path names no file (and `.lock` would land in the working folder).
    private func requireName() throws(WatchStateFileError) {
        if path.isEmpty { throw .notAFile(path: path, reason: "the path is empty: name a file") }
    }

    private static func failure(_ error: AtomicFile.Failure) -> WatchStateFileError {
        error.isNotAFile
            ? .notAFile(path: error.path, reason: error.reason)
            : .io(path: error.path, operation: error.operation, reason: error.reason)
    }
}

/// Why the state file cannot be used.
public enum WatchStateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// It is not a snapshot this package wrote (or not JSON, or too large); it is left as it is.
    case notASnapshot(path: String, reason: String)
    /// It is a snapshot of another app or track; it is left as it is.
    case otherApp(path: String, reason: String)
    /// It, its temporary file or its lock file is not a regular file; `path` names which.
    ///
    /// A symbolic link, a FIFO, a folder: nothing was read through it or written to it.
    case notAFile(path: String, reason: String)
    /// Another watcher holds it.
    case locked(path: String)
    /// Reading, writing or locking it failed.
    case io(path: String, operation: String, reason: String)

    /// One line naming the file and what is wrong.
    public var description: String {
        switch self {
        case .notASnapshot(let path, let reason):
            "state file \(path.debugDescription) is not a snapshot (\(reason)); it was left as it is"
        case .otherApp(let path, let reason):
            "state file \(path.debugDescription) is a snapshot of another app: \(reason); it was left as it is "
                + "(\(FailureHint.stateOfItsOwn.words))"
        case .notAFile(let path, let reason):
            "\(path.debugDescription) cannot be used for the state: \(reason)"
        case .locked(let path):
            "state file \(path.debugDescription) is in use by another watcher (\(path).lock is locked)"
        case .io(let path, let operation, let reason):
            "cannot \(operation) state file \(path.debugDescription): \(reason)"
        }
    }
}
