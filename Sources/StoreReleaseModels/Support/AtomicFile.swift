import Foundation
import StoreReleaseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file kept by the package and shared between processes: replaced whole, under a lock.
///
/// The one way the prompt history and a watcher's state file are written: the new content goes
/// to a temporary file beside it, is flushed to disk (`fsync`) and renamed over the old one, and
/// the folder is flushed too, so a process killed at any point leaves the old content or the new,
/// never half of either. The lock is an exclusive `flock(2)` on a file of its own, which the
/// kernel releases when the process ends, however it ends.
package enum AtomicFile {
    /// Why a file could not be locked or replaced.
    package struct Failure: Error, Sendable, Hashable {
        /// The file that failed (the temporary one, the lock file, or the file itself).
        package let path: String
        /// `write`, `flush`, `replace`, `lock`.
        package let operation: String
        /// The system's words (`No space left on device`).
        package let reason: String
    }

    /// Replaces the file at `path` with `data`, through `temporary`; on a failure the old file is as it was.
    package static func replace(_ path: String, with data: Data, through temporary: String) throws(Failure) {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: temporary, operation: "write", reason: lastError()) }
        func fail(_ operation: String) -> Failure {
            let failure = Failure(path: temporary, operation: operation, reason: lastError())
            close(descriptor)
            unlink(temporary)
            return failure
        }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { bytes in
                write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail("write")
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw fail("flush") }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let failure = Failure(path: path, operation: "replace", reason: lastError())
            unlink(temporary)
            throw failure
        }
        let folder = (path as NSString).deletingLastPathComponent
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// An exclusive lock, held until the value is released (or the process ends).
    package final class Lock: Sendable {
        private let descriptor: Int32

        fileprivate init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Locks `lockPath` (created if need be): waiting for another holder, or not.
    ///
    /// - Returns: The lock, or `nil` when another process (or value) holds it and `waiting` is false.
    package static func lock(_ lockPath: String, waiting: Bool) throws(Failure) -> Lock? {
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw Failure(path: lockPath, operation: "open", reason: lastError()) }
        while flock(descriptor, LOCK_EX | (waiting ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let failure = Failure(path: lockPath, operation: "lock", reason: lastError())
            close(descriptor)
            if busy && !waiting { return nil }
            throw failure
        }
        return Lock(descriptor: descriptor)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
