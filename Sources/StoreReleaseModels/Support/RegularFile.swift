import Foundation
import StoreReleaseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening a file named by a user without ever blocking on something that is not a file.
///
/// `open(2)` of a FIFO waits for a writer, uninterruptibly for a program that ignores its
/// signals; reading a terminal or a socket waits for input. So a path is opened without blocking
/// (`O_NONBLOCK`, and `O_CLOEXEC` so no child inherits it), checked with `fstat` to be a regular
/// file, and only then read.
package enum RegularFile {
    /// Why a path cannot be read as a file.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing is there.
        case missing
        /// Something other than a regular file is there: `a folder`, `a FIFO (named pipe)`…
        case notAFile(String)
        /// The file is larger than the limit given, in bytes.
        case tooLarge(limit: Int)
        /// The system refused (`Permission denied`).
        case system(String)

        /// `no such file`, `it is a FIFO (named pipe), not a regular file`, the system's words.
        package var description: String {
            switch self {
            case .missing: "no such file"
            case .notAFile(let kind) where kind == "a folder": "it is a folder"
            case .notAFile(let kind): "it is \(kind), not a regular file"
            case .tooLarge(let limit): "it is larger than \(limit >> 20) MiB"
            case .system(let reason): reason
            }
        }
    }

    /// Opens `path` to read.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - followingLinks: `false` refuses a symbolic link itself (a file that is replaced by
    ///     renaming must not be one: the rename would replace the link, not its target).
    /// - Returns: A descriptor, blocking again, the caller's to close.
    /// - Throws: ``Problem`` when nothing is there, something other than a regular file is, or
    ///   the system refuses; never blocks.
    package static func open(_ path: String, followingLinks: Bool = true) throws(Problem) -> Int32 {
        guard !path.isEmpty else { throw .missing }
        let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { throw .missing }
            if error == ELOOP || error == EMLINK, let kind = kind(ofLinkAt: path) { throw .notAFile(kind) }
            throw .system(String(cString: strerror(error)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .system(reason)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notAFile(kind(status.st_mode))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// The file's bytes, or `nil` when there is no file.
    ///
    /// - Throws: ``Problem`` as ``open(_:followingLinks:)`` does, and ``Problem/tooLarge(limit:)``
    ///   for a file larger than `limit` bytes.
    package static func contents(_ path: String, limit: Int, followingLinks: Bool = true) throws(Problem) -> Data? {
        let descriptor: Int32
        do throws(Problem) {
            descriptor = try open(path, followingLinks: followingLinks)
        } catch .missing {
            return nil
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
            if data.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// What a file's type is, in words: `a FIFO (named pipe)`, `a folder`, `a symbolic link`…
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// The folder `path` would be created in, when it is not an existing folder; else `nil`.
    ///
    /// A file written later (a state, a history) fails there only after the work it records was
    /// done: callers check it first.
    package static func missingFolder(of path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return nil }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
            ? nil : folder
    }

    /// `a symbolic link` when `path` itself is one, else `nil`.
    package static func kind(ofLinkAt path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        return kind(status.st_mode)
    }
}

/// `open(2)`, named apart from ``RegularFile/open(_:followingLinks:)``, which it is called from.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}
