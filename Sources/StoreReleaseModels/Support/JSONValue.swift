import Foundation
import StoreReleaseCore

/// Any JSON value, kept as it was read: what a request body is when it must be shown exactly.
///
/// A store write keeps every field it read (a Play track's releases, with keys this package does
/// not model) and prints the body it sends in a plan; both need JSON that is not a fixed type.
/// Numbers are `Double`s (the bodies written hold fractions and small counts; Google's int64
/// values travel as strings).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are written sorted.
    case object([String: JSONValue])

    /// The value of `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The string this is, if it is one.
    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// Reads JSON text (strictly: a duplicate key or a lone surrogate is an error).
    ///
    /// - Throws: The decoder's error naming where the text is not JSON.
    public init(json data: Data) throws {
        try StrictJSON.check(data)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Encodes any `Encodable` value as a JSON value.
    ///
    /// - Throws: The encoder's error.
    public init(encoding value: some Encodable) throws {
        try self.init(json: try JSONEncoder().encode(value))
    }

    /// The value as compact JSON text, keys sorted.
    public var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}

extension JSONValue: Codable {
    /// Decodes whatever JSON value is there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as it is; a whole number is written without a fraction.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
