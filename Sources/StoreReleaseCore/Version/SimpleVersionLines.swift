/// A text's lines read as simple versions (see ``VersionParser/packed(_:from:semver:line:)``;
/// for SemVer, ``VersionParser/packedSemVerLine(_:from:)``: pre-releases and build metadata too),
/// in parts at line boundaries that are read at the same time, one a core: the fast path of
/// ``VersionLines/sorted(_:scheme:descending:)``. It reads the text in place, so it lives only
/// as long as the buffer it was made with.
struct SimpleVersionLines {
    /// What reading one part found.
    struct Summary {
        /// Every line's packed words, OR-ed together: how many bits the versions need.
        var high: UInt64 = 0
        var low: UInt64 = 0
        /// How many lines the part has.
        var lines = 0
        /// How many of them are SemVer pre-releases.
        var preReleases = 0
    }

    private let text: UnsafeBufferPointer<UInt8>
    private let semver: Bool
    /// The parts' byte ranges, each ending after a `\n` (or at the end of the text).
    private let parts: [Range<Int>]
    /// What each part holds.
    let summaries: [Summary]

    /// Reads the text once; `nil` as soon as a line is not a simple version of the scheme.
    init?(_ text: UnsafeBufferPointer<UInt8>, scheme: VersionScheme) {
        self.text = text
        semver = scheme == .semver
        let count = ParallelParts.count(for: text.count, minimum: 1 << 20)
        var parts: [Range<Int>] = []
        var start = 0
        for part in 1...count {
            // Each part ends after the first "\n" at or past its share of the bytes.
            var end = part == count ? text.count : max(start, text.count * part / count)
            while end < text.count, text[end] != UInt8(ascii: "\n") { end += 1 }
            end = min(end + 1, text.count)
            parts.append(start..<end)
            start = end
        }
        self.parts = parts
        let summaries = ParallelParts.map(count) { [parts, semver] part -> Summary? in
            var summary = Summary()
            let simple = Self.forEachVersion(in: text, parts[part], semver: semver) { high, low, _ in
                summary.high |= high
                summary.low |= low
                summary.lines += 1
                // For SemVer the lowest bit is 1 for a release (see `packedSemVerLine`).
                if semver { summary.preReleases += Int(truncatingIfNeeded: ~low & 1) }
            }
            return simple ? summary : nil
        }
        let complete = summaries.compactMap { $0 }
        guard complete.count == summaries.count else { return nil }
        self.summaries = complete
    }

    /// All the lines' versions, OR-ed together.
    var high: UInt64 { summaries.reduce(0) { $0 | $1.high } }
    var low: UInt64 { summaries.reduce(0) { $0 | $1.low } }
    /// How many lines the text has.
    var lines: Int { summaries.reduce(0) { $0 + $1.lines } }
    /// How many of them are SemVer pre-releases.
    var preReleases: Int { summaries.reduce(0) { $0 + $1.preReleases } }

    /// A key for every line, in line order, made from its packed words and its first byte's
    /// offset; the parts are read again at the same time, each into its own stretch of keys.
    ///
    /// - Returns: The keys, or `nil` if a part no longer has the lines the first reading found
    ///   (which cannot happen to an unchanged text; checked all the same).
    func keys<Key>(_ key: (_ high: UInt64, _ low: UInt64, _ position: Int) -> Key) -> [Key]? {
        guard lines > 0 else { return [] }
        let firstKeys = summaries.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.lines) }
        var complete = false
        let keys = [Key](unsafeUninitializedCapacity: lines) { keys, initialized in
            guard let base = keys.baseAddress else { return }
            let made = ParallelParts.map(parts.count) { part -> Int in
                var next = base + firstKeys[part]
                let end = base + firstKeys[part + 1]
                _ = Self.forEachVersion(in: text, parts[part], semver: semver) { high, low, position in
                    guard next < end else { return }
                    next.initialize(to: key(high, low, position))
                    next += 1
                }
                return next - (base + firstKeys[part])
            }
            complete = made == summaries.map(\.lines)
            initialized = complete ? lines : 0
        }
        return complete ? keys : nil
    }

    /// Calls `body` with each line's packed words and first byte offset in `text`.
    ///
    /// - Returns: Whether every line of the range was a simple version.
    @inline(__always)
    private static func forEachVersion(
        in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, semver: Bool,
        _ body: (_ high: UInt64, _ low: UInt64, _ position: Int) -> Void
    ) -> Bool {
        let part = UnsafeBufferPointer(rebasing: text[range])
        var position = 0
        while position < part.count {
            let start = position
            let packed =
                semver
                ? VersionParser.packedSemVerLine(part, from: &position)
                : VersionParser.packed(part, from: &position, semver: false, line: true)
            guard let packed else { return false }
            body(packed.high, packed.low, range.lowerBound + start)
        }
        return true
    }
}
