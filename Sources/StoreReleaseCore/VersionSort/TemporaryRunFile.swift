#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sorted runs kept one after another in a temporary file that has no name.
///
/// The file is made in the directory on the first run and unlinked at once (on Linux it never has a name, `O_TMPFILE`),
/// so it goes away when the process ends, however it ends (success, an error, a signal), and no
/// other process can see or open it.
public final class TemporaryRunFile: SortedRunStore {
    /// The directory the file is made in.
    public let directory: String
    /// The open file, once the first run is kept.
    private var descriptor: Int32 = -1
    /// Each run's bytes in the file.
    private var runs: [Range<Int>] = []

    /// A store in `directory`; nothing is made there until the first run is kept.
    public init(directory: String) {
        self.directory = directory
    }

    /// The directory for temporary files: `TMPDIR` when it is set and not empty, else `/tmp`.
    public static var defaultDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// The directory, for messages.
    public var location: String { directory }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends the run to the file.
    public func keep(_ bytes: UnsafeRawBufferPointer) throws(SortedRunStoreError) {
        if descriptor < 0 { descriptor = try makeFile() }
        let start = runs.last?.upperBound ?? 0
        var written = 0
        while written < bytes.count {
            guard let base = bytes.baseAddress else { break }
            let count = pwrite(descriptor, base + written, bytes.count - written, off_t(start + written))
            if count < 0 {
                if errno == EINTR { continue }
                throw SortedRunStoreError(.write, directory: directory, reason: Self.reason(errno))
            }
            written += count
        }
        runs.append(start..<(start + bytes.count))
    }

    /// Reads bytes of a run back from the file.
    public func read(run: Int, at offset: Int, into buffer: UnsafeMutableRawBufferPointer)
        throws(SortedRunStoreError) -> Int
    {
        let range = runs[run]
        let wanted = min(buffer.count, max(0, range.count - offset))
        var done = 0
        while done < wanted, let base = buffer.baseAddress {
            let count = pread(descriptor, base + done, wanted - done, off_t(range.lowerBound + offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw SortedRunStoreError(
                    .read, directory: directory,
                    reason: count < 0 ? Self.reason(errno) : "the file is shorter than written")
            }
            done += count
        }
        return done
    }

    /// Makes the file and takes its name away.
    private func makeFile() throws(SortedRunStoreError) -> Int32 {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            // O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`), which Swift does not import: a file made
            // without a name. File systems without it say so, and get the portable way below.
            let withoutName = open(directory, O_RDWR | O_CLOEXEC | 0o20_000_000 | O_DIRECTORY, 0o600)
            if withoutName >= 0 { return withoutName }
            guard errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL else {
                throw SortedRunStoreError(.create, directory: directory, reason: Self.reason(errno))
            }
        #endif
        var template = Array((directory + "/storerelease-sort-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard file >= 0 else { throw SortedRunStoreError(.create, directory: directory, reason: Self.reason(errno)) }
        // Named only between these two calls.
        _ = template.withUnsafeBufferPointer { $0.baseAddress.map { unlink($0) } }
        return file
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
