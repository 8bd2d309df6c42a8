/// Where a sort that does not fit in memory keeps its sorted runs until it merges them.
///
/// ``TemporaryRunFile`` keeps them in a directory; anything else that can append bytes and read
/// them back will do (a test's store that fails as a full disk does).
public protocol SortedRunStore {
    /// Where the runs are, for messages: a directory.
    var location: String { get }

    /// Keeps `bytes` as the next run; runs are numbered from 0 in the order they are kept.
    mutating func keep(_ bytes: UnsafeRawBufferPointer) throws(SortedRunStoreError)

    /// Reads bytes of run `run` from `offset` into `buffer`.
    ///
    /// - Returns: How many bytes were read: fewer than `buffer.count` only at the run's end.
    func read(run: Int, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(SortedRunStoreError)
        -> Int
}

/// Why a run could not be kept or read back: what was being done, where, and the system's reason.
public struct SortedRunStoreError: Error, Sendable, Hashable {
    /// What failed.
    public enum Operation: Sendable, Hashable {
        /// Making a temporary file.
        case create
        /// Writing a run (a full disk).
        case write
        /// Reading a run back.
        case read
    }

    /// What failed.
    public let operation: Operation
    /// The directory the runs are kept in, as given.
    public let directory: String
    /// The system's reason (`No space left on device`).
    public let reason: String

    /// An error naming the directory and the reason.
    public init(_ operation: Operation, directory: String, reason: String) {
        self.operation = operation
        self.directory = directory
        self.reason = reason
    }
}

extension SortedRunStoreError: CustomStringConvertible {
    /// `cannot write a temporary file in "/tmp": No space left on device`.
    public var description: String {
        let verb =
            switch operation {
            case .create: "create"
            case .write: "write"
            case .read: "read back"
            }
        return "cannot \(verb) a temporary file in \(directory.debugDescription): \(reason)"
    }
}
