import Foundation
import StoreReleaseKit

/// Parse, compare and sort, each against Foundation's `compare(_:options: .numeric)` — what the
/// seeds use — measured in the same run.
enum VersionBenchmarks {
    /// Deterministic App Store versions of one to four components (`7.13.88.4021`), or of as
    /// many as `components` allows.
    static func versionStrings(count: Int, seed: UInt64 = 1, components: ClosedRange<Int> = 1...4) -> [String] {
        var state = seed
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        let bounds: [UInt64] = [21, 100, 1000, 10_000]
        return (0..<count).map { _ in
            let count = components.lowerBound + Int(next(UInt64(components.count)))
            return bounds.prefix(count).map { String(next($0)) }.joined(separator: ".")
        }
    }

    /// A body that calls `isAscending` on every adjacent pair (inlined, so the closure costs
    /// nothing of its own).
    @inline(__always)
    static func adjacentPairs<T>(_ items: [T], _ isAscending: @escaping (T, T) throws -> Bool) -> () throws -> Void {
        {
            var ascending = 0
            for index in 1..<items.count where try isAscending(items[index - 1], items[index]) { ascending += 1 }
            blackHole(ascending)
        }
    }

    static func run(size: Int, sortSize: Int, repetitions: Int) throws -> [Row] {
        let texts = versionStrings(count: size)
        let versions = try texts.map { try Version(parsing: $0) }
        let pairs = Double(size - 1)

        // Against one Foundation numeric comparison of two strings, what the seeds use.
        let perOperation = try Measure.rounds(
            repetitions: repetitions, per: pairs,
            [
                adjacentPairs(texts) { $0.compare($1, options: .numeric) == .orderedAscending },
                {
                    var parsed = 0
                    for text in texts { parsed &+= try Version(parsing: text).description.utf8.count }
                    blackHole(parsed)
                },
                // A plain loop, as a caller writes it: through a generic closure each element
                // would be copied out of the array first, and that copy measured instead of `<`.
                {
                    var ascending = 0
                    for index in 1..<versions.count where versions[index - 1] < versions[index] { ascending += 1 }
                    blackHole(ascending)
                },
                adjacentPairs(texts) { try Version(parsing: $0) < Version(parsing: $1) },
            ])
        var rows = Row.againstFirst(
            perOperation, unit: "ns/op",
            [
                ("Foundation compare(_:options: .numeric)", "baseline: the seeds' comparison (and 1.2 < 1.2.0)"),
                ("Version(parsing:)", "vs one Foundation compare"),
                ("Version < Version (parsed once)", "vs Foundation compare"),
                ("parse both + compare", "vs Foundation compare, strings each time"),
            ])

        // Sorting strings: a Foundation sort of a million strings takes about 12 s, so a fifth.
        let stringCount = sortSize / 5
        let sortTexts = versionStrings(count: stringCount, seed: 2)
        let sortVersions = try sortTexts.map { try Version(parsing: $0) }
        let sorts = try Measure.rounds(
            repetitions: max(2, repetitions / 2), per: 1e6,
            [
                { blackHole(sortTexts.sorted { $0.compare($1, options: .numeric) == .orderedAscending }) },
                { blackHole(sortVersions.sorted()) },
            ])
        rows += Row.againstFirst(
            sorts, unit: "ms",
            [
                ("sort \(stringCount) strings, Foundation .numeric", "baseline"),
                ("sort \(stringCount) parsed [Version]", "vs Foundation sort"),
            ])

        // Sorting lines: the whole job of `storerelease sort`, in process.
        let lineTexts = versionStrings(count: sortSize, seed: 3)
        let lineVersions = try lineTexts.map { try Version(parsing: $0) }
        let lines = Array((lineTexts.joined(separator: "\n") + "\n").utf8)
        let lineSorts = try Measure.rounds(
            repetitions: repetitions, per: 1e6,
            [
                { blackHole(lineVersions.sorted()) },
                { blackHole(try VersionLines.sorted(lines)) },
            ])
        rows += Row.againstFirst(
            lineSorts, unit: "ms",
            [
                ("sort \(sortSize) parsed [Version]", "baseline: versions parsed beforehand"),
                ("VersionLines.sorted, \(sortSize) lines", "parse + stable sort + output, as `storerelease sort`"),
            ])
        return rows
    }
}
