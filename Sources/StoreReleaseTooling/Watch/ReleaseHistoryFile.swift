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

/// The file `watch --history FILE` appends a line to each round: bounded, and safe to kill.
///
/// Each round is one JSON line (``ReleaseHistoryRound``) written with one `write(2)` to the end
/// of the file (`O_APPEND`), under an exclusive `flock(2)` on `FILE.lock`. A watcher killed
/// mid-line leaves every line before it whole; the torn line is skipped (and named) when the
/// history is read, and cut off by the next append, which starts on a line of its own.
///
/// Past ``maximumLines`` the oldest rounds are folded: the file is rewritten (atomically, as a
/// watch's state is) with each run of rounds that showed the same state kept as its first round
/// (and the newest round kept), and then, if still more than ``foldedLines`` remain, the oldest
/// dropped. A step line of the picture loses nothing to the first step; a history of years stays
/// under 10,000 lines.
public struct ReleaseHistoryFile: Sendable, Hashable {
    /// The most lines the file holds.
    public static let maximumLines = 10_000
    /// The most rounds left after a fold, so the next fold is 2,500 rounds away.
    public static let foldedLines = 7_500
    /// The largest history read: 10,000 rounds of every storefront are far smaller.
    public static let maximumSize = 64 << 20

    /// Where the rounds are kept.
    public let path: String

    /// Names the file; nothing is read or written yet.
    public init(path: String) {
        self.path = path
    }

    /// Reads the history.
    ///
    /// - Throws: ``ReleaseHistoryFileError`` naming the file and the line that is wrong, or ``ReleaseHistoryFileError/notAFile(path:reason:)``
    ///   when there is no file.
    public func read() throws(ReleaseHistoryFileError) -> ReleaseHistory {
        guard let data = try contents() else { throw .notAFile(path: path, reason: "no such file") }
        return try ReleaseHistory(parsing: data, path: path)
    }

    /// Appends `round` as one line, folding the oldest rounds first when the file is full.
    ///
    /// - Parameters:
    ///   - round: The round to add.
    ///   - lines: The number of lines the last append returned, or `nil` to count them.
    /// - Returns: The number of lines the file holds now: pass it to the next append.
    /// - Throws: ``ReleaseHistoryFileError``; the lines already written are as they were.
    @discardableResult
    public func append(_ round: ReleaseHistoryRound, lines: Int? = nil) throws(ReleaseHistoryFileError) -> Int {
        guard !path.isEmpty else { throw .notAFile(path: path, reason: "the path is empty: name a file") }
        let line: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            line = try encoder.encode(round) + Data("\n".utf8)
        } catch {
            throw .io(path: path, operation: "encode", reason: "\(error)")
        }
        let lock: AtomicFile.Lock?
        do throws(AtomicFile.Failure) {
            lock = try AtomicFile.lock(path + ".lock", waiting: true)
        } catch {
            throw Self.failure(error)
        }
        defer { withExtendedLifetime(lock) {} }
        var count = lines ?? 0
        if lines == nil { count = try countLines() }
        if count >= Self.maximumLines {
            count = try fold()
        }
        try appendBytes(line)
        return count + 1
    }

    /// The rounds a fold keeps of `rounds`.
    ///
    /// The first of each run showing one state and the newest round; of those at most `limit`,
    /// the newest.
    public static func folded(_ rounds: [ReleaseHistoryRound], limit: Int = foldedLines) -> [ReleaseHistoryRound] {
        var kept: [ReleaseHistoryRound] = []
        for (index, round) in rounds.enumerated() {
            if let last = kept.last, last.showsSameState(as: round), index != rounds.count - 1 { continue }
            kept.append(round)
        }
        return Array(kept.suffix(max(1, limit)))
    }

    /// Rewrites the file with its rounds folded; returns how many lines it holds.
    private func fold() throws(ReleaseHistoryFileError) -> Int {
        let data = try contents() ?? Data()
        let history: ReleaseHistory
        do throws(ReleaseHistoryFileError) {
            history = try ReleaseHistory(parsing: data, path: path)
        } catch .empty {
            return 0
        }
        let kept = Self.folded(history.rounds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = Data()
        do {
            for round in kept { text += try encoder.encode(round) + Data("\n".utf8) }
        } catch {
            throw .io(path: path, operation: "encode", reason: "\(error)")
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.replace(path, with: text)
        } catch {
            throw Self.failure(error)
        }
        return kept.count
    }

    /// Checks, before a watch's first round, that rounds can be appended here.
    ///
    /// The file, if there is one, must be a regular file (not a link, a FIFO or a folder) within
    /// ``maximumSize``, and its folder must exist: what ``append(_:lines:)`` would otherwise find
    /// only after a round had read (and perhaps written to) the stores.
    ///
    /// - Throws: ``ReleaseHistoryFileError/notAFile(path:reason:)`` saying what it is instead.
    public func checkAppendable() throws(ReleaseHistoryFileError) {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw .notAFile(path: path, reason: "it is \(RegularFile.kind(status.st_mode)), not a regular file")
            }
            guard Int(status.st_size) <= Self.maximumSize else {
                throw .notAFile(
                    path: path, reason: "it is \(status.st_size) bytes, more than a history's \(Self.maximumSize)")
            }
            return
        }
        if let folder = RegularFile.missingFolder(of: path) {
            throw .notAFile(path: path, reason: "its folder \(folder) does not exist")
        }
    }

    /// The file's bytes, or `nil` when there is none.
    private func contents() throws(ReleaseHistoryFileError) -> Data? {
        do throws(RegularFile.Problem) {
            return try RegularFile.contents(path, limit: Self.maximumSize, followingLinks: false)
        } catch {
            switch error {
            case .missing: return nil
            case .notAFile, .tooLarge: throw .notAFile(path: path, reason: "\(error)")
            case .system(let reason): throw .io(path: path, operation: "read", reason: reason)
            }
        }
    }

    /// The lines the file holds (a torn last one counts).
    private func countLines() throws(ReleaseHistoryFileError) -> Int {
        guard let data = try contents() else { return 0 }
        let feeds = data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return feeds + (data.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    /// Writes `line` at the end with one `write(2)`.
    ///
    /// A last line without its line feed is the torn end of an interrupted write: cut off first
    /// when it is not a round (so it never ends up between two whole ones), else ended.
    private func appendBytes(_ line: Data) throws(ReleaseHistoryFileError) {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let error = errno
            if error == ELOOP || error == EMLINK, let kind = RegularFile.kind(ofLinkAt: path) {
                throw .notAFile(path: path, reason: "it is \(kind), not a regular file")
            }
            throw .io(path: path, operation: "open", reason: String(cString: strerror(error)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .notAFile(path: path, reason: "it is \(RegularFile.kind(status.st_mode)), not a regular file")
        }
        var bytes = line
        var last: UInt8 = 0
        if status.st_size > 0, pread(descriptor, &last, 1, off_t(status.st_size - 1)) == 1, last != UInt8(ascii: "\n") {
            let data = try contents() ?? Data()
            let start = data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? data.startIndex
            if (try? StrictJSON.decode(ReleaseHistoryRound.self, from: Data(data[start...]))) == nil {
                guard ftruncate(descriptor, off_t(start - data.startIndex)) == 0 else {
                    throw .io(path: path, operation: "cut the torn line of", reason: String(cString: strerror(errno)))
                }
            } else {
                bytes = Data("\n".utf8) + line
            }
        }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let reason = written < 0 ? String(cString: strerror(errno)) : "wrote \(written) of \(bytes.count) bytes"
            throw .io(path: path, operation: "append to", reason: reason)
        }
    }

    private static func failure(_ error: AtomicFile.Failure) -> ReleaseHistoryFileError {
        error.isNotAFile
            ? .notAFile(path: error.path, reason: error.reason)
            : .io(path: error.path, operation: error.operation, reason: error.reason)
    }
}

/// Why a history cannot be read or written.
public enum ReleaseHistoryFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line is not a round this package wrote.
    case notAHistory(path: String, line: Int, reason: String)
    /// The file holds no round (`tornLine` names a torn one it skipped).
    case empty(path: String, tornLine: Int?)
    /// A line is a round of another app than the first.
    case otherApp(path: String, line: Int, reason: String)
    /// It, or its lock file, is not a regular file (a link, a FIFO, a folder), or is missing.
    case notAFile(path: String, reason: String)
    /// Reading, writing or locking it failed.
    case io(path: String, operation: String, reason: String)

    /// One line naming the file (and the line) and what is wrong.
    public var description: String {
        switch self {
        case .notAHistory(let path, let line, let reason):
            "\(path):\(line): not a round of a watch history (\(reason))"
        case .empty(let path, let torn):
            "\(path):\(torn ?? 1): the history holds no round"
                + (torn.map { " (line \($0) is torn, cut short by an interrupted write)" } ?? "")
        case .otherApp(let path, let line, let reason):
            "\(path):\(line): a round of another app: \(reason)"
        case .notAFile(let path, let reason):
            "\(path.debugDescription) cannot be used for a history: \(reason)"
        case .io(let path, let operation, let reason):
            "cannot \(operation) history \(path.debugDescription): \(reason)"
        }
    }
}
