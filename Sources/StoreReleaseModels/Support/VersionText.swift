import StoreReleaseCore

/// A version as a store wrote it: the text kept as sent, and the ``Version`` it reads as.
///
/// App Store Connect's `versionString` is whatever the developer typed (`8.0.10`, `1.4 (18)`):
/// an event or a history line names it as written, and reads it as a version where one is
/// needed (``parsed``), so a store's junk is shown, never dropped or turned into another version.
public struct VersionText: Sendable, Hashable, CustomStringConvertible {
    /// The text, as the store sent it.
    public let text: String

    /// The text as a store sent it.
    public init(_ text: String) {
        self.text = text
    }

    /// The version the text reads as, or `nil` when it is not one.
    public var parsed: Version? { Version(text) }

    /// The text, as sent.
    public var description: String { text }

    /// Whether the text is `version` (as written, or read as a version).
    public func names(_ version: Version) -> Bool {
        text == version.description || parsed == version
    }
}

extension VersionText: Codable {
    /// Decodes the text of one JSON string.
    public init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the text as one JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension VersionText: ExpressibleByStringLiteral {
    /// The text of a literal.
    public init(stringLiteral text: String) {
        self.init(text)
    }
}
