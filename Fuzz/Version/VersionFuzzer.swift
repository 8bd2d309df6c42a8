// libFuzzer target for the version parser, comparator and line sorter.
//
// Built by Scripts/fuzz.sh together with the library's sources (so internal parts such as the
// fast parser are in reach), with -sanitize=fuzzer,address. Each input is:
//
//   byte 0      the scheme: even → appStore, odd → semver
//   bytes 1...  two strings separated by the first '|', decoded as UTF-8 (repaired if invalid);
//               the same bytes, raw, are also sorted as version lines
//
// Every property below must hold for every input; a violation traps, and libFuzzer saves the
// input as a crash to turn into a test.

/// The obvious, slow App Store comparison that the fast one must agree with.
func referenceOrder(_ a: String, _ b: String) -> Int {
    func parts(_ s: String) -> [Substring] {
        s.split(separator: ".", omittingEmptySubsequences: false).map { $0.drop(while: { $0 == "0" }) }
    }
    let x = parts(a)
    let y = parts(b)
    for index in 0..<max(x.count, y.count) {
        let p: Substring = index < x.count ? x[index] : ""
        let q: Substring = index < y.count ? y[index] : ""
        if p.count != q.count { return p.count < q.count ? -1 : 1 }
        if p != q { return p < q ? -1 : 1 }
    }
    return 0
}

/// Parses one version and checks the properties it has on its own.
func parsed(_ text: String, _ scheme: VersionScheme) -> Version? {
    do {
        let version = try Version(parsing: text, scheme: scheme)
        check(version.description == text, "description keeps the text: \(text.debugDescription)")
        let again = try Version(parsing: version.description, scheme: scheme)
        check(again == version, "re-parse equals: \(text.debugDescription)")
        check(again.hashValue == version.hashValue, "re-parse hashes equally: \(text.debugDescription)")
        check(!(version < version), "irreflexive: \(text.debugDescription)")
        check(version.change(from: version) == nil, "no change from itself: \(text.debugDescription)")
        if scheme == .appStore {
            var copy = text
            copy.withUTF8 { bytes in
                if let packed = VersionParser.packedAppStore(bytes) {
                    let reference = try? Version.Storage(VersionParser.parse(bytes, scheme: .appStore))
                    let fast = Version.Storage.packed(high: packed.high, low: packed.low)
                    check(reference == fast, "fast path: \(text.debugDescription)")
                }
            }
        } else if let packed = packedSemver(text) {
            // The sort's SemVer fast path: only x.y.z, packed as the App Store version it orders like.
            check(
                !text.contains("-") && !text.contains("+"),
                "SemVer fast path without pre-release: \(text.debugDescription)")
            check(
                packedAppStore(text).map { $0 == packed } == true,
                "SemVer fast path packs x.y.z: \(text.debugDescription)")
        }
        return version
    } catch {
        check(error.input == text, "the error names the input")
        check(error.description.hasPrefix(text.debugDescription + ": "), "the message quotes the input")
        if scheme == .appStore { check(Version(text) == nil, "LosslessStringConvertible agrees") }
        if scheme == .semver { check(packedSemver(text) == nil, "no SemVer fast path for an invalid version") }
        return nil
    }
}

/// The simple-version parser's words for the whole text, as SemVer or as an App Store version.
func packedSemver(_ text: String) -> (high: UInt64, low: UInt64)? { packed(text, semver: true) }
func packedAppStore(_ text: String) -> (high: UInt64, low: UInt64)? { packed(text, semver: false) }
func packed(_ text: String, semver: Bool) -> (high: UInt64, low: UInt64)? {
    var copy = text
    return copy.withUTF8 { bytes in
        var position = 0
        return VersionParser.packed(bytes, from: &position, semver: semver, line: false)
    }
}

/// Checks two versions against each other and, for App Store versions, against the reference.
func checkPair(_ textA: String, _ textB: String, _ scheme: VersionScheme) {
    guard let a = parsed(textA, scheme), let b = parsed(textB, scheme) else { return }
    let less: Bool = a < b
    let equal: Bool = a == b
    let greater: Bool = b < a
    check([less, equal, greater].filter { $0 }.count == 1, "exactly one of <, ==, > for \(textA) and \(textB)")
    check(less == (b > a), "< and > agree")
    if equal { check(a.hashValue == b.hashValue, "equal versions hash equally") }
    let forward: VersionChange? = a.change(from: b)
    let backward: VersionChange? = b.change(from: a)
    check((forward == nil) == equal, "change(from:) is nil exactly when equal")
    check(forward == backward, "change(from:) is symmetric")
    if scheme == .appStore {
        let expected: Int = referenceOrder(textA, textB)
        check(less == (expected < 0), "< agrees with the reference")
        check(equal == (expected == 0), "== agrees with the reference")
    }
}

/// The lines of a newline-terminated text, without their `\n` or `\r\n`.
func lines(_ text: [UInt8]) -> [[UInt8]] {
    let newline = UInt8(ascii: "\n")
    var result: [[UInt8]] = []
    for line in text.split(separator: newline, omittingEmptySubsequences: false).dropLast() {
        var content = Array(line)
        if content.last == UInt8(ascii: "\r") { content.removeLast() }
        result.append(content)
    }
    return result
}

/// Checks that sorting the bytes as lines keeps every line and puts them in version order.
func checkLines(_ bytes: [UInt8], _ scheme: VersionScheme) {
    let newline = UInt8(ascii: "\n")
    do {
        let sorted = try VersionLines.sorted(bytes, scheme: scheme)
        let missingNewline = bytes.last.map { $0 != newline } ?? false
        check(sorted.count == bytes.count + (missingNewline ? 1 : 0), "sorted lines keep every byte")
        var terminated = bytes
        if missingNewline { terminated.append(newline) }
        let output = lines(sorted)
        let byBytes: ([UInt8], [UInt8]) -> Bool = { $0.lexicographicallyPrecedes($1) }
        check(output.sorted(by: byBytes) == lines(terminated).sorted(by: byBytes), "the input's lines, reordered")
        var previous: Version?
        for line in output {
            let version = try? Version(parsing: String(decoding: line, as: UTF8.self), scheme: scheme)
            check(version != nil, "every output line is a version")
            if let previous, let version { check(previous <= version, "the output is in version order") }
            previous = version
        }
    } catch {
        check(error.line >= 1, "a line number counts from 1")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVersion(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let scheme: VersionScheme = data[0] & 1 == 0 ? .appStore : .semver
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let separator = bytes.firstIndex(of: UInt8(ascii: "|")) ?? bytes.endIndex
    let textA = String(decoding: bytes[..<separator], as: UTF8.self)
    let textB = separator < bytes.endIndex ? String(decoding: bytes[(separator + 1)...], as: UTF8.self) : ""
    checkPair(textA, textB, scheme)
    checkLines(bytes, scheme)
    return 0
}
