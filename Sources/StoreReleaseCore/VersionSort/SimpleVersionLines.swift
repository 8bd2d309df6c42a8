/// A text's lines read as simple versions (see ``VersionParser/packed(_:from:semver:line:)``;
/// for SemVer, ``VersionParser/packedSemVerLine(_:from:)``: pre-releases and build metadata too),
/// in parts at line boundaries that are read at the same time, one a core: the fast path of
/// ``VersionLines/sorted(_:scheme:descending:)``. The text is read once: each line's packed
/// words go to a buffer the caller provides (``slots(for:)`` of 16 bytes) and its length to
/// another (as many `UInt16`s), which ``keys(in:lengths:_:)`` then turns into sort keys in place. It reads the text in place, so it lives only as long as
/// the buffers it was made with.
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

    /// The parts' byte ranges, each ending after a `\n` (or at the end of the text).
    private let parts: [Range<Int>]
    /// Each part's first slot in the buffer of packed words.
    let firstSlots: [Int]
    /// What each part holds.
    let summaries: [Summary]

    /// How many 16-byte slots the buffer for a text of `count` bytes needs: one for every line
    /// it could have (each line but a last one without `\n` has two bytes at least), and for
    /// each part (eight at most) one and the gap before its first slot (``partAlignment(for:)``).
    static func slots(for count: Int) -> Int { count / 2 + 1 + 8 * partAlignment(for: count) }

    /// What each part's first slot is a multiple of: for a large text, a large page of slots,
    /// so that no large page holds the slots of two parts (that would take a large page more
    /// than the slots need when the system backs them with large pages, ``PageMemory``).
    private static func partAlignment(for count: Int) -> Int { count >= 8 << 20 ? PageMemory.largePage / 16 : 1 }

    /// Reads the text once, each line's packed words into `packed` (``slots(for:)`` slots of two
    /// words, high then low, a part's lines side by side from its first slot) and its length
    /// with its line ending into the same slot of `lengths`; `nil` as soon as a line is not a
    /// simple version of the scheme or is 65,535 bytes or longer.
    init?(
        _ text: UnsafeBufferPointer<UInt8>, scheme: VersionScheme, into packed: UnsafeMutableRawPointer,
        lengths: UnsafeMutablePointer<UInt16>
    ) {
        let semver = scheme == .semver
        let count = ParallelParts.count(for: text.count, minimum: 1 << 20)
        var parts: [Range<Int>] = []
        var firstSlots: [Int] = []
        let alignment = Self.partAlignment(for: text.count)
        var start = 0
        var slot = 0
        for part in 1...count {
            slot = (slot + alignment - 1) / alignment * alignment
            // Each part ends after the first "\n" at or past its share of the bytes.
            var end = part == count ? text.count : max(start, text.count * part / count)
            while end < text.count, text[end] != UInt8(ascii: "\n") { end += 1 }
            end = min(end + 1, text.count)
            parts.append(start..<end)
            firstSlots.append(slot)
            slot += (end - start + 1) / 2
            start = end
        }
        guard slot <= Self.slots(for: text.count) else { return nil }
        self.parts = parts
        self.firstSlots = firstSlots + [slot]
        let summaries = ParallelParts.map(count) { [parts, firstSlots] part -> Summary? in
            var summary = Summary()
            var slot = firstSlots[part]
            let end = slot + (parts[part].count + 1) / 2
            var lineStart = parts[part].lowerBound
            let simple = Self.forEachVersion(in: text, parts[part], semver: semver) { high, low, nextLine in
                guard slot < end, nextLine - lineStart < Int(UInt16.max) else { return false }
                (packed + 16 * slot).storeBytes(of: high, as: UInt64.self)
                (packed + 16 * slot).storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
                lengths[slot] = UInt16(truncatingIfNeeded: nextLine - lineStart)
                lineStart = nextLine
                slot += 1
                summary.high |= high
                summary.low |= low
                summary.lines += 1
                // For SemVer the lowest bit is 1 for a release (see `packedSemVerLine`).
                if semver { summary.preReleases += Int(truncatingIfNeeded: ~low & 1) }
                return true
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
    /// The first slot of the last part: from there on, the slots are read last.
    var lastPartFirstSlot: Int { firstSlots[firstSlots.count - 2] }
    /// How many lines the text has.
    var lines: Int { summaries.reduce(0) { $0 + $1.lines } }
    /// How many of them are SemVer pre-releases.
    var preReleases: Int { summaries.reduce(0) { $0 + $1.preReleases } }

    /// Turns the packed words in `packed` and the lengths (as `init` left them) into a key for
    /// every line, in line order, from the start of `packed`: made from its packed words and its
    /// first byte's offset. A key takes at most a slot's 16 bytes, so key *i* is written at or
    /// before slot *i*, never over words not yet read.
    ///
    /// The slots past the keys are not needed after this; the caller gives back what it does
    /// not use again (the last part's, ``lastPartFirstSlot``, can be the radix sort's scratch).
    ///
    /// - Returns: The keys, in `packed`, now bound to `Key`.
    @inline(__always)
    func keys<Key: BitwiseCopyable>(
        in packed: UnsafeMutableRawPointer, lengths: UnsafePointer<UInt16>,
        _ key: (_ high: UInt64, _ low: UInt64, _ position: Int) -> Key
    ) -> UnsafeMutableBufferPointer<Key> {
        var next = 0
        for (part, summary) in summaries.enumerated() {
            var position = parts[part].lowerBound
            for slot in firstSlots[part]..<(firstSlots[part] + summary.lines) {
                let high = (packed + 16 * slot).load(as: UInt64.self)
                let low = (packed + 16 * slot).load(fromByteOffset: 8, as: UInt64.self)
                (packed + MemoryLayout<Key>.stride * next).storeBytes(of: key(high, low, position), as: Key.self)
                position += Int(lengths[slot])
                next += 1
            }
        }
        return UnsafeMutableBufferPointer(start: packed.bindMemory(to: Key.self, capacity: next), count: next)
    }

    /// Calls `body` with ``slots(for:)`` slots of 16 bytes for a text of `count` bytes, their
    /// number, and as many `UInt16`s for the lengths; `nil` when the system has no room for them.
    ///
    /// Only the slots of lines that exist are ever touched and take memory, however much larger
    /// the reserve for lines of two bytes is (``PageMemory/withMapped(count:_:)``). The slots
    /// are on large pages where the system has them; the lengths, an eighth as large, are not.
    static func withSlots<Result>(
        for count: Int, _ body: (UnsafeMutableRawPointer, Int, UnsafeMutablePointer<UInt16>) -> Result?
    ) -> Result? {
        let slots = Self.slots(for: count)
        return PageMemory.withMapped(count: 18 * slots) { mapped in
            PageMemory.preferLargePages(UnsafeMutableRawBufferPointer(start: mapped, count: 16 * slots))
            return body(mapped, slots, (mapped + 16 * slots).bindMemory(to: UInt16.self, capacity: slots))
        }
    }

    /// Calls `body` with each line's packed words and the offset in `text` of the next line's
    /// first byte, until it returns `false`.
    ///
    /// - Returns: Whether every line of the range was a simple version that `body` took.
    @inline(__always)
    private static func forEachVersion(
        in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, semver: Bool,
        _ body: (_ high: UInt64, _ low: UInt64, _ nextLine: Int) -> Bool
    ) -> Bool {
        let part = UnsafeBufferPointer(rebasing: text[range])
        var position = 0
        while position < part.count {
            let packed =
                semver
                ? VersionParser.packedSemVerLine(part, from: &position)
                : VersionParser.packed(part, from: &position, semver: false, line: true)
            guard let packed, body(packed.high, packed.low, range.lowerBound + position) else { return false }
        }
        return true
    }
}
