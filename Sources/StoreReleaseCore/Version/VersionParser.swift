/// Parses version text (as UTF-8) into the canonical ``Version/Storage``.
///
/// Two paths give the same answer: `packedAppStore` handles the common App Store version (at most
/// four components, each below 2³², no trailing dot) without allocating (`packed` also the
/// common SemVer one, `x.y.z`, and a line at a time, for sorting lines); `parse` handles every
/// input of either scheme, reports the first error, and is the reference the fuzzer checks the
/// fast path against.
enum VersionParser {
    /// Where and why parsing stopped; ``VersionError`` turns it into a character offset.
    struct Failure: Error, Equatable {
        enum Kind: Equatable {
            case empty
            case emptyComponent
            case emptyIdentifier
            case unexpectedCharacter
            case leadingZero
            case wrongComponentCount(Int)
        }

        var kind: Kind
        var utf8Offset: Int
    }

    /// The parsed parts before canonicalisation.
    struct Parts: Equatable {
        var core: [VersionNumber]
        var preRelease: [PreReleaseIdentifier]
    }

    static func storage(of bytes: UnsafeBufferPointer<UInt8>, scheme: VersionScheme) throws(Failure)
        -> Version.Storage
    {
        if scheme == .appStore, let packed = packedAppStore(bytes) {
            return .packed(high: packed.high, low: packed.low)
        }
        return Version.Storage(try parse(bytes, scheme: scheme))
    }

    /// The allocation-free path: an App Store version of one to four components, each below 2³².
    ///
    /// - Returns: The packed words, or `nil` when the input is not of that simple form (it may
    ///   still be valid; `parse` decides).
    @inline(__always)
    static func packedAppStore(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        var position = 0
        return packed(bytes, from: &position, semver: false, line: false)
    }

    /// The simple version (App Store, or with `semver` a SemVer `x.y.z` without pre-release or
    /// build metadata: exactly three components without leading zeros, packed the same way,
    /// since their order is the same) in `bytes[position...]`.
    ///
    /// With `line`, the version ends at the next `\n` (or `\r\n`), and `position` moves past
    /// it; without, at the end of `bytes`.
    ///
    /// - Returns: The packed words, or `nil` when the text is not of that simple form (it may
    ///   still be a valid version; `parse` decides).
    @inline(__always)
    static func packed(_ bytes: UnsafeBufferPointer<UInt8>, from position: inout Int, semver: Bool, line: Bool)
        -> (high: UInt64, low: UInt64)?
    {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var index = 0
        var value: UInt64 = 0
        var digits = 0
        while position < bytes.count {
            let byte = bytes[position]
            position &+= 1
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                if semver, digits == 1, value == 0 { return nil }  // A leading zero.
                value = value &* 10 &+ UInt64(digit)
                digits &+= 1
                if value > UInt64(UInt32.max) { return nil }
            } else if byte == UInt8(ascii: "."), digits > 0, index < (semver ? 2 : 3) {
                store(value, at: index, in: &words)
                index &+= 1
                value = 0
                digits = 0
            } else if line, byte == UInt8(ascii: "\n") {
                break
            } else if line, byte == UInt8(ascii: "\r"), position < bytes.count, bytes[position] == UInt8(ascii: "\n") {
                position &+= 1
                break
            } else {
                return nil
            }
        }
        guard digits > 0, !semver || index == 2 else { return nil }
        store(value, at: index, in: &words)
        return (words.0 << 32 | words.1, words.2 << 32 | words.3)
    }

    /// A SemVer line, `x.y.z` with or without a pre-release and build metadata, each core
    /// component without leading zeros and below 2³², in `bytes[position...]`, up to the next `\n`
    /// (or `\r\n`), which `position` moves past: the sort's fast path for SemVer lines.
    ///
    /// Packed as ``packed(_:from:semver:line:)`` packs `x.y.z`, with the fourth word 1 for a
    /// release and 0 for a pre-release, so that packed words order a pre-release below its release
    /// (pre-releases of one `x.y.z` are then ordered by their text, see
    /// ``SemVerPreRelease``); build metadata is checked and plays no part.
    ///
    /// - Returns: The packed words, or `nil` when the line is not such a version (it may be
    ///   malformed; `parse` says how).
    @inline(__always)
    static func packedSemVerLine(_ bytes: UnsafeBufferPointer<UInt8>, from position: inout Int)
        -> (high: UInt64, low: UInt64)?
    {
        var words: (UInt64, UInt64) = (0, 0)
        var index = 0
        var value: UInt64 = 0
        var digits = 0
        var stop: UInt8 = UInt8(ascii: "\n")  // What ended the core: "\n", "-" or "+".
        while position < bytes.count {
            let byte = bytes[position]
            position &+= 1
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                if digits == 1, value == 0 { return nil }  // A leading zero.
                value = value &* 10 &+ UInt64(digit)
                digits &+= 1
                if value > UInt64(UInt32.max) { return nil }
            } else if byte == UInt8(ascii: "."), digits > 0, index < 2 {
                if index == 0 { words.0 = value } else { words.1 = value }
                index &+= 1
                value = 0
                digits = 0
            } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "\n") {
                stop = byte
                break
            } else if byte == UInt8(ascii: "\r"), position < bytes.count, bytes[position] == UInt8(ascii: "\n") {
                position &+= 1
                break
            } else {
                return nil
            }
        }
        guard digits > 0, index == 2 else { return nil }
        var release: UInt64 = 1
        if stop == UInt8(ascii: "-") {
            release = 0
            guard let next = identifiersToLineEnd(bytes, from: &position, preRelease: true) else { return nil }
            stop = next
        }
        if stop == UInt8(ascii: "+") {
            guard identifiersToLineEnd(bytes, from: &position, preRelease: false) == UInt8(ascii: "\n") else {
                return nil
            }
        }
        return (words.0 << 32 | words.1, value << 32 | release)
    }

    /// Reads dot-separated SemVer identifiers (`[0-9A-Za-z-]+`; in a pre-release, a numeric one
    /// without leading zeros) up to `+` (a pre-release only) or the line's end, moving `position`
    /// past the `+` or the line's `\n` (or `\r\n`).
    ///
    /// - Returns: `+`, or `\n` at the line's end (also at the end of `bytes`); `nil` when the
    ///   identifiers are malformed.
    @inline(__always)
    private static func identifiersToLineEnd(
        _ bytes: UnsafeBufferPointer<UInt8>, from position: inout Int, preRelease: Bool
    ) -> UInt8? {
        var length = 0
        var numeric = true
        var leadingZero = false
        @inline(__always) func identifierEnds() -> Bool {
            length > 0 && !(preRelease && numeric && leadingZero && length > 1)
        }
        while position < bytes.count {
            let byte = bytes[position]
            position &+= 1
            if isDigit(byte) {
                if length == 0 { leadingZero = byte == UInt8(ascii: "0") }
                length &+= 1
            } else if (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "-") {
                numeric = false
                length &+= 1
            } else if byte == UInt8(ascii: ".") {
                guard identifierEnds() else { return nil }
                length = 0
                numeric = true
            } else if byte == UInt8(ascii: "+"), preRelease {
                return identifierEnds() ? byte : nil
            } else if byte == UInt8(ascii: "\n") {
                return identifierEnds() ? byte : nil
            } else if byte == UInt8(ascii: "\r"), position < bytes.count, bytes[position] == UInt8(ascii: "\n") {
                position &+= 1
                return identifierEnds() ? UInt8(ascii: "\n") : nil
            } else {
                return nil
            }
        }
        return identifierEnds() ? UInt8(ascii: "\n") : nil
    }

    @inline(__always)
    private static func store(_ value: UInt64, at index: Int, in words: inout (UInt64, UInt64, UInt64, UInt64)) {
        switch index {
        case 0: words.0 = value
        case 1: words.1 = value
        case 2: words.2 = value
        default: words.3 = value
        }
    }

    /// The reference parser for both schemes.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, scheme: VersionScheme) throws(Failure) -> Parts {
        guard !bytes.isEmpty else { throw Failure(kind: .empty, utf8Offset: 0) }
        let semver = scheme == .semver
        var core: [VersionNumber] = []
        var position = 0

        // The core: digits separated by '.'; SemVer stops at '-' or '+'.
        while true {
            let start = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            if position == start {
                if position == bytes.count || bytes[position] == UInt8(ascii: ".")
                    || (semver && (bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+")))
                {
                    throw Failure(kind: .emptyComponent, utf8Offset: position)
                }
                throw Failure(kind: .unexpectedCharacter, utf8Offset: position)
            }
            if semver, position - start > 1, bytes[start] == UInt8(ascii: "0") {
                throw Failure(kind: .leadingZero, utf8Offset: start)
            }
            core.append(VersionNumber(digits: UnsafeBufferPointer(rebasing: bytes[start..<position])))
            if position == bytes.count { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: ".") {
                position += 1
                continue
            }
            if semver, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") { break }
            throw Failure(kind: .unexpectedCharacter, utf8Offset: position)
        }

        var preRelease: [PreReleaseIdentifier] = []
        if semver {
            guard core.count == 3 else { throw Failure(kind: .wrongComponentCount(core.count), utf8Offset: 0) }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
                position += 1
                for range in try identifiers(bytes, from: &position, stoppingAtPlus: true) {
                    let identifier = UnsafeBufferPointer(rebasing: bytes[range])
                    if identifier.allSatisfy(isDigit) {
                        if identifier.count > 1, identifier[0] == UInt8(ascii: "0") {
                            throw Failure(kind: .leadingZero, utf8Offset: range.lowerBound)
                        }
                        preRelease.append(.numeric(VersionNumber(digits: identifier)))
                    } else {
                        preRelease.append(.alphanumeric(String(decoding: identifier, as: UTF8.self)))
                    }
                }
            }
            if position < bytes.count {  // '+': build metadata, validated and ignored for order.
                position += 1
                _ = try identifiers(bytes, from: &position, stoppingAtPlus: false)
            }
        }
        return Parts(core: core, preRelease: preRelease)
    }

    /// Reads dot-separated SemVer identifiers (`[0-9A-Za-z-]+`) up to the end, or up to `+`.
    private static func identifiers(
        _ bytes: UnsafeBufferPointer<UInt8>, from position: inout Int, stoppingAtPlus: Bool
    ) throws(Failure) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        while true {
            let start = position
            while position < bytes.count, isIdentifierByte(bytes[position]) { position += 1 }
            let atBoundary =
                position == bytes.count || bytes[position] == UInt8(ascii: ".")
                || (stoppingAtPlus && bytes[position] == UInt8(ascii: "+"))
            guard atBoundary else { throw Failure(kind: .unexpectedCharacter, utf8Offset: position) }
            guard position > start else { throw Failure(kind: .emptyIdentifier, utf8Offset: position) }
            ranges.append(start..<position)
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                continue
            }
            return ranges
        }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "-")
    }
}
