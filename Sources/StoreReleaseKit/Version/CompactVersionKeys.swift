/// Sort keys of one 64-bit word for simple versions (see ``VersionParser/packedAppStore(_:)``):
/// each component in as few bits as the largest value in its place needs, and below them the
/// position of the item the version came from.
///
/// Real release histories fit easily: a million lines of `20.99.999.9999` take 5 + 7 + 10 + 14
/// bits of version and 23 of position. Because the position is the lowest part of the key,
/// sorting the words sorts by version and keeps equal versions in input order, and a radix sort
/// only needs to look at the version's bits.
struct CompactVersionKeys {
    /// Bits for each of the four components, most significant first.
    private let widths: (Int, Int, Int, Int)
    /// Bits below the version, for the position.
    let positionBits: Int
    /// Bits of version, above the position.
    let versionBits: Int
    /// Whether the version's bits are complemented, so ascending keys are newest first.
    private let descending: Bool

    /// The layout for versions whose packed words, OR-ed together, are `high` and `low`, and
    /// positions below `positionLimit`; `nil` when they do not fit in 64 bits together.
    init?(high: UInt64, low: UInt64, positionLimit: Int, descending: Bool) {
        func width(_ value: UInt64) -> Int { UInt64.bitWidth - value.leadingZeroBitCount }
        widths = (width(high >> 32), width(high & 0xFFFF_FFFF), width(low >> 32), width(low & 0xFFFF_FFFF))
        versionBits = widths.0 + widths.1 + widths.2 + widths.3
        positionBits = width(UInt64(max(positionLimit, 1)))
        guard versionBits + positionBits <= UInt64.bitWidth else { return nil }
        self.descending = descending
    }

    /// The key for a version's packed words and its position.
    @inline(__always)
    func key(high: UInt64, low: UInt64, position: Int) -> UInt64 {
        var version = high >> 32
        version = version << UInt64(widths.1) | high & 0xFFFF_FFFF
        version = version << UInt64(widths.2) | low >> 32
        version = version << UInt64(widths.3) | low & 0xFFFF_FFFF
        if descending {
            // Complementing reverses the order of versions and leaves positions ascending, so
            // equal versions still keep their input order.
            version = ~version & (UInt64(1) << UInt64(versionBits) &- 1)
        }
        return version << UInt64(positionBits) | UInt64(truncatingIfNeeded: position)
    }

    /// The position a key was made with.
    @inline(__always)
    func position(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: key & (UInt64(1) << UInt64(positionBits) &- 1))
    }

    /// Sorts keys made with this layout by version, equal versions in order of position: a
    /// least-significant-digit radix sort over the version's bits only, skipping digits that are
    /// the same in every key.
    ///
    /// - Complexity: O(*n*) time per varying digit of at most 11 bits, O(*n*) extra memory.
    func sort(_ keys: inout [UInt64]) {
        let count = keys.count
        guard count > 1, versionBits > 0 else { return }
        let passes = (versionBits + 10) / 11
        let digitBits = (versionBits + passes - 1) / passes
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        let shifts = (0..<passes).map { UInt64(positionBits + $0 * digitBits) }
        var counts = [Int](repeating: 0, count: passes * buckets)
        counts.withUnsafeMutableBufferPointer { counts in
            keys.withUnsafeBufferPointer { keys in
                for key in keys {
                    for pass in 0..<passes {
                        counts[pass * buckets + Int(truncatingIfNeeded: key >> shifts[pass] & mask)] += 1
                    }
                }
            }
        }
        var scratch = [UInt64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var sortedIsInKeys = true
        for pass in 0..<passes {
            let base = pass * buckets
            if counts[base..<(base + buckets)].contains(count) { continue }  // One digit for every key.
            // Each bucket's first index, in place of its count.
            var total = 0
            for bucket in base..<(base + buckets) {
                let n = counts[bucket]
                counts[bucket] = total
                total += n
            }
            counts.withUnsafeMutableBufferPointer { counts in
                let offsets = UnsafeMutableBufferPointer(rebasing: counts[base..<(base + buckets)])
                if sortedIsInKeys {
                    Self.scatter(keys, into: &scratch, shift: shifts[pass], mask: mask, offsets: offsets)
                } else {
                    Self.scatter(scratch, into: &keys, shift: shifts[pass], mask: mask, offsets: offsets)
                }
            }
            sortedIsInKeys.toggle()
        }
        if !sortedIsInKeys { swap(&keys, &scratch) }
    }

    private static func scatter(
        _ source: [UInt64], into destination: inout [UInt64], shift: UInt64, mask: UInt64,
        offsets: UnsafeMutableBufferPointer<Int>
    ) {
        source.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer { destination in
                for key in source {
                    let digit = Int(truncatingIfNeeded: key >> shift & mask)
                    destination[offsets[digit]] = key
                    offsets[digit] += 1
                }
            }
        }
    }
}
