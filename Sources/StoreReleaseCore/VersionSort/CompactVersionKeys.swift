/// Sort keys for simple versions (see ``VersionParser/packed(_:from:semver:line:)``), 64 or 128
/// bits wide: each component in as few bits as the largest value in its place needs, and below
/// them the position of the item the version came from.
///
/// Real release histories fit 64 bits easily: a million lines of `20.99.999.9999` take
/// 5 + 7 + 10 + 14 bits of version and 23 of position; build numbers that are dates
/// (`3.1.0.20240517`) need 128. Because the position is the lowest part of the key, sorting the
/// keys sorts by version and keeps equal versions in input order, and a radix sort only needs to
/// look at the version's bits.
struct CompactVersionKeys<Key: CompactVersionKey> {
    /// Bits for each of the four components, most significant first.
    private let widths: (Int, Int, Int, Int)
    /// Bits below the version, for the position.
    private let positionBits: Int
    /// Bits of version, above the position.
    private let versionBits: Int
    /// Whether the version's bits are complemented, so ascending keys are newest first.
    private let descending: Bool

    /// The layout for versions whose packed words, OR-ed together, are `high` and `low`, and
    /// positions below `positionLimit`; `nil` when they do not fit in a `Key` together.
    init?(high: UInt64, low: UInt64, positionLimit: Int, descending: Bool) {
        func width(_ value: UInt64) -> Int { UInt64.bitWidth - value.leadingZeroBitCount }
        widths = (width(high >> 32), width(high & 0xFFFF_FFFF), width(low >> 32), width(low & 0xFFFF_FFFF))
        versionBits = widths.0 + widths.1 + widths.2 + widths.3
        positionBits = width(UInt64(max(positionLimit, 1)))
        guard versionBits + positionBits <= Key.bitWidth, positionBits <= 32 else { return nil }
        self.descending = descending
    }

    /// The key for a version's packed words and its position.
    @inline(__always)
    func key(high: UInt64, low: UInt64, position: Int) -> Key {
        // The version as one number of up to 128 bits (two words), its components side by side.
        var version = (high: UInt64(0), low: high >> 32)
        @inline(__always) func append(_ component: UInt64, width: Int) {
            // A width of 0 means every version has 0 there: nothing to append.
            guard width > 0 else { return }
            version.high = version.high &<< width | version.low &>> (64 - width)
            version.low = version.low &<< width | component
        }
        append(high & 0xFFFF_FFFF, width: widths.1)
        append(low >> 32, width: widths.2)
        append(low & 0xFFFF_FFFF, width: widths.3)
        if descending {
            // Complementing reverses the order of versions and leaves positions ascending, so
            // equal versions still keep their input order.
            version.low = ~version.low & (versionBits >= 64 ? .max : UInt64(1) &<< versionBits &- 1)
            version.high = versionBits > 64 ? ~version.high & (UInt64(1) &<< (versionBits - 64) &- 1) : 0
        }
        return Key(version: version, positionBits: positionBits, position: UInt64(truncatingIfNeeded: position))
    }

    /// The position a key was made with.
    @inline(__always)
    func position(_ key: Key) -> Int {
        Int(truncatingIfNeeded: key.bits(from: 0) & (UInt64(1) << UInt64(positionBits) &- 1))
    }

    /// Whether two keys made with this layout hold the same version (their positions aside).
    @inline(__always)
    func sameVersion(_ lhs: Key, _ rhs: Key) -> Bool {
        lhs.bits(from: positionBits) == rhs.bits(from: positionBits)
            && (versionBits <= 64 || lhs.bits(from: positionBits + 64) == rhs.bits(from: positionBits + 64))
    }

    /// Sorts keys made with this layout by version, equal versions in order of position: a
    /// least-significant-digit radix sort over the version's bits only, skipping digits that are
    /// the same in every key, with `scratch` (as many keys) as the other buffer.
    ///
    /// Many keys are sorted on every core: each digit is counted and the keys moved a stretch of
    /// them a core, each stretch's keys of a digit placed after those of the stretches before it,
    /// so that the order stays stable.
    ///
    /// - Returns: Whichever of `keys` and `scratch` holds the sorted keys.
    /// - Complexity: O(*n*) time per varying digit of at most 11 bits.
    func sort(_ keys: UnsafeMutableBufferPointer<Key>, scratch: UnsafeMutableBufferPointer<Key>)
        -> UnsafeMutableBufferPointer<Key>
    {
        let count = keys.count
        guard count > 1, versionBits > 0, scratch.count >= count else { return keys }
        let passes = (versionBits + 10) / 11
        let digitBits = (versionBits + passes - 1) / passes
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        let parts = ParallelParts.count(for: count, minimum: 1 << 16)
        let stretches = (0..<parts).map { (count * $0 / parts)..<(count * ($0 + 1) / parts) }
        var from = keys
        var to = UnsafeMutableBufferPointer(rebasing: scratch[..<count])
        for pass in 0..<passes {
            let shift = positionBits + pass * digitBits
            let counts = ParallelParts.map(parts) { [from] part in
                var counts = [Int](repeating: 0, count: buckets)
                counts.withUnsafeMutableBufferPointer { counts in
                    for key in UnsafeMutableBufferPointer(rebasing: from[stretches[part]]) {
                        counts[Int(truncatingIfNeeded: key.bits(from: shift) & mask)] += 1
                    }
                }
                return counts
            }
            // Each stretch's first index for each digit: after the keys of smaller digits, and
            // after the earlier stretches' keys of the same digit.
            var starts = counts
            var total = 0
            var oneDigit = false
            for bucket in 0..<buckets {
                var inBucket = 0
                for part in 0..<parts {
                    starts[part][bucket] = total + inBucket
                    inBucket += counts[part][bucket]
                }
                oneDigit = oneDigit || inBucket == count
                total += inBucket
            }
            if oneDigit { continue }  // The same digit in every key.
            _ = ParallelParts.map(parts) { [from, to] part in
                var offsets = starts[part]
                offsets.withUnsafeMutableBufferPointer { offsets in
                    Self.scatter(
                        UnsafeMutableBufferPointer(rebasing: from[stretches[part]]), into: to, shift: shift, mask: mask,
                        offsets: offsets)
                }
            }
            swap(&from, &to)
        }
        return from
    }

    private static func scatter(
        _ source: UnsafeMutableBufferPointer<Key>, into destination: UnsafeMutableBufferPointer<Key>, shift: Int,
        mask: UInt64, offsets: UnsafeMutableBufferPointer<Int>
    ) {
        for key in source {
            let digit = Int(truncatingIfNeeded: key.bits(from: shift) & mask)
            destination[offsets[digit]] = key
            offsets[digit] += 1
        }
    }
}

/// A fixed-width unsigned key for ``CompactVersionKeys``: a version above a position.
protocol CompactVersionKey: BitwiseCopyable {
    /// How many bits the key has.
    static var bitWidth: Int { get }
    /// The key `version << positionBits | position`; the caller makes sure it fits.
    init(version: (high: UInt64, low: UInt64), positionBits: Int, position: UInt64)
    /// The key's 64 bits starting at bit `shift` (0 the least significant), zeros past its top.
    func bits(from shift: Int) -> UInt64
}

extension UInt64: CompactVersionKey {
    @inline(__always)
    init(version: (high: UInt64, low: UInt64), positionBits: Int, position: UInt64) {
        self = version.low &<< positionBits | position
    }

    @inline(__always)
    func bits(from shift: Int) -> UInt64 { self &>> shift }
}

/// A 128-bit key, as two words.
struct WideVersionKey: CompactVersionKey {
    var high: UInt64
    var low: UInt64

    static var bitWidth: Int { 128 }

    /// `positionBits` is 1 to 32 (a position below 2³², never none).
    @inline(__always)
    init(version: (high: UInt64, low: UInt64), positionBits: Int, position: UInt64) {
        high = version.high &<< positionBits | version.low &>> (64 - positionBits)
        low = version.low &<< positionBits | position
    }

    @inline(__always)
    func bits(from shift: Int) -> UInt64 {
        switch shift {
        case 0: low
        case 1..<64: low &>> shift | high &<< (64 - shift)
        default: high &>> (shift - 64)
        }
    }
}
