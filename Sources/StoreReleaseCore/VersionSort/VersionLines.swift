internal import CPrefetch

/// Text with one version a line, as release tooling keeps it: sorted without losing a byte.
///
/// ```swift
/// let input = Array("8.0.10\n8.0.2\n1.2\n".utf8)
/// let output = try VersionLines.sorted(input)
/// print(String(decoding: output, as: UTF8.self))  // 1.2, 8.0.2, 8.0.10, a line each
/// ```
public enum VersionLines {
    /// Sorts lines of versions, oldest first (newest first when `descending`).
    ///
    /// Each line comes out exactly as it went in, with its own line ending (`\n` or `\r\n`); a
    /// last line without one gets `\n`. The sort is stable in both directions: equal versions
    /// (`1.2`, `1.2.0`) keep their input order.
    ///
    /// - Parameters:
    ///   - text: The lines, as UTF-8.
    ///   - scheme: How to parse each line; ``VersionScheme/appStore`` by default.
    ///   - descending: Newest first instead of oldest first.
    /// - Returns: The sorted lines, as UTF-8.
    /// - Throws: ``VersionLinesError`` for the first line that is empty, not UTF-8, or not a
    ///   version.
    /// - Complexity: O(*n* log *n*) comparisons; when every line is a simple version (App Store
    ///   versions of up to four components, SemVer `x.y.z` with or without pre-release and build
    ///   metadata, each component below 2³²) O(*n*): a radix sort of fixed-size keys, the lines
    ///   read on every core and written by two, and then only the pre-releases of one `x.y.z`
    ///   compared with each other.
    public static func sorted(_ text: [UInt8], scheme: VersionScheme = .appStore, descending: Bool = false)
        throws(VersionLinesError) -> [UInt8]
    {
        try text.withUnsafeBufferPointer { (text) throws(VersionLinesError) in
            try sorted(text, scheme: scheme, descending: descending, reusingMemory: false) { count, _, fill in
                array(count: count, fill)
            }
        }
    }

    /// ``sorted(_:scheme:descending:)``'s output handed to `write` in one piece instead of
    /// returned as an array: where there is room, written into the sort's own memory that is
    /// free by then (the keys' other buffer), so that no fresh memory is touched for it.
    ///
    /// - Returns: What `write` returned.
    package static func sorted(
        _ text: UnsafeBufferPointer<UInt8>, scheme: VersionScheme = .appStore, descending: Bool = false,
        into write: (UnsafeRawBufferPointer) -> Bool
    ) throws(VersionLinesError) -> Bool {
        try sorted(text, scheme: scheme, descending: descending, reusingMemory: true) { count, spare, fill in
            if let spare, spare.count >= count {
                let written = fill(UnsafeMutableBufferPointer(rebasing: spare[..<count]))
                return write(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: spare[..<written])))
            }
            if let spare { PageMemory.giveBack(UnsafeMutableRawBufferPointer(spare)) }
            return array(count: count, fill).withUnsafeBytes(write)
        }
    }

    /// A fresh array of `count` bytes (on large pages where the system has them), filled by
    /// `fill`, which returns how many it wrote.
    private static func array(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            PageMemory.preferLargePages(UnsafeMutableRawBufferPointer(output))
            initialized = fill(output)
        }
    }

    /// What makes the output of a sort: called once with how many bytes the sorted lines take,
    /// the sort's memory that is free by then when `reusingMemory` (else `nil`: it has been
    /// given back), and `fill`, which writes the lines into a buffer of that many bytes and
    /// returns how many it wrote.
    private typealias Output<Result> = (
        _ count: Int, _ spare: UnsafeMutableBufferPointer<UInt8>?, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Int
    ) -> Result

    /// The sort itself, its output made by `output`.
    private static func sorted<Result>(
        _ text: UnsafeBufferPointer<UInt8>, scheme: VersionScheme, descending: Bool, reusingMemory: Bool,
        output: Output<Result>
    ) throws(VersionLinesError) -> Result {
        if text.count < Int(UInt32.max),
            let result = sortedSimple(
                text, scheme: scheme, descending: descending, reusingMemory: reusingMemory, output: output)
        {
            return result
        }
        let lines = try splitAndParse(text, scheme: scheme)
        let wanted: Order = descending ? .greater : .less
        let order = lines.versions.withUnsafeBufferPointer { versions in
            versions.indices.sorted { versions[$0].order(relativeTo: versions[$1]) == wanted }
        }
        return output(outputSize(text), nil) {
            emit(text, count: order.count, start: { lines.starts[order[$0]] }, into: $0)
        }
    }

    /// How many bytes the sorted lines of `text` take: its own, and a `\n` for a last line without one.
    private static func outputSize(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        text.count + (text.last.map { $0 != UInt8(ascii: "\n") } ?? false ? 1 : 0)
    }

    /// Writes the lines starting at the given byte offsets, in that order, each with its own
    /// line ending (a last line without one gets `\n`), into `output`, which is exactly as large
    /// as ``outputSize(_:)`` says; returns how many bytes it wrote.
    ///
    /// On a large text two cores write at once: the first half of the lines forward from the
    /// start of `output`, the second half backward from its end. Every line is written once,
    /// so the halves meet exactly.
    private static func emit(
        _ text: UnsafeBufferPointer<UInt8>, count: Int, start: (Int) -> Int,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let split = ParallelParts.count(for: count, minimum: 1 << 16) > 1 ? count / 2 : count
        let written = ParallelParts.map(split < count ? 2 : 1) { part in
            part == 0
                ? emitForward(text, lines: 0..<split, start: start, into: output)
                : emitBackward(text, lines: split..<count, start: start, into: output)
        }
        return written.reduce(0, +)
    }

    /// How many lines at the end of a half are copied byte for byte: a 16-byte store spills up to
    /// 15 bytes past its line, which the next lines of the same half cover only when at least
    /// eight more (of two bytes or more each) follow; past that it could reach the other half.
    private static let exactLinesAtTheMeeting = 8

    /// Writes the lines `lines` (indices for `start`) from the start of `output`, forward, and
    /// returns how many bytes it wrote.
    private static func emitForward(
        _ text: UnsafeBufferPointer<UInt8>, lines: Range<Int>, start: (Int) -> Int,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        guard let source = text.baseAddress, let target = output.baseAddress else { return 0 }
        let wideLines = lines.lowerBound..<max(lines.lowerBound, lines.upperBound - exactLinesAtTheMeeting)
        var initialized = 0
        for index in lines {
            let lineStart = start(index)
            // Lines are read in sorted order, from all over the input: ask for the one sixteen
            // ahead now, so that it has arrived when its turn comes.
            if index + 16 < lines.upperBound { cprefetch_read(source + start(index + 16)) }
            // A line of up to 16 bytes with its "\n" (almost every version) is found and
            // copied with two 8-byte loads and stores and no branch that depends on the text.
            if wideLines.contains(index), lineStart + 16 <= text.count, initialized + 16 <= output.count {
                let from = UnsafeRawPointer(source + lineStart)
                let first = from.loadUnaligned(as: UInt64.self)
                let second = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let length = lengthThroughNewline(first, second)
                if length <= 16 {
                    let to = UnsafeMutableRawPointer(target + initialized)
                    to.storeBytes(of: first, as: UInt64.self)
                    to.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
                    initialized += length
                    continue
                }
            }
            let length = lineLength(text, at: lineStart)
            copyLine(text, at: lineStart, length: length, to: target + initialized)
            initialized += length
        }
        return initialized
    }

    /// Writes the lines `lines` (indices for `start`) so that the last ends at the end of
    /// `output`, backward, and returns how many bytes it wrote.
    private static func emitBackward(
        _ text: UnsafeBufferPointer<UInt8>, lines: Range<Int>, start: (Int) -> Int,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        guard let source = text.baseAddress, let target = output.baseAddress else { return 0 }
        let wideLines = min(lines.upperBound, lines.lowerBound + exactLinesAtTheMeeting)..<lines.upperBound
        var end = output.count
        for index in lines.reversed() {
            let lineStart = start(index)
            if index - 16 >= lines.lowerBound { cprefetch_read(source + start(index - 16)) }
            if wideLines.contains(index), lineStart + 16 <= text.count {
                let from = UnsafeRawPointer(source + lineStart)
                let length = lengthThroughNewline(
                    from.loadUnaligned(as: UInt64.self), from.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                // The 16 bytes that end where the line ends, stored where it is to end: the bytes
                // before the line land where the lines before it go, and are written over by them.
                if length <= 16, lineStart + length >= 16, end >= 16 {
                    let tail = from + length - 16
                    let to = UnsafeMutableRawPointer(target + end - 16)
                    to.storeBytes(of: tail.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    to.storeBytes(
                        of: tail.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                    end -= length
                    continue
                }
            }
            let length = lineLength(text, at: lineStart)
            end -= length
            copyLine(text, at: lineStart, length: length, to: target + end)
        }
        return output.count - end
    }

    /// How many bytes the line at `lineStart` takes when written: to its `\n`, included, or to
    /// the end of the text and a `\n` added.
    @inline(__always)
    private static func lineLength(_ text: UnsafeBufferPointer<UInt8>, at lineStart: Int) -> Int {
        guard let source = text.baseAddress else { return 0 }
        return (firstNewline(source, from: lineStart, to: text.count) ?? text.count) + 1 - lineStart
    }

    /// Copies the line at `lineStart`, `length` bytes long as ``lineLength(_:at:)`` says, byte
    /// for byte to `target`; a last line without `\n` gets one.
    @inline(__always)
    private static func copyLine(
        _ text: UnsafeBufferPointer<UInt8>, at lineStart: Int, length: Int, to target: UnsafeMutablePointer<UInt8>
    ) {
        guard let source = text.baseAddress else { return }
        let available = min(length, text.count - lineStart)
        target.initialize(from: source + lineStart, count: available)
        if available < length { (target + available).initialize(to: UInt8(ascii: "\n")) }
    }

    /// How many of the 16 bytes in `first` and `second` (little-endian, as loaded) come before
    /// and with the first `\n`; 17 when there is none.
    @inline(__always)
    private static func lengthThroughNewline(_ first: UInt64, _ second: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte becomes 0x80 where it was "\n" (exactly for the lowest one; bytes above it may
        // also be marked, and are never looked at).
        @inline(__always) func newlines(_ word: UInt64) -> UInt64 {
            let zeroWhereNewline = word ^ (ones &* 0x0A)
            return (zeroWhereNewline &- ones) & ~zeroWhereNewline & (ones &* 0x80)
        }
        let inFirst = newlines(first).trailingZeroBitCount >> 3  // 8 when the first word has none.
        let inSecond = newlines(second).trailingZeroBitCount >> 3
        // Without a branch: the second word counts only when the first has no "\n".
        return inFirst + 1 + (inSecond & (0 &- (inFirst >> 3)))
    }

    /// The offset of the first `\n` in `source[from..<to]`, if any.
    @inline(__always)
    private static func firstNewline(_ source: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var index = from
        while index < to {
            if source[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }

    /// The lines sorted by fixed-size keys, or `nil` as soon as a line is not a simple version
    /// of the scheme (``SimpleVersionLines``), or the versions need more than 128 bits with the
    /// positions; the caller then parses them all as versions.
    ///
    /// A key's position is its line's first byte. Versions that fit in 64 bits with the position
    /// (real release histories do) are sorted as 64-bit keys, others as 128-bit ones
    /// (``CompactVersionKeys``).
    private static func sortedSimple<Result>(
        _ text: UnsafeBufferPointer<UInt8>, scheme: VersionScheme, descending: Bool, reusingMemory: Bool,
        output: Output<Result>
    ) -> Result? {
        SimpleVersionLines.withSlots(for: text.count) { packed, slots, lengths in
            guard let lines = SimpleVersionLines(text, scheme: scheme, into: packed, lengths: lengths) else {
                return nil
            }
            let sort = SimpleSort(
                text: text, lines: lines, base: packed, size: 18 * slots, descending: descending,
                reusingMemory: reusingMemory)
            if let layout = CompactVersionKeys<UInt64>(
                high: lines.high, low: lines.low, positionLimit: text.count, descending: descending)
            {
                let keys = sort.keys(layout, lengths: lengths)
                // The radix sort's scratch: the last part's slots, already touched and read by now,
                // when they lie past the keys and have room (else the memory after the keys).
                var scratchStart = max(8 * keys.count, 16 * lines.lastPartFirstSlot)
                if scratchStart + 8 * keys.count > sort.size { scratchStart = 8 * keys.count }
                let scratch = UnsafeMutableBufferPointer(
                    start: (packed + scratchStart).bindMemory(to: UInt64.self, capacity: keys.count), count: keys.count)
                sort.giveBack(around: [UnsafeMutableRawBufferPointer(keys), UnsafeMutableRawBufferPointer(scratch)])
                return sort.sorted(keys, scratch: scratch, layout: layout, output: output)
            }
            guard
                let layout = CompactVersionKeys<WideVersionKey>(
                    high: lines.high, low: lines.low, positionLimit: text.count, descending: descending)
            else { return nil }
            let keys = sort.keys(layout, lengths: lengths)
            sort.giveBack(around: [UnsafeMutableRawBufferPointer(keys)])
            let scratch = UnsafeMutableBufferPointer<WideVersionKey>.allocate(capacity: keys.count)
            PageMemory.preferLargePages(UnsafeMutableRawBufferPointer(scratch))
            defer { scratch.deallocate() }
            return sort.sorted(keys, scratch: scratch, layout: layout, output: output)
        }
    }

    /// The fast path's steps after the lines are read, in the memory they were read into.
    private struct SimpleSort {
        let text: UnsafeBufferPointer<UInt8>
        let lines: SimpleVersionLines
        /// Where the slots and the lengths are (``SimpleVersionLines/withSlots(for:_:)``), and
        /// how many bytes they take together: the memory the sort works in.
        let base: UnsafeMutableRawPointer
        let size: Int
        let descending: Bool
        let reusingMemory: Bool

        /// Every line's key, in line order, from the start of the memory (``base``).
        func keys<Key: CompactVersionKey>(_ layout: CompactVersionKeys<Key>, lengths: UnsafePointer<UInt16>)
            -> UnsafeMutableBufferPointer<Key>
        {
            lines.keys(in: base, lengths: lengths) { layout.key(high: $0, low: $1, position: $2) }
        }

        /// Gives back all of the memory but `kept` (buffers in it, in order), so that what the
        /// slots and lengths took is not held while the keys are sorted and the lines written.
        func giveBack(around kept: [UnsafeMutableRawBufferPointer]) {
            var start = 0
            for buffer in kept {
                let offset = buffer.baseAddress.map { $0 - base } ?? start
                PageMemory.giveBack(UnsafeMutableRawBufferPointer(start: base + start, count: max(0, offset - start)))
                start = max(start, offset + buffer.count)
            }
            PageMemory.giveBack(UnsafeMutableRawBufferPointer(start: base + start, count: max(0, size - start)))
        }

        /// The lines sorted by their keys (`scratch` as many keys, for the radix sort). Whichever
        /// of the two does not end up holding them is free for the output when reusing memory,
        /// given back before the lines are written otherwise.
        func sorted<Key: CompactVersionKey, Result>(
            _ keys: UnsafeMutableBufferPointer<Key>, scratch: UnsafeMutableBufferPointer<Key>,
            layout: CompactVersionKeys<Key>, output: Output<Result>
        ) -> Result {
            let sorted = layout.sort(keys, scratch: scratch)
            let other = UnsafeMutableRawBufferPointer(sorted.baseAddress == keys.baseAddress ? scratch : keys)
            let spare = reusingMemory ? self.spare(sorted: UnsafeMutableRawBufferPointer(sorted), other: other) : nil
            if !reusingMemory { PageMemory.giveBack(other) }
            if lines.preReleases > 0 { orderPreReleases(sorted, layout: layout, text, descending: descending) }
            return output(outputSize(text), spare) { output in
                emit(text, count: sorted.count, start: { layout.position(sorted[$0]) }, into: output)
            }
        }

        /// The memory free for the output once the keys are sorted: from the start of the other
        /// buffer, touched already, to the sorted keys or the end of the memory; the memory
        /// around the sorted keys when the other buffer is not in it.
        private func spare(sorted: UnsafeMutableRawBufferPointer, other: UnsafeMutableRawBufferPointer)
            -> UnsafeMutableBufferPointer<UInt8>
        {
            func offset(_ buffer: UnsafeMutableRawBufferPointer) -> Int? {
                guard let address = buffer.baseAddress, address >= base, address < base + size else { return nil }
                return address - base
            }
            let range: Range<Int>
            switch (offset(other), offset(sorted)) {
            case (let start?, let end?) where start < end: range = start..<end
            case (let start?, _): range = start..<size
            case (nil, let start?): range = min(start + sorted.count, size)..<size
            case (nil, nil): range = 0..<size
            }
            return UnsafeMutableBufferPointer(
                start: (base + range.lowerBound).bindMemory(to: UInt8.self, capacity: range.count), count: range.count)
        }
    }

    /// Orders each stretch of SemVer pre-releases of one `x.y.z`, which the radix sort has left
    /// side by side in input order, by their pre-release (``SemVerPreRelease``), equal ones in
    /// input order.
    ///
    /// - Complexity: O(*k* log *k*) comparisons for a stretch of *k* keys; real histories have a
    ///   few pre-releases a version.
    private static func orderPreReleases<Key: CompactVersionKey>(
        _ keys: UnsafeMutableBufferPointer<Key>, layout: CompactVersionKeys<Key>, _ text: UnsafeBufferPointer<UInt8>,
        descending: Bool
    ) {
        let wanted: Order = descending ? .greater : .less
        var stretch: [(preRelease: Range<Int>, index: Int)] = []
        var sorted: [Key] = []
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count, layout.sameVersion(keys[start], keys[end]) { end += 1 }
            defer { start = end }
            // Equal keys are all releases or all pre-releases (the packed words say which).
            guard end - start > 1,
                !SemVerPreRelease.range(in: text, lineStart: layout.position(keys[start])).isEmpty
            else { continue }
            stretch.removeAll(keepingCapacity: true)
            for index in start..<end {
                stretch.append((SemVerPreRelease.range(in: text, lineStart: layout.position(keys[index])), index))
            }
            stretch.sort { lhs, rhs in
                let order = SemVerPreRelease.order(text, lhs.preRelease, rhs.preRelease)
                return order == .equal ? lhs.index < rhs.index : order == wanted
            }
            sorted.removeAll(keepingCapacity: true)
            for item in stretch { sorted.append(keys[item.index]) }
            for (offset, key) in sorted.enumerated() { keys[start + offset] = key }
        }
    }

    /// Calls `body` with each line's first byte offset and its content (without `\n` or
    /// `\r\n`; a `\r` without `\n` after it is content), until it returns `false`.
    ///
    /// - Returns: Whether every line was visited.
    @inline(__always)
    private static func forEachLine<Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, UnsafeBufferPointer<UInt8>) throws(Failure) -> Bool
    ) throws(Failure) -> Bool {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var contentEnd = end
            if end < bytes.count {
                if contentEnd > start, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
                end += 1
            }
            guard try body(start, UnsafeBufferPointer(rebasing: bytes[start..<contentEnd])) else { return false }
            start = end
        }
        return true
    }

    private struct Parsed {
        /// Where each line starts.
        var starts: [Int] = []
        /// Each line's version.
        var versions: [Version] = []
    }

    private static func splitAndParse(_ bytes: UnsafeBufferPointer<UInt8>, scheme: VersionScheme)
        throws(VersionLinesError) -> Parsed
    {
        var parsed = Parsed()
        _ = try forEachLine(bytes) { (start, content) throws(VersionLinesError) in
            parsed.starts.append(start)
            parsed.versions.append(try version(content, line: parsed.starts.count, scheme: scheme))
            return true
        }
        return parsed
    }

    /// A line's version for ordering only (its text is not kept), or `nil` when it is not one.
    static func sortKey(_ content: UnsafeBufferPointer<UInt8>, scheme: VersionScheme) -> Version? {
        var position = 0
        if let packed = VersionParser.packed(content, from: &position, semver: scheme == .semver, line: false) {
            return Version(text: "", scheme: scheme, storage: .packed(high: packed.high, low: packed.low))
        }
        return try? version(content, line: 0, scheme: scheme)
    }

    private static func version(_ content: UnsafeBufferPointer<UInt8>, line: Int, scheme: VersionScheme)
        throws(VersionLinesError) -> Version
    {
        guard !content.isEmpty else { throw VersionLinesError(line: line, reason: .emptyLine) }
        guard let text = String(validating: content, as: UTF8.self) else {
            throw VersionLinesError(line: line, reason: .notUTF8)
        }
        do {
            return try Version(parsing: text, scheme: scheme)
        } catch {
            throw VersionLinesError(line: line, reason: .invalidVersion(error))
        }
    }
}

/// Why a text of version lines could not be sorted: the line (numbered from 1) and what is wrong.
public struct VersionLinesError: Error, Sendable, Hashable {
    /// What is wrong with the line.
    public enum Reason: Sendable, Hashable {
        /// The line is empty; every line must be a version.
        case emptyLine
        /// The line's bytes are not valid UTF-8.
        case notUTF8
        /// The line is not a version of the scheme.
        case invalidVersion(VersionError)
    }

    /// The line's number, counting from 1.
    public let line: Int
    /// What is wrong with it.
    public let reason: Reason
}

extension VersionLinesError: CustomStringConvertible {
    /// `line 3: "1..2": empty component at offset 2`.
    public var description: String {
        switch reason {
        case .emptyLine: "line \(line): empty line (every line must be a version)"
        case .notUTF8: "line \(line): not valid UTF-8"
        case .invalidVersion(let error): "line \(line): \(error)"
        }
    }
}
