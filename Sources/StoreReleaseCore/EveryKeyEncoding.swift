import Foundation

/// The one way the package's JSON writes every key: each stored property its `CodingKeys` name,
/// in their order, `null` for what is absent (the contract's keys are always present).
///
/// Swift's synthesized `Encodable` leaves a `nil` property out; the documents the command line
/// prints (releases, decisions, reports, steps) must name every key. A type's `encode(to:)` is
/// then one line: `try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)`.
/// A `Date` is written as ISO 8601 (`2021-02-02T08:15:22Z`), anything else as it encodes itself.
package enum EveryKeyEncoding {
    /// Encodes the stored properties of `value` that `keys` names, in the keys' order.
    ///
    /// - Throws: `EncodingError.invalidValue` when a key names no stored property, or a property
    ///   is not `Encodable`.
    package static func encode<Key: CodingKey & CaseIterable>(_ value: Any, keys _: Key.Type, to encoder: any Encoder)
        throws
    {
        try encode(value, keys: Key.allCases, to: encoder)
    }

    /// Encodes the stored properties of `value` that `keys` names, in that order: a type whose
    /// last keys are written only sometimes writes the rest with this, then those itself.
    ///
    /// - Throws: `EncodingError.invalidValue` when a key names no stored property, or a property
    ///   is not `Encodable`.
    package static func encode<Key: CodingKey>(_ value: Any, keys: some Sequence<Key>, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var properties: [String: Any] = [:]
        for child in Mirror(reflecting: value).children {
            if let label = child.label { properties[label] = child.value }
        }
        for key in keys {
            guard let property = properties[key.stringValue] else {
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: encoder.codingPath + [key],
                        debugDescription: "\(type(of: value)) has no stored property \(key.stringValue)"))
            }
            try encode(property, forKey: key, in: &container)
        }
    }

    private static func encode<Key: CodingKey>(
        _ property: Any, forKey key: Key, in container: inout KeyedEncodingContainer<Key>
    ) throws {
        let mirror = Mirror(reflecting: property)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return try container.encodeNil(forKey: key) }
            return try encode(wrapped, forKey: key, in: &container)
        }
        if let date = property as? Date { return try container.encode(date.formatted(.iso8601), forKey: key) }
        guard let encodable = property as? any Encodable else {
            throw EncodingError.invalidValue(
                property,
                .init(
                    codingPath: container.codingPath + [key],
                    debugDescription: "\(key.stringValue) (\(type(of: property))) is not Encodable"))
        }
        try container.encode(encodable, forKey: key)
    }
}
