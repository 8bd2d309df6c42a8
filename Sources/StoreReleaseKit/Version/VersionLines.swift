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
        if scheme == .appStore, text.count < Int(UInt32.max),
            var keys = text.withUnsafeBufferPointer({ packedKeys($0) })
        {
            // Every line is a simple App Store version: sort fixed-size keys whose position is
            // the line's first byte, and copy the lines out in that order.
            PackedVersionKey.radixSort(&keys, descending: descending)
            return text.withUnsafeBufferPointer { text in
                emit(text, count: keys.count) { keys[$0].position }
            }
        }
        let lines = try text.withUnsafeBufferPointer { (bytes) throws(VersionLinesError) in
            try splitAndParse(bytes, scheme: scheme)
        }
        let wanted: Order = descending ? .greater : .less
        let order = lines.versions.withUnsafeBufferPointer { versions in
            versions.indices.sorted { versions[$0].order(relativeTo: versions[$1]) == wanted }
        }
        return text.withUnsafeBufferPointer { text in
            emit(text, count: order.count) { UInt32(truncatingIfNeeded: lines.starts[order[$0]]) }
        }
    }

    /// The lines starting at the given byte offsets, in that order, each with its own line
    /// ending; a last line without one gets `\n`.
    private static func emit(_ text: UnsafeBufferPointer<UInt8>, count: Int, start: (Int) -> UInt32) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: text.count + 1) { output, initialized in
            guard let source = text.baseAddress, let target = output.baseAddress else { return }
            let sourceEnd = text.count
            let capacity = output.count
            for index in 0..<count {
                let lineStart = Int(start(index))
                // The line runs to its "\n" (included) or to the end of the text.
                let newline = firstNewline(source, from: lineStart, to: sourceEnd)
                let lineEnd = newline.map { $0 + 1 } ?? sourceEnd
                let length = lineEnd - lineStart
                // A line of up to 16 bytes (almost every version) is two 8-byte moves where both
                // buffers have room for them, not a call to memmove: this loop is most of the time.
                if length <= 16, lineStart + 16 <= sourceEnd, initialized + 16 <= capacity {
                    let from = UnsafeRawPointer(source + lineStart)
                    let to = UnsafeMutableRawPointer(target + initialized)
                    to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    to.storeBytes(
                        of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                } else {
                    (target + initialized).initialize(from: source + lineStart, count: length)
                }
                initialized += length
                if newline == nil {
                    (target + initialized).initialize(to: UInt8(ascii: "\n"))
                    initialized += 1
                }
            }
        }
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

    /// Fixed-size keys for every line, or `nil` as soon as a line is not a simple App Store
    /// version (the caller then parses them all as versions).
    private static func packedKeys(_ bytes: UnsafeBufferPointer<UInt8>) -> [PackedVersionKey]? {
        var keys: [PackedVersionKey] = []
        keys.reserveCapacity(bytes.count / 6)
        let complete = forEachLine(bytes) { (start, content) throws(Never) in
            guard let packed = VersionParser.packedAppStore(content) else { return false }
            keys.append(
                PackedVersionKey(high: packed.high, low: packed.low, position: UInt32(truncatingIfNeeded: start)))
            return true
        }
        return complete ? keys : nil
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
