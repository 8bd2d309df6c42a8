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
/// to `FILE.tmp` beside it, is flushed to disk (`fsync`) and renamed over the old one, and the
/// folder is flushed too, so a process killed at any point leaves the old content or the new,
/// never half of either. The lock is an exclusive `flock(2)` on `FILE.lock`, which the kernel
/// releases when the process ends, however it ends; replace a file only while holding it.
///
/// Neither helper file is ever opened through a link someone planted: the temporary file is
/// created afresh (`O_CREAT | O_EXCL | O_NOFOLLOW`; a regular file left by a writer killed
/// mid-write is removed first, anything else refused), the lock file is opened with
/// `O_NOFOLLOW` and must be a regular file, and both are close-on-exec and opened without
/// blocking, so a FIFO put there is refused instead of waited on.
package enum AtomicFile {
    /// Why a file could not be locked or replaced.
    package struct Failure: Error, Sendable, Hashable {
        /// The file that failed (the temporary one, the lock file, or the file itself).
        package let path: String
        /// `write`, `flush`, `replace`, `open`, `lock`.
        package let operation: String
        /// The system's words (`No space left on device`), or what is there instead of a file.
        package let reason: String
        /// Whether something other than a regular file is in the way (a link, a FIFO, a folder):
        /// the user's to remove, not a failure of the system.
        package let isNotAFile: Bool

        init(path: String, operation: String, reason: String, isNotAFile: Bool = false) {
            self.path = path
            self.operation = operation
            self.reason = reason
            self.isNotAFile = isNotAFile
        }

        /// Something other than a regular file at `path`: `kind` says what.
        static func notAFile(_ path: String, _ operation: String, _ kind: String) -> Failure {
            Failure(
                path: path, operation: operation,
                reason: "it is \(kind), not a regular file this package made; remove it", isNotAFile: true)
        }
    }

    /// The temporary file a replacement of `path` is written to: `FILE.tmp`.
    package static func temporaryPath(for path: String) -> String { path + ".tmp" }

    /// Refuses what ``replace(_:with:owner:)`` would refuse at ``temporaryPath(for:)`` (a link,
    /// a FIFO, a folder), before anything is written; a regular file there, or nothing, passes.
    ///
    /// - Throws: ``Failure`` with ``Failure/isNotAFile`` naming the temporary file.
    package static func requireReplaceable(_ path: String) throws(Failure) {
        let temporary = temporaryPath(for: path)
        var status = stat()
        guard lstat(temporary, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return }
        throw .notAFile(temporary, "write", RegularFile.kind(status.st_mode))
    }

    /// Replaces the file at `path` with `data`, through ``temporaryPath(for:)``; on a failure the
    /// old file is as it was.
    ///
    /// Call it holding ``lock(_:waiting:)`` on the file's lock: two writers at once would share
    /// the temporary file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - data: Its new content.
    ///   - owner: The mode, user and group the new file gets before it takes the old one's place
    ///     (a file served by another program keeps who may read it); `nil`: the process's defaults.
    /// - Throws: ``Failure`` naming the step that failed; the old file is as it was.
    package static func replace(
        _ path: String, with data: Data, owner: (mode: mode_t, user: uid_t, group: gid_t)? = nil
    ) throws(Failure) {
        guard !path.isEmpty else { throw Failure(path: path, operation: "write", reason: "the path is empty") }
        let temporary = temporaryPath(for: path)
        let descriptor = try create(temporary)
        func fail(_ operation: String) -> Failure {
            let failure = Failure(path: temporary, operation: operation, reason: lastError())
            close(descriptor)
            unlink(temporary)
            return failure
        }
        if let owner {
            guard fchmod(descriptor, owner.mode & 0o7777) == 0 else { throw fail("keep the mode of") }
            guard fchown(descriptor, owner.user, owner.group) == 0 else { throw fail("keep the owner of") }
        }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { bytes in
                write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
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
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Creates `temporary` afresh for writing, never through a link.
    ///
    /// A regular file already there is what a writer killed mid-write left: it is removed (only
    /// its name; a hard link's other names keep their content) and the file created again.
    private static func create(_ temporary: String) throws(Failure) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        for attempt in 0..<2 {
            let descriptor = open(temporary, flags, 0o644)
            if descriptor >= 0 { return descriptor }
            guard errno == EEXIST else { break }
            var status = stat()
            guard lstat(temporary, &status) == 0 else { break }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw .notAFile(temporary, "write", RegularFile.kind(status.st_mode))
            }
            if attempt == 0, unlink(temporary) != 0 { break }
        }
        throw Failure(path: temporary, operation: "write", reason: lastError())
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
    /// - Throws: ``Failure`` when the lock file cannot be opened or locked, or is not a regular
    ///   file (a symbolic link, a FIFO…: ``Failure/isNotAFile``).
    package static func lock(_ lockPath: String, waiting: Bool) throws(Failure) -> Lock? {
        guard !lockPath.isEmpty else { throw Failure(path: lockPath, operation: "open", reason: "the path is empty") }
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            if errno == ELOOP || errno == EMLINK, let kind = RegularFile.kind(ofLinkAt: lockPath) {
                throw .notAFile(lockPath, "open", kind)
            }
            throw Failure(path: lockPath, operation: "open", reason: lastError())
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notAFile(lockPath, "open", RegularFile.kind(status.st_mode))
        }
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
