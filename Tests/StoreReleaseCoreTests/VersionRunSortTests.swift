import Testing

@testable import StoreReleaseCore

/// Sorting version lines a part at a time through a run store: the same bytes as sorting them
/// at once, and every failure of the store reported, naming where the runs were.
@Suite struct VersionRunSortTests {
    /// Runs kept in memory; `failingKeep` fails that keep (counted from 0) as a full disk does,
    /// `failingRead` every read back.
    struct MemoryRuns: SortedRunStore {
        var runs: [[UInt8]] = []
        var failingKeep: Int? = nil
        var failingRead = false
        var location: String { "/full" }

        mutating func keep(_ bytes: UnsafeRawBufferPointer) throws(SortedRunStoreError) {
            if runs.count == failingKeep {
                throw SortedRunStoreError(.write, directory: location, reason: "No space left on device")
            }
            runs.append(Array(bytes))
        }

        func read(run: Int, at offset: Int, into buffer: UnsafeMutableRawBufferPointer)
            throws(SortedRunStoreError) -> Int
        {
            if failingRead { throw SortedRunStoreError(.read, directory: location, reason: "Input/output error") }
            let bytes = runs[run].dropFirst(offset).prefix(buffer.count)
            buffer.copyBytes(from: bytes)
            return bytes.count
        }
    }

    /// Lines of both paths: equal versions written differently, `\r\n`, long and general ones.
    static func sample(_ count: Int, seed: UInt64, scheme: VersionScheme) -> [String] {
        var state = seed
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        let preReleases = ["", "", "", "-rc.1", "-beta", "-alpha.3.1", "-rc.10", "-0.2", "-alpha"]
        return (0..<count).map { _ in
            let core = "\(next(4)).\(next(3)).\(next(12))"
            var line = core
            if scheme == .semver {
                line += preReleases[Int(next(UInt64(preReleases.count)))] + (next(10) == 0 ? "+build.\(next(9))" : "")
            } else {
                switch next(12) {
                case 0: line = "0\(core)"
                case 1: line = core + ".0"
                case 2: line = core + ".\(next(3)).1"  // Five components: the general path.
                case 3: line = core + ".2024051\(next(9))"
                default: break
                }
            }
            return line + (next(7) == 0 ? "\r\n" : "\n")
        }
    }

    /// Sorts `lines` split into parts of `partLines` lines each.
    static func runSorted(_ lines: [String], partLines: Int, scheme: VersionScheme, descending: Bool) throws
        -> [UInt8]
    {
        var sort = VersionRunSort(store: MemoryRuns(), scheme: scheme, descending: descending)
        for start in stride(from: 0, to: lines.count, by: partLines) {
            try sort.add(Array(lines[start..<min(start + partLines, lines.count)].joined().utf8))
        }
        var output: [UInt8] = []
        #expect(
            try sort.merge(readSize: 64, pieceSize: 100) {
                output += $0
                return true
            })
        return output
    }

    @Test(arguments: [VersionScheme.appStore, .semver], [false, true])
    func givesTheInMemorySortsBytes(scheme: VersionScheme, descending: Bool) throws {
        for (seed, partLines) in [(1, 7), (2, 100), (3, 1000), (4, 5000)] as [(UInt64, Int)] {
            var lines = Self.sample(3000, seed: seed, scheme: scheme)
            lines[lines.count - 1].removeLast()  // A last line without its line break gets one.
            if lines[lines.count - 1].hasSuffix("\r") { lines[lines.count - 1].removeLast() }
            let whole = try VersionLines.sorted(Array(lines.joined().utf8), scheme: scheme, descending: descending)
            let parts = try Self.runSorted(lines, partLines: partLines, scheme: scheme, descending: descending)
            #expect(parts == whole, "seed \(seed), parts of \(partLines) lines")
        }
    }

    @Test func equalVersionsKeepTheirInputOrderAcrossParts() throws {
        let lines = ["1.2.0\n", "2\n", "1.2\n", "01.2\n", "1.2.0.0\n", "1.2\r\n"]
        let ascending = try Self.runSorted(lines, partLines: 2, scheme: .appStore, descending: false)
        #expect(String(decoding: ascending, as: UTF8.self) == "1.2.0\n1.2\n01.2\n1.2.0.0\n1.2\r\n2\n")
        let descending = try Self.runSorted(lines, partLines: 2, scheme: .appStore, descending: true)
        #expect(String(decoding: descending, as: UTF8.self) == "2\n1.2.0\n1.2\n01.2\n1.2.0.0\n1.2\r\n")
    }

    @Test func aBadLineInALaterPartIsNumberedInTheWholeText() throws {
        var sort = VersionRunSort(store: MemoryRuns())
        try sort.add(Array("1\n2\n3\n".utf8))
        #expect(throws: VersionRunSortError.line(VersionLinesError(line: 5, reason: .emptyLine))) {
            try sort.add(Array("4\n\n".utf8))
        }
    }

    @Test func aFullDiskStopsTheSortNamingTheDirectory() throws {
        var sort = VersionRunSort(store: MemoryRuns(failingKeep: 1))
        try sort.add(Array("2\n1\n".utf8))
        let error = #expect(throws: VersionRunSortError.self) { try sort.add(Array("4\n3\n".utf8)) }
        #expect(error?.description == #"cannot write a temporary file in "/full": No space left on device"#)
        #expect(sort.runs == 1)
    }

    @Test func aRunThatCannotBeReadBackIsAnErrorNotAShortOutput() throws {
        var sort = VersionRunSort(store: MemoryRuns(failingRead: true))
        try sort.add(Array("2\n1\n".utf8))
        var written = 0
        let error = #expect(throws: VersionRunSortError.self) {
            _ = try sort.merge {
                written += $0.count
                return true
            }
        }
        #expect(error?.description == #"cannot read back a temporary file in "/full": Input/output error"#)
        #expect(written == 0)
    }

    @Test func aTemporaryFileKeepsAndReadsRuns() throws {
        let file = TemporaryRunFile(directory: TemporaryRunFile.defaultDirectory)
        var sort = VersionRunSort(store: file)
        try sort.add(Array("3\n1\n".utf8))
        try sort.add(Array("2\n".utf8))
        var output: [UInt8] = []
        #expect(
            try sort.merge {
                output += $0
                return true
            })
        #expect(String(decoding: output, as: UTF8.self) == "1\n2\n3\n")
    }

    @Test func aMissingDirectoryIsNamed() throws {
        let store = TemporaryRunFile(directory: "/nonexistent-storerelease")
        let error = #expect(throws: SortedRunStoreError.self) {
            try [UInt8]("1\n".utf8).withUnsafeBytes { bytes in try store.keep(bytes) }
        }
        #expect(error?.operation == .create)
        #expect(
            error?.description.hasPrefix(#"cannot create a temporary file in "/nonexistent-storerelease": "#) == true)
    }
}
