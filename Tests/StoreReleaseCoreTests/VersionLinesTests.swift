import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore

@Suite struct VersionLinesTests {
    /// The sorted text, as returned; handed over instead (as `storerelease sort` has it, written
    /// into the sort's own memory where there is room), it must be the same bytes.
    func sorted(_ text: String, scheme: VersionScheme = .appStore, descending: Bool = false) throws -> String {
        let bytes = Array(text.utf8)
        let returned = try VersionLines.sorted(bytes, scheme: scheme, descending: descending)
        var handed: [UInt8] = []
        let taken = try bytes.withUnsafeBufferPointer { (bytes) throws(VersionLinesError) in
            try VersionLines.sorted(bytes, scheme: scheme, descending: descending) {
                handed = Array($0)
                return true
            }
        }
        #expect(taken && handed == returned, "handed over: \(handed.count) bytes, returned: \(returned.count)")
        return String(decoding: returned, as: UTF8.self)
    }

    @Test func sortsByVersionKeepingEachLineAsRead() throws {
        #expect(try sorted("8.0.10\n8.0.2\n1.2\n") == "1.2\n8.0.2\n8.0.10\n")
        #expect(try sorted("8.0.10\r\n8.0.2\n01.2") == "01.2\n8.0.2\n8.0.10\r\n")
        #expect(try sorted("") == "")
        #expect(try sorted("3") == "3\n")
    }

    @Test func isStableForEqualVersionsInBothDirections() throws {
        #expect(try sorted("1.2.0\n2\n1.2\n01.2\n1.2.0.0\n") == "1.2.0\n1.2\n01.2\n1.2.0.0\n2\n")
        #expect(try sorted("1.2.0\n2\n1.2\n01.2\n1.2.0.0\n", descending: true) == "2\n1.2.0\n1.2\n01.2\n1.2.0.0\n")
    }

    @Test func sortsLinesOffTheFastPathTheSameWay() throws {
        // A large component sends the whole input to the general path, lines before it included.
        let input = "2.0\n1.9.9\n99999999999999999999999\n1.2.3.4.5\n1.2\n1.2.0\n"
        #expect(try sorted(input) == "1.2\n1.2.0\n1.2.3.4.5\n1.9.9\n2.0\n99999999999999999999999\n")
        #expect(try sorted(input, descending: true) == "99999999999999999999999\n2.0\n1.9.9\n1.2.3.4.5\n1.2\n1.2.0\n")
        let semver = "1.0.0\n1.0.0-rc.1\n1.0.0-alpha\n1.0.0+b\n0.9.0\n"
        #expect(try sorted(semver, scheme: .semver) == "0.9.0\n1.0.0-alpha\n1.0.0-rc.1\n1.0.0\n1.0.0+b\n")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithSortingParsedVersions(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let lines = (0..<3000).map { _ in
            (0..<Int.random(in: 1...4, using: &random)).map { _ in String(Int.random(in: 0..<4, using: &random)) }
                .joined(separator: ".")
        }
        let versions = try lines.map { try Version(parsing: $0) }
        for descending in [false, true] {
            // Array.sort is documented stable: the expected answer, equal versions in input order.
            let expected = versions.indices.sorted {
                descending ? versions[$0] > versions[$1] : versions[$0] < versions[$1]
            }
            .map { lines[$0] + "\n" }.joined()
            #expect(try sorted(lines.joined(separator: "\n"), descending: descending) == expected)
        }
    }

    /// Lines of one to four components below `bound` (three for SemVer), some written with
    /// leading zeros and some ending in "\r\n", sorted here and by a stable sort of parsed
    /// versions.
    ///
    /// With `preReleases`, SemVer lines also get pre-releases (a third of them) and build
    /// metadata (a tenth), from identifiers where every rule of SemVer's order decides: numbers
    /// against numbers of other lengths, numbers against words, words against their prefixes,
    /// shorter lists against longer ones.
    func expectAgreement(
        lines count: Int, bound: UInt64, seed: UInt64, scheme: VersionScheme = .appStore, preReleases: Bool = false
    ) throws {
        var random = SeededGenerator(state: seed)
        let lines = (0..<count).map { _ in
            let components = scheme == .semver ? 3 : Int.random(in: 1...4, using: &random)
            return (0..<components).map { _ in
                // Mostly a few values, so that many lines share their first components and every
                // digit of the keys decides somewhere; `bound - 1` sets every bit.
                let palette = [0, 1, bound / 2, bound - 1]
                let value = String(
                    Int.random(in: 0..<4, using: &random) == 0
                        ? UInt64.random(in: 0..<bound, using: &random) : palette[Int.random(in: 0..<4, using: &random)])
                return scheme == .appStore && Bool.random(using: &random) ? "00" + value : value
            }
            .joined(separator: ".")
        }
        .map { core in
            guard preReleases else { return core }
            let identifiers = [
                "0", "1", "2", "10", "11", "9", "a", "alpha", "alphb", "alph", "beta", "rc", "-", "x-1", "1a",
            ]
            var line = core
            if Int.random(in: 0..<3, using: &random) == 0 {
                line +=
                    "-"
                    + (0..<Int.random(in: 1...3, using: &random)).map { _ in
                        identifiers[Int.random(in: 0..<identifiers.count, using: &random)]
                    }
                    .joined(separator: ".")
            }
            if Int.random(in: 0..<10, using: &random) == 0 {
                line += "+build.0" + String(Int.random(in: 0..<3, using: &random))
            }
            return line
        }
        let endings = lines.map { _ in Int.random(in: 0..<8, using: &random) == 0 ? "\r\n" : "\n" }
        let versions = try lines.map { try Version(parsing: $0, scheme: scheme) }
        let text = zip(lines, endings).map { $0 + $1 }.joined()
        for descending in [false, true] {
            let expected = versions.indices.sorted {
                descending ? versions[$0] > versions[$1] : versions[$0] < versions[$1]
            }
            .map { lines[$0] + endings[$0] }.joined()
            let got = try sorted(text, scheme: scheme, descending: descending)
            #expect(got == expected, "\(count) lines below \(bound), \(scheme), descending: \(descending)")
        }
    }

    // Small components fit 64-bit keys with the position (below 2¹², four of them and the
    // offsets of 2,000 lines take 64 bits at most); larger ones 128-bit keys (below 2²⁰); four
    // components near 2³² and the offsets need more than 128 bits, and a component of 2³² or
    // more is not simple: the general path (three SemVer components near 2³² fit 128 bits).
    @Test(arguments: [4, 1 << 12, 1 << 20, UInt64(UInt32.max), 1 << 40] as [UInt64])
    func everyPathAgreesWithSortingParsedVersions(bound: UInt64) throws {
        try expectAgreement(lines: 2000, bound: bound, seed: bound)
        try expectAgreement(lines: 2000, bound: bound, seed: bound, scheme: .semver)
    }

    // Over 2 MiB and 65,536 lines: read and written in parts, one a core, on a machine with
    // more than one; with 64-bit keys (components below 2⁸) and with 128-bit keys.
    @Test(arguments: [(300_000, 1 << 8), (150_000, 1 << 24)] as [(Int, UInt64)])
    func aLargeTextReadInPartsSortsTheSame(lines: Int, bound: UInt64) throws {
        try expectAgreement(lines: lines, bound: bound, seed: 7)
    }

    // Pre-releases and build metadata stay on the fast path: the radix sort puts the
    // pre-releases of one x.y.z side by side, and only they are compared with each other; the
    // same with every key width, and in parts on every core.
    @Test(arguments: [4, 1 << 12, 1 << 20, UInt64(UInt32.max)] as [UInt64])
    func semverPreReleasesSortAsParsedVersionsDo(bound: UInt64) throws {
        try expectAgreement(lines: 3000, bound: bound, seed: bound, scheme: .semver, preReleases: true)
    }

    @Test func aLargeTextOfPreReleasesReadInPartsSortsTheSame() throws {
        try expectAgreement(lines: 150_000, bound: 1 << 4, seed: 9, scheme: .semver, preReleases: true)
    }

    // Each is not SemVer: the general path names it, as before the fast path took pre-releases.
    @Test(arguments: [
        ("1.0.0\n1.0.0-01\n", 2), ("1.0.0-rc.1\n1.0.0-\n", 2), ("1.0.0-a..b\n", 1), ("1.0.0-a+b+c\n", 1),
        ("1.0.0-a_b\n", 1), ("1.0.0+\n", 1), ("1.0.0-a.\n", 1), ("1.0.0+b.\n", 1), ("1.0.0-rc\r", 1),
    ])
    func aMalformedPreReleaseOrBuildIsNamed(_ input: String, line: Int) {
        #expect {
            try sorted(input, scheme: .semver)
        } throws: { error in
            guard let error = error as? VersionLinesError, case .invalidVersion = error.reason else { return false }
            return error.line == line
        }
    }

    @Test func semverLinesWithALeadingZeroLeaveTheFastPath() throws {
        #expect(try sorted("1.0.0\n1.0.0-rc.1\n0.9.0\n", scheme: .semver) == "0.9.0\n1.0.0-rc.1\n1.0.0\n")
        #expect {
            try sorted("1.0.0\n01.0.0\n", scheme: .semver)
        } throws: { error in
            (error as? VersionLinesError)?.description
                == #"line 2: "01.0.0": leading zero at offset 0 (SemVer numbers have none)"#
        }
    }

    @Test(arguments: [
        ("1\n\n2\n", "line 2: empty line (every line must be a version)"),
        ("1\n2\n1..2\n", #"line 3: "1..2": empty component at offset 2"#),
        (
            "1.0\n 1.1\n",
            #"line 2: " 1.1": unexpected character " " at offset 0 (an App Store version is digits separated by '.')"#
        ),
        ("1\n\r\n", "line 2: empty line (every line must be a version)"),
        // Found by the fuzzer: a last line ending in "\r" without "\n" lost its line ending.
        (
            "0240218.21.0.2\r",
            #"line 1: "0240218.21.0.2\r": unexpected character "\r" at offset 14 (an App Store version is digits separated by '.')"#
        ),
    ])
    func namesTheFirstBadLine(_ input: String, _ message: String) {
        #expect {
            try sorted(input)
        } throws: { error in
            (error as? VersionLinesError)?.description == message
        }
    }

    @Test func rejectsBytesThatAreNotUTF8() {
        #expect(throws: VersionLinesError(line: 2, reason: .notUTF8)) {
            try VersionLines.sorted([0x31, 0x0A, 0xFF, 0x0A])
        }
    }
}
