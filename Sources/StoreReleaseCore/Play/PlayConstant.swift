/// One of Google Play's integer constants (`InstallStatus.DOWNLOADED = 11`), with its name.
///
/// Each conforming type is a struct with a `static let` per constant, so a constant Play adds
/// later does not break code that switches over today's. JSON may carry either form: the
/// integer a device reports (`11`) or the name a backend writes (`"DOWNLOADED"`); values encode
/// as their names.
public protocol PlayConstant: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Play's integer value and constant name, the one thing a constant stores.
    var value: PlayConstantValue { get }
    /// Every constant of the type.
    static var allValues: [Self] { get }
    /// The type's name in Play's API, for messages (`InstallStatus`).
    static var typeName: String { get }
}

extension PlayConstant {
    /// Play's integer value.
    public var rawValue: Int { value.rawValue }

    /// Play's constant name (`DOWNLOADED`).
    public var name: String { value.name }

    /// The type's name in Play's API: the Swift type's own name, which is Play's.
    public static var typeName: String { String(describing: Self.self) }

    /// The constant with Play's integer value, `nil` for any other.
    public init?(rawValue: Int) {
        guard let value = Self.allValues.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = value
    }

    /// The constant with a name, in any case (`DOWNLOADED`, `downloaded`).
    public init?(name: String) {
        let wanted = name.uppercased()
        guard let value = Self.allValues.first(where: { $0.name == wanted }) else { return nil }
        self = value
    }

    /// The constant named or numbered by `text` (`DOWNLOADED` or `11`).
    ///
    /// - Throws: ``PlayConstantError`` naming the text and the known values.
    public init(parsing text: String) throws(PlayConstantError) {
        if let number = Int(text), let value = Self(rawValue: number) {
            self = value
        } else if let value = Self(name: text) {
            self = value
        } else {
            throw PlayConstantError(typeName: Self.typeName, input: text, known: Self.allValues.map(\.summary))
        }
    }

    /// The name and the value: `DOWNLOADED (11)`.
    public var summary: String { "\(name) (\(rawValue))" }

    /// Play's constant name.
    public var description: String { name }

    /// Decodes the integer or the name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = try container.parsing(container.decodeTextOrInteger()) { text throws(PlayConstantError) in
            try Self(parsing: text)
        }
    }

    /// Encodes the name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// A value that is not one of a Play constant type's values.
public struct PlayConstantError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type, as Play names it (`InstallStatus`).
    public let typeName: String
    /// The text as given.
    public let input: String
    /// The values the type has, as `NAME (value)`.
    public let known: [String]

    /// `"12" is not an InstallStatus (one of UNKNOWN (0), …)`.
    public var description: String {
        "\(input.debugDescription) is not an \(typeName) (one of \(known.joined(separator: ", ")))"
    }
}
