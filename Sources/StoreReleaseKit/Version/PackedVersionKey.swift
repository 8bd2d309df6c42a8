/// A simple App Store version as two 64-bit words (see ``Version/Storage/packed(high:low:)``),
/// with the position of the item it came from, for sorting many versions at once.
struct PackedVersionKey {
    var high: UInt64
    var low: UInt64
    let position: UInt32
}

extension PackedVersionKey {
    /// Sorts keys by version with a least-significant-digit radix sort, which is stable: equal
    /// versions keep their order, ascending or descending.
    ///
    /// Byte positions that are the same in every key are skipped, so versions whose components
    /// stay small take a few passes rather than sixteen.
    ///
    /// - Complexity: O(*n*) time per varying byte, O(*n*) extra memory.
    static func radixSort(_ keys: inout [PackedVersionKey], descending: Bool) {
        let count = keys.count
        guard count > 1 else { return }
        if descending {
            // Complementing the words reverses the order and keeps the sort stable.
            for index in keys.indices {
                keys[index].high = ~keys[index].high
                keys[index].low = ~keys[index].low
            }
        }
        var histograms = [Int](repeating: 0, count: 16 * 256)
        histograms.withUnsafeMutableBufferPointer { histograms in
            keys.withUnsafeBufferPointer { keys in
                for key in keys {
                    for byte in 0..<16 { histograms[byte << 8 | digit(key, byte)] += 1 }
                }
            }
        }
        var scratch = keys
        var sortedIsInKeys = true
        for byte in 0..<16 {
            let histogram = histograms[(byte << 8)..<((byte + 1) << 8)]
            if histogram.contains(count) { continue }  // Every key has the same byte here.
            var offsets = [Int](repeating: 0, count: 256)
            var total = 0
            for (digit, n) in histogram.enumerated() {
                offsets[digit] = total
                total += n
            }
            if sortedIsInKeys {
                scatter(from: keys, to: &scratch, byte: byte, offsets: &offsets)
            } else {
                scatter(from: scratch, to: &keys, byte: byte, offsets: &offsets)
            }
            sortedIsInKeys.toggle()
        }
        if !sortedIsInKeys { swap(&keys, &scratch) }
        if descending {
            for index in keys.indices {
                keys[index].high = ~keys[index].high
                keys[index].low = ~keys[index].low
            }
        }
    }

    private static func scatter(
        from source: [PackedVersionKey], to destination: inout [PackedVersionKey], byte: Int, offsets: inout [Int]
    ) {
        source.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer { destination in
                offsets.withUnsafeMutableBufferPointer { offsets in
                    for key in source {
                        let digit = digit(key, byte)
                        destination[offsets[digit]] = key
                        offsets[digit] += 1
                    }
                }
            }
        }
    }

    /// Byte `byte` of the key, 0 the least significant byte of `low`, 15 the most of `high`.
    @inline(__always)
    private static func digit(_ key: PackedVersionKey, _ byte: Int) -> Int {
        let word = byte < 8 ? key.low : key.high
        return Int(truncatingIfNeeded: word >> UInt64((byte & 7) << 3)) & 0xFF
    }
}
