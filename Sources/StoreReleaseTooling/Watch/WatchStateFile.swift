import Foundation
import StoreReleaseCore
import StoreReleaseModels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file a watcher keeps its last delivered snapshot in.
///
/// It is replaced atomically and held by one watcher at a time.
/// A replacement is written to `FILE.tmp` beside it, flushed to disk (`fsync`), renamed over the
/// file, and the folder flushed too: a watcher killed at any point leaves either the old snapshot
/// or the new one, never a torn file. ``lock()`` takes an exclusive `flock(2)` on `FILE.lock`,
/// which the kernel releases when the process ends, however it ends. (The prompt history's file
/// is kept the same way.)
public struct WatchStateFile: Sendable, Hashable {
    /// The largest state file read: a snapshot of every storefront is far smaller.
    public static let maximumSize = 16 << 20

    /// Where the snapshot is kept.
    public let path: String

    /// Names the file; nothing is read or written yet.
    public init(path: String) {
        self.path = path
    }

    /// Why the state file cannot be used.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// It is not a snapshot this package wrote (or not JSON, or too large); it is left as it is.
        case notASnapshot(path: String, reason: String)
        /// It is a snapshot of another app or track; it is left as it is.
        case otherApp(path: String, reason: String)
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
                    + "(give each app its own --state)"
            case .locked(let path):
                "state file \(path.debugDescription) is in use by another watcher (\(path).lock is locked)"
            case .io(let path, let operation, let reason):
                "cannot \(operation) state file \(path.debugDescription): \(reason)"
            }
        }
    }

    /// The snapshot kept, or `nil` when there is no file yet (the first round).
    ///
    /// - Throws: ``Failure/notASnapshot(path:reason:)`` for a file that is not one.
    public func read() throws(Failure) -> ReleaseSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .io(path: path, operation: "read", reason: Self.lastError()) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, operation: "read", reason: Self.lastError())
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
            if data.count > Self.maximumSize {
                throw .notASnapshot(path: path, reason: "larger than \(Self.maximumSize >> 20) MiB")
            }
        }
        do {
            return try JSONDecoder().decode(ReleaseSnapshot.self, from: data)
        } catch let error as DecodingError {
            throw .notASnapshot(path: path, reason: error.readableDescription)
        } catch {
            throw .notASnapshot(path: path, reason: "not JSON")
        }
    }

    /// Replaces the kept snapshot with `snapshot`, atomically and durably.
    ///
    /// - Throws: ``Failure/io(path:operation:reason:)``; the old file is then as it was.
    public func replace(with snapshot: ReleaseSnapshot) throws(Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(snapshot)
        } catch {
            throw .io(path: path, operation: "encode", reason: "\(error)")
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.replace(path, with: data, through: path + ".tmp")
        } catch {
            throw .io(path: error.path, operation: error.operation, reason: error.reason)
        }
    }

    /// A lock on the state file, held until the value is released (or the process ends).
    public final class Lock: Sendable {
        private let held: AtomicFile.Lock

        fileprivate init(_ held: AtomicFile.Lock) {
            self.held = held
        }
    }

    /// Takes the file's lock (`FILE.lock`) without waiting.
    ///
    /// - Throws: ``Failure/locked(path:)`` when another watcher (in any process) holds it.
    public func lock() throws(Failure) -> Lock {
        let held: AtomicFile.Lock?
        do throws(AtomicFile.Failure) {
            held = try AtomicFile.lock(path + ".lock", waiting: false)
        } catch {
            throw .io(path: error.path, operation: "lock", reason: error.reason)
        }
        guard let held else { throw .locked(path: path) }
        return Lock(held)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// `read(2)`, named apart from ``WatchStateFile/read()``, which it is called from.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
