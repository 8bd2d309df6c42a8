import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// A history in a JSON file, safe when several processes write it.
///
/// Every update holds an exclusive lock (`flock` on `FILE.lock`) across read, change and write;
/// the write goes to `FILE.tmp` in the same folder, flushed and renamed over the old one, so a
/// reader never sees half a file (the watcher's state file is kept the same way, and neither
/// helper file is opened through a link planted there). The file must be a regular file: a
/// link, a FIFO or a folder at its path is an error, never waited on. A file that is not a history (corrupt, or someone else's) is moved
/// aside to `FILE.corrupt-TIMESTAMP`, never overwritten, the warning handler is told where, and
/// the history starts empty.
public struct FilePromptHistoryStore: PromptHistoryStore {
    /// The history file.
    public let url: URL
    private let warn: @Sendable (String) -> Void

    /// A store in a file.
    ///
    /// - Parameters:
    ///   - url: The file; its folder must exist.
    ///   - warn: Told, in a sentence, when a corrupt or foreign file is moved aside.
    public init(url: URL, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.url = url
        self.warn = warn
    }

    /// Reads the file under its lock; a missing file is an empty history.
    ///
    /// - Throws: ``FilePromptHistoryStoreError`` naming the file when it cannot be locked or read.
    public func load() throws(FilePromptHistoryStoreError) -> PromptHistory {
        try locked { () throws(FilePromptHistoryStoreError) in try read() }
    }

    /// Reads, changes and writes the file under one lock, atomically; returns what was written.
    ///
    /// - Throws: ``FilePromptHistoryStoreError`` naming the file; the file is then as it was.
    @discardableResult
    public func update(_ change: @Sendable (inout PromptHistory) -> Void) throws(FilePromptHistoryStoreError)
        -> PromptHistory
    {
        try locked { () throws(FilePromptHistoryStoreError) in
            var history = try read()
            change(&history)
            try write(history)
            return history
        }
    }

    private func locked<T>(_ body: () throws(FilePromptHistoryStoreError) -> T) throws(FilePromptHistoryStoreError) -> T
    {
        let lockPath = url.path + ".lock"
        let held: AtomicFile.Lock?
        do throws(AtomicFile.Failure) {
            held = try AtomicFile.lock(lockPath, waiting: true)
        } catch {
            let what = error.operation == "open" ? "open the lock file" : "lock"
            throw FilePromptHistoryStoreError(description: "cannot \(what) \(error.path): \(error.reason)")
        }
        defer { withExtendedLifetime(held) {} }
        return try body()
    }

    private func read() throws(FilePromptHistoryStoreError) -> PromptHistory {
        let data: Data
        do throws(RegularFile.Problem) {
            guard let contents = try RegularFile.contents(url.path, limit: 16 << 20, followingLinks: false) else {
                return PromptHistory()
            }
            data = contents
        } catch {
            throw FilePromptHistoryStoreError(description: "cannot read \(url.path): \(error)")
        }
        do {
            return try StrictJSON.decode(PromptHistory.self, from: data, using: .iso8601)
        } catch {
            let aside = url.path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            do {
                try FileManager.default.moveItem(atPath: url.path, toPath: aside)
            } catch {
                throw FilePromptHistoryStoreError(
                    description:
                        "\(url.path) is not a prompt history, and cannot be moved aside: \(error.localizedDescription)")
            }
            let reason = (error as? DecodingError)?.readableDescription ?? "not JSON"
            warn(
                "\(url.path) was not a prompt history (\(reason)); it was moved to \(aside) and the history starts empty"
            )
            return PromptHistory()
        }
    }

    private func write(_ history: PromptHistory) throws(FilePromptHistoryStoreError) {
        let data: Data
        do {
            data = try JSONEncoder.iso8601.encode(history)
        } catch {
            throw FilePromptHistoryStoreError(description: "cannot write \(url.path): \(error.localizedDescription)")
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.replace(url.path, with: data)
        } catch {
            let what = error.operation == "replace" ? "replace" : "write"
            throw FilePromptHistoryStoreError(description: "cannot \(what) \(error.path): \(error.reason)")
        }
    }
}

extension JSONDecoder {
    /// A decoder that reads dates as ISO 8601 strings.
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    /// An encoder that writes dates as ISO 8601 strings and sorts keys.
    static var iso8601: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }
}

/// Why the history file could not be used.
public struct FilePromptHistoryStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public let description: String
}
