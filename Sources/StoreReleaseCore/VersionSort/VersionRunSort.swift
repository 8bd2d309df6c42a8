/// Version lines of any size sorted in bounded memory.
///
/// The text is given a part at a time, each part sorted as ``VersionLines/sorted(_:scheme:descending:)`` sorts it and kept as a run in a
/// ``SortedRunStore``, then the runs are merged. The output is byte for byte the in-memory sort's:
/// every line as it was read, equal versions in input order (a tie goes to the earlier run).
///
/// ```swift
/// var sort = VersionRunSort(store: TemporaryRunFile(directory: TemporaryRunFile.defaultDirectory))
/// try sort.add(Array("8.0.10\n1.2\n".utf8))
/// try sort.add(Array("8.0.2\n".utf8))
/// var merged: [UInt8] = []
/// _ = try sort.merge {
///     merged += $0
///     return true
/// }  // 1.2, 8.0.2, 8.0.10, a line each
/// ```
public struct VersionRunSort<Store: SortedRunStore> {
    /// Where the runs are kept.
    public private(set) var store: Store
    /// How each line is parsed.
    public let scheme: VersionScheme
    /// Newest first instead of oldest first.
    public let descending: Bool
    /// How many lines the runs hold.
    public private(set) var lines = 0
    /// How many runs there are.
    public private(set) var runs = 0

    /// A sort that keeps its runs in `store`.
    public init(store: Store, scheme: VersionScheme = .appStore, descending: Bool = false) {
        self.store = store
        self.scheme = scheme
        self.descending = descending
    }

    /// Sorts `part`, the lines after those added before, and keeps it as the next run.
    ///
    /// Every part but the last must end with `\n`.
    ///
    /// - Throws: ``VersionRunSortError/line(_:)`` for the first line that is not a version,
    ///   numbered in the whole text; ``VersionRunSortError/store(_:)`` when the run cannot be kept.
    public mutating func add(_ part: [UInt8]) throws(VersionRunSortError) {
        guard !part.isEmpty else { return }
        var kept: Result<Void, SortedRunStoreError> = .success(())
        do throws(VersionLinesError) {
            _ = try part.withUnsafeBufferPointer { (part) throws(VersionLinesError) in
                try VersionLines.sorted(part, scheme: scheme, descending: descending) { bytes in
                    kept = Result { () throws(SortedRunStoreError) in try store.keep(bytes) }
                    return true
                }
            }
        } catch {
            throw .line(VersionLinesError(line: lines + error.line, reason: error.reason))
        }
        if case .failure(let error) = kept { throw .store(error) }
        lines +=
            part.withUnsafeBufferPointer { bytes in
                bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            } + (part.last == UInt8(ascii: "\n") ? 0 : 1)
        runs += 1
    }

    /// Merges the runs, handing the output to `write` in pieces of about `pieceSize` bytes.
    ///
    /// - Parameters:
    ///   - readSize: How many bytes of each run are read at a time (more for a longer line).
    ///   - pieceSize: How many bytes of output are gathered before `write` is called.
    ///   - write: Takes a piece of output; returns `false` to stop (a reader that went away).
    /// - Returns: Whether every line was written (`false` when `write` stopped it).
    /// - Throws: ``VersionRunSortError/store(_:)`` when a run cannot be read back; what was
    ///   written before is then not the whole output.
    public func merge(
        readSize: Int = 64 << 10, pieceSize: Int = 1 << 20, _ write: (UnsafeRawBufferPointer) -> Bool
    ) throws(VersionRunSortError) -> Bool {
        var readers: [RunReader] = []
        var heap: [Int] = []
        do throws(SortedRunStoreError) {
            for run in 0..<runs {
                var reader = RunReader(run: run, capacity: max(readSize, 16))
                if try reader.advance(store, scheme: scheme) {
                    readers.append(reader)
                    heap.append(readers.count - 1)
                }
            }
            let wanted: Order = descending ? .greater : .less
            /// Whether reader `a`'s line comes out before reader `b`'s.
            func precedes(_ a: Int, _ b: Int) -> Bool {
                let order = readers[a].version.order(relativeTo: readers[b].version)
                return order == wanted || (order == .equal && readers[a].run < readers[b].run)
            }
            func siftDown(_ start: Int) {
                var parent = start
                while true {
                    let left = 2 * parent + 1
                    guard left < heap.count else { return }
                    var child = left
                    if left + 1 < heap.count, precedes(heap[left + 1], heap[left]) { child = left + 1 }
                    guard precedes(heap[child], heap[parent]) else { return }
                    heap.swapAt(child, parent)
                    parent = child
                }
            }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
            var piece: [UInt8] = []
            piece.reserveCapacity(pieceSize)
            while let first = heap.first {
                readers[first].appendLine(to: &piece)
                if piece.count >= pieceSize {
                    guard piece.withUnsafeBytes(write) else { return false }
                    piece.removeAll(keepingCapacity: true)
                }
                if try !readers[first].advance(store, scheme: scheme) {
                    heap[0] = heap[heap.count - 1]
                    heap.removeLast()
                }
                siftDown(0)
            }
            return piece.isEmpty || piece.withUnsafeBytes(write)
        } catch {
            throw .store(error)
        }
    }
}

/// Why ``VersionRunSort`` stopped.
public enum VersionRunSortError: Error, Sendable, Hashable {
    /// A line is not a version; numbered in the whole text.
    case line(VersionLinesError)
    /// A run could not be kept or read back.
    case store(SortedRunStoreError)
}

extension VersionRunSortError: CustomStringConvertible {
    /// The line's problem or the store's.
    public var description: String {
        switch self {
        case .line(let error): error.description
        case .store(let error): error.description
        }
    }
}

/// One run read back a buffer at a time, a line at a time, with that line's version.
private struct RunReader {
    let run: Int
    /// The bytes read and not yet used: `buffer[start..<end]`.
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    /// Where in the run the buffer's next read starts.
    private var offset = 0
    /// The current line, with its `\n`: `buffer[lineStart..<start]`.
    private var lineStart = 0
    /// The current line's version.
    private(set) var version = Version(text: "", scheme: .appStore, storage: .packed(high: 0, low: 0))

    init(run: Int, capacity: Int) {
        self.run = run
        buffer = [UInt8](repeating: 0, count: capacity)
    }

    /// Moves to the next line.
    ///
    /// - Returns: `false` at the run's end.
    mutating func advance<Store: SortedRunStore>(_ store: Store, scheme: VersionScheme)
        throws(SortedRunStoreError) -> Bool
    {
        var newline = nextNewline()
        while newline == nil {
            // Keep the unused bytes, at the front, and read more after them; a line longer than
            // the buffer doubles it.
            let unused = end - start
            if start > 0 {
                buffer.withUnsafeMutableBufferPointer { bytes in
                    guard let base = bytes.baseAddress else { return }
                    base.update(from: base + start, count: unused)
                }
                start = 0
                end = unused
            }
            if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            let filled = end
            let read = try buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SortedRunStoreError) in
                    try store.read(
                        run: run, at: offset, into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
                }
            }.get()
            offset += read
            end += read
            if read == 0 {
                // A run's last line always has its "\n"; bytes without one are not a line.
                guard end == start else {
                    throw SortedRunStoreError(
                        .read, directory: store.location, reason: "a run does not end with a line break")
                }
                return false
            }
            newline = nextNewline()
        }
        guard let newline else { return false }
        lineStart = start
        start = newline + 1
        var contentEnd = newline
        if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
        let parsed = buffer.withUnsafeBufferPointer { bytes in
            VersionLines.sortKey(UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd]), scheme: scheme)
        }
        guard let parsed else {
            throw SortedRunStoreError(
                .read, directory: store.location, reason: "a line read back is not the one written")
        }
        version = parsed
        return true
    }

    /// Appends the current line, with its line ending, to `output`.
    func appendLine(to output: inout [UInt8]) {
        output.append(contentsOf: buffer[lineStart..<start])
    }

    private func nextNewline() -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            var index = start
            while index < end {
                if bytes[index] == UInt8(ascii: "\n") { return index }
                index += 1
            }
            return nil
        }
    }
}
