/// A type whose JSON names every key of its `CodingKeys`, `null` for what is absent.
///
/// The one `encode(to:)` of such a type is ``EveryKeyEncoding``'s: a conforming type declares
/// its `CodingKeys` (`package`, every stored property written, in their order) and nothing else.
package protocol EveryKeyEncodable: Encodable {
    /// The keys written, in their order: one a stored property.
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension EveryKeyEncodable {
    /// Encodes every key of `CodingKeys`, `null` for a value that is absent; a date ISO 8601.
    public func encode(to encoder: any Encoder) throws {
        try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
    }
}
