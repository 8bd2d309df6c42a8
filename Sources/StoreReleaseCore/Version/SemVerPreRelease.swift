/// The pre-release of a SemVer line, read and ordered in place: how ``VersionLines`` orders
/// pre-releases of one `x.y.z` after its radix sort has put them side by side.
///
/// The order is SemVer 2.0.0 §11, as ``Version`` orders them: identifiers from the left, numeric
/// ones as numbers and below alphanumeric ones, alphanumeric ones byte by byte, and a shorter
/// list of equal identifiers first (`1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta
/// < 1.0.0-beta.2 < 1.0.0-beta.11 < 1.0.0-rc.1`). The text was checked by
/// ``VersionParser/packedSemVerLine(_:from:)``: numeric identifiers have no leading zeros.
enum SemVerPreRelease {
    /// The pre-release of the line at `lineStart`: the bytes after the `-` that ends its core, up
    /// to `+`, `\r\n`, `\n` or the end of the text; empty for a release.
    static func range(in text: UnsafeBufferPointer<UInt8>, lineStart: Int) -> Range<Int> {
        var index = lineStart
        while index < text.count, VersionParser.isDigit(text[index]) || text[index] == UInt8(ascii: ".") {
            index += 1
        }
        guard index < text.count, text[index] == UInt8(ascii: "-") else { return index..<index }
        let start = index + 1
        index = start
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            index += 1
        }
        return start..<index
    }

    /// How the pre-release `lhs` orders against `rhs`, both ranges of `text` from ``range(in:lineStart:)``.
    static func order(_ text: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Order {
        var left = lhs.lowerBound
        var right = rhs.lowerBound
        while left < lhs.upperBound, right < rhs.upperBound {
            let leftEnd = identifierEnd(text, from: left, to: lhs.upperBound)
            let rightEnd = identifierEnd(text, from: right, to: rhs.upperBound)
            let order = identifierOrder(
                text, left..<leftEnd.end, leftEnd.numeric, right..<rightEnd.end, rightEnd.numeric)
            if order != .equal { return order }
            left = leftEnd.end + 1
            right = rightEnd.end + 1
        }
        // One list ran out: the shorter one is first.
        return Order(left < lhs.upperBound ? 1 : 0, right < rhs.upperBound ? 1 : 0)
    }

    /// Where the identifier starting at `start` ends (its `.` or `end`), and whether it is all digits.
    @inline(__always)
    private static func identifierEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        -> (end: Int, numeric: Bool)
    {
        var index = start
        var numeric = true
        while index < end, text[index] != UInt8(ascii: ".") {
            numeric = numeric && VersionParser.isDigit(text[index])
            index += 1
        }
        return (index, numeric)
    }

    @inline(__always)
    private static func identifierOrder(
        _ text: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ lhsNumeric: Bool, _ rhs: Range<Int>,
        _ rhsNumeric: Bool
    ) -> Order {
        switch (lhsNumeric, rhsNumeric) {
        case (true, false): return .less
        case (false, true): return .greater
        case (true, true) where lhs.count != rhs.count:
            // Without leading zeros, the longer number is the larger.
            return Order(lhs.count, rhs.count)
        default:
            // Numbers of one length, and alphanumeric identifiers: byte by byte, a prefix first.
            for (a, b) in zip(lhs, rhs) where text[a] != text[b] { return Order(text[a], text[b]) }
            return Order(lhs.count, rhs.count)
        }
    }
}
