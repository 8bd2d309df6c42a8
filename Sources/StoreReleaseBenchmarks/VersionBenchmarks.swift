import Foundation
import StoreReleaseKit

/// Parse, compare and sort, each against Foundation's `compare(_:options: .numeric)` — what the
/// seeds use — measured in the same run.
enum VersionBenchmarks {
    /// Deterministic App Store versions of one to four components (`7.13.88.4021`).
    static func versionStrings(count: Int, seed: UInt64 = 1) -> [String] {
        var state = seed
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        let bounds: [UInt64] = [21, 100, 1000, 10_000]
        return (0..<count).map { _ in
            let components = Int(next(4)) + 1
            return bounds.prefix(components).map { String(next($0)) }.joined(separator: ".")
        }
    }

    /// The median cost, in nanoseconds, of one `isAscending` call over adjacent pairs (inlined,
    /// so the closure costs nothing of its own).
    @inline(__always)
    static func perAdjacentPair<T>(_ items: [T], repetitions: Int, _ isAscending: (T, T) throws -> Bool) rethrows
        -> Double
    {
        try Measure.median(repetitions: repetitions) {
            var ascending = 0
            for index in 1..<items.count where try isAscending(items[index - 1], items[index]) { ascending += 1 }
            blackHole(ascending)
        } / Double(items.count - 1)
    }

    static func run(size: Int, sortSize: Int, repetitions: Int) throws -> [Row] {
        let texts = versionStrings(count: size)
        let versions = try texts.map { try Version(parsing: $0) }
        var rows: [Row] = []

        // Baseline: one Foundation numeric comparison of two strings.
        let foundationCompare = perAdjacentPair(texts, repetitions: repetitions) {
            $0.compare($1, options: .numeric) == .orderedAscending
        }
        rows.append(
            Row(
                name: "Foundation compare(_:options: .numeric)", value: foundationCompare, unit: "ns/op",
                baseline: nil, note: "baseline: the seeds' comparison (and 1.2 < 1.2.0)"))

        let parse =
            try Measure.median(repetitions: repetitions) {
                var parsed = 0
                for text in texts { parsed &+= try Version(parsing: text).description.utf8.count }
                blackHole(parsed)
            } / Double(texts.count)
        rows.append(
            Row(
                name: "Version(parsing:)", value: parse, unit: "ns/op", baseline: foundationCompare,
                note: "vs one Foundation compare"))

        // A plain loop, as a caller writes it: through a generic closure each element would be
        // copied out of the array first, and that copy would be measured instead of `<`.
        let compare =
            Measure.median(repetitions: repetitions) {
                var ascending = 0
                for index in 1..<versions.count where versions[index - 1] < versions[index] { ascending += 1 }
                blackHole(ascending)
            } / Double(versions.count - 1)
        rows.append(
            Row(
                name: "Version < Version (parsed once)", value: compare, unit: "ns/op",
                baseline: foundationCompare, note: "vs Foundation compare"))

        let parseAndCompare = try perAdjacentPair(texts, repetitions: repetitions) {
            try Version(parsing: $0) < Version(parsing: $1)
        }
        rows.append(
            Row(
                name: "parse both + compare", value: parseAndCompare, unit: "ns/op",
                baseline: foundationCompare, note: "vs Foundation compare, strings each time"))

        // Sorting sortSize versions.
        let sortTexts = versionStrings(count: sortSize, seed: 2)
        let sortVersions = try sortTexts.map { try Version(parsing: $0) }
        let lines = Array((sortTexts.joined(separator: "\n") + "\n").utf8)
        let sortRepetitions = max(1, repetitions / 2)
        // One run: at about 12 s for a million strings, the baseline dominates the whole benchmark.
        let foundationSort =
            Measure.median(repetitions: 1) {
                blackHole(sortTexts.sorted { $0.compare($1, options: .numeric) == .orderedAscending })
            } / 1e6
        rows.append(
            Row(
                name: "sort \(sortSize) strings, Foundation .numeric", value: foundationSort, unit: "ms",
                baseline: nil, note: "baseline"))
        let versionSort = Measure.median(repetitions: sortRepetitions) { blackHole(sortVersions.sorted()) } / 1e6
        rows.append(
            Row(
                name: "sort \(sortSize) parsed [Version]", value: versionSort, unit: "ms",
                baseline: foundationSort, note: "vs Foundation sort"))
        let linesSort =
            try Measure.median(repetitions: sortRepetitions) {
                blackHole(try VersionLines.sorted(lines))
            } / 1e6
        rows.append(
            Row(
                name: "VersionLines.sorted, \(sortSize) lines", value: linesSort, unit: "ms",
                baseline: foundationSort, note: "parse + stable sort + output, as `storerelease sort`"))
        if let gnuSort = try gnuSortMilliseconds(lines, repetitions: sortRepetitions) {
            rows.append(
                Row(
                    name: "LC_ALL=C sort -V, \(sortSize) lines", value: gnuSort, unit: "ms", baseline: nil,
                    note: "baseline: GNU coreutils, a whole process reading a file"))
            rows.append(
                Row(
                    name: "VersionLines.sorted vs sort -V", value: linesSort, unit: "ms", baseline: gnuSort,
                    note: "in process, from memory"))
        }
        return rows
    }

    /// The median time GNU `sort -V` takes over the same lines, from a temporary file to
    /// /dev/null, or `nil` where there is no `/usr/bin/sort`.
    static func gnuSortMilliseconds(_ lines: [UInt8], repetitions: Int) throws -> Double? {
        let sort = URL(fileURLWithPath: "/usr/bin/sort")
        guard FileManager.default.isExecutableFile(atPath: sort.path) else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).txt")
        try Data(lines).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Measure.median(repetitions: repetitions) {
            let process = Process()
            process.executableURL = sort
            process.arguments = ["-V", file.path]
            process.environment = ["LC_ALL": "C"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        } / 1e6
    }
}
