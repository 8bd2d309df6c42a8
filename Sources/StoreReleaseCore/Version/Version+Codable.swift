/// The key that chooses the version scheme when decoding.
extension CodingUserInfoKey {
    /// The ``VersionScheme`` that decoding a ``Version`` uses; ``VersionScheme/appStore`` when absent.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.userInfo[.versionScheme] = VersionScheme.semver
    /// ```
    public static let versionScheme: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "StoreReleaseKit.versionScheme") else {
            preconditionFailure("a non-empty raw value is a valid CodingUserInfoKey")
        }
        return key
    }()
}

extension Version: Codable {
    /// Decodes a version from a single string.
    ///
    /// The scheme is `decoder.userInfo[.versionScheme]` (``VersionScheme/appStore`` by default).
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose description is the ``VersionError``'s, at
    ///   the coding path of the bad value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let scheme = decoder.userInfo[.versionScheme] as? VersionScheme ?? .appStore
        self = try container.parsing(container.decode(String.self)) { text throws(VersionError) in
            try Version(parsing: text, scheme: scheme)
        }
    }

    /// Encodes the version as its original text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension Version: LosslessStringConvertible {
    /// The text exactly as it was parsed (`"1.2.0"` stays `"1.2.0"` although it equals `"1.2"`).
    public var description: String { text }

    /// Parses an App Store version, returning `nil` when it is not one.
    ///
    /// Use ``init(parsing:scheme:)`` to learn what is wrong with a string.
    public init?(_ description: String) {
        try? self.init(parsing: description)
    }
}
