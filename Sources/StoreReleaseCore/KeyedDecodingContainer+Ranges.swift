/// Numbers read at a key and checked where they are read, the message naming the key and the value.
extension KeyedDecodingContainer {
    /// The number at `key`, which must lie in `range`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the key: `availableVersionCode -1 is outside 0...2100000000`.
    package func decode<Number: Decodable & Comparable>(
        _ type: Number.Type, forKey key: Key, within range: ClosedRange<Number>
    ) throws -> Number {
        try checked(decode(type, forKey: key), forKey: key, within: range)
    }

    /// The number at `key` if the key is there and not null, which must lie in `range`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the key: `updatePriority 6 is outside 0...5`.
    package func decodeIfPresent<Number: Decodable & Comparable>(
        _ type: Number.Type, forKey key: Key, within range: ClosedRange<Number>
    ) throws -> Number? {
        try decodeIfPresent(type, forKey: key).map { number in try checked(number, forKey: key, within: range) }
    }

    /// The number at `key` if the key is there and not null, which must not be negative.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the key: `bytesDownloaded -4 is negative`.
    package func decodeNonNegativeIfPresent<Number: Decodable & Comparable & Numeric>(
        _ type: Number.Type, forKey key: Key
    ) throws -> Number? {
        guard let number = try decodeIfPresent(type, forKey: key) else { return nil }
        guard number >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(key.stringValue) \(number) is negative")
        }
        return number
    }

    private func checked<Number: Comparable>(_ number: Number, forKey key: Key, within range: ClosedRange<Number>)
        throws -> Number
    {
        guard range.contains(number) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(key.stringValue) \(number) is outside \(range)")
        }
        return number
    }
}
