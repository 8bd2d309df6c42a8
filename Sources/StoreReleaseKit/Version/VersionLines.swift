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
    /// - Complexity: O(*n* log *n*) comparisons; App Store versions of up to four components
    ///   below 2³² are sorted as fixed-size keys without allocating per line.
    public static func sorted(_ text: [UInt8], scheme: VersionScheme = .appStore, descending: Bool = false)
        throws(VersionLinesError) -> [UInt8]
    {
        let lines = try text.withUnsafeBufferPointer { (bytes) throws(VersionLinesError) in
            try splitAndParse(bytes, scheme: scheme)
        }
        let order: [Int]
        if var keys = lines.packedKeys {
            PackedVersionKey.radixSort(&keys, descending: descending)
            order = keys.map { Int($0.position) }
        } else {
            let wanted: Order = descending ? .greater : .less
            order = lines.versions.withUnsafeBufferPointer { versions in
                versions.indices.sorted { versions[$0].order(relativeTo: versions[$1]) == wanted }
            }
        }
        let missingNewline = lines.ranges.last.map { $0.line.upperBound == $0.contentEnd } ?? false
        let output = [UInt8](unsafeUninitializedCapacity: text.count + 1) { output, initialized in
            text.withUnsafeBufferPointer { text in
                lines.ranges.withUnsafeBufferPointer { ranges in
                    guard let source = text.baseAddress, let target = output.baseAddress else { return }
                    let sourceEnd = text.count
                    let capacity = output.count
                    // One copy a line: this loop is most of the sort's time. A line of up to 16
                    // bytes (almost every version) is two 8-byte moves where both buffers have
                    // room for them, not a call to memmove.
                    for index in order {
                        let range = ranges[index]
                        let start = range.line.lowerBound
                        let count = range.line.count
                        if count <= 16, start + 16 <= sourceEnd, initialized + 16 <= capacity {
                            let from = UnsafeRawPointer(source + start)
                            let to = UnsafeMutableRawPointer(target + initialized)
                            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                            to.storeBytes(
                                of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8,
                                as: UInt64.self)
                        } else {
                            (target + initialized).initialize(from: source + start, count: count)
                        }
                        initialized += count
                        if range.line.upperBound == range.contentEnd {
                            (target + initialized).initialize(to: UInt8(ascii: "\n"))
                            initialized += 1
                        }
                    }
                }
            }
        }
        assert(output.count == text.count + (missingNewline ? 1 : 0))
        return output
    }

    private struct Parsed {
        /// Each line's bytes with its ending, and where its content ends.
        var ranges: [(line: Range<Int>, contentEnd: Int)] = []
        /// Fixed-size keys while every line so far is a simple App Store version.
        var packedKeys: [PackedVersionKey]? = []
        /// Parsed versions once a line is not (filled from then on, and backfilled).
        var versions: [Version] = []
    }

    private static func splitAndParse(_ bytes: UnsafeBufferPointer<UInt8>, scheme: VersionScheme)
        throws(VersionLinesError) -> Parsed
    {
        var parsed = Parsed()
        parsed.ranges.reserveCapacity(bytes.count / 6)
        parsed.packedKeys?.reserveCapacity(bytes.count / 6)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var contentEnd = end
            if end < bytes.count {
                // "\r\n" ends a line too; a "\r" without "\n" after it is content.
                if contentEnd > start, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
                end += 1
            }
            let number = parsed.ranges.count + 1
            parsed.ranges.append((start..<end, contentEnd))
            let content = UnsafeBufferPointer(rebasing: bytes[start..<contentEnd])
            if parsed.packedKeys != nil, scheme == .appStore, let packed = VersionParser.packedAppStore(content) {
                parsed.packedKeys?.append(
                    PackedVersionKey(
                        high: packed.high, low: packed.low, position: UInt32(truncatingIfNeeded: number - 1)))
            } else {
                if parsed.packedKeys != nil {
                    // The first line off the fast path: parse the earlier lines as versions too.
                    parsed.packedKeys = nil
                    for (earlier, range) in parsed.ranges.dropLast().enumerated() {
                        let earlierContent = UnsafeBufferPointer(
                            rebasing: bytes[range.line.lowerBound..<range.contentEnd])
                        parsed.versions.append(try version(earlierContent, line: earlier + 1, scheme: scheme))
                    }
                }
                parsed.versions.append(try version(content, line: number, scheme: scheme))
            }
            start = end
        }
        return parsed
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
