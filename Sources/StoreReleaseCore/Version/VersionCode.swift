/// A Google Play `versionCode`: the positive integer Play orders releases by.
///
/// Play accepts values from 1 to 2,100,000,000. The value is what Play compares; the version
/// name (`versionName`, an App Store–style ``Version``) is only for people.
public struct VersionCode: Sendable, Hashable, RawRepresentable {
    /// The largest `versionCode` Google Play accepts.
    public static let maximum = 2_100_000_000

    /// The integer value, in `1...2_100_000_000`.
    public let rawValue: Int

    /// Wraps an integer, returning `nil` outside `1...2_100_000_000`.
    public init?(rawValue: Int) {
        guard (1...Self.maximum).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Parses a `versionCode` from decimal digits, as the Play Developer API writes it (`"88"`).
    ///
    /// - Throws: ``VersionError`` when the text is not decimal digits or is out of range.
    public init(parsing text: String) throws(VersionError) {
        guard !text.isEmpty else { throw VersionError(input: text, reason: .empty, scheme: nil) }
        if let offset = text.firstIndex(where: { !("0"..."9").contains($0) }) {
            let reason = VersionError.Reason.unexpectedCharacter(
                text[offset], offset: text.distance(from: text.startIndex, to: offset))
            throw VersionError(input: text, reason: reason, scheme: nil)
        }
        guard let value = Int(text), let code = VersionCode(rawValue: value) else {
            throw VersionError(input: text, reason: .versionCodeOutOfRange, scheme: nil)
        }
        self = code
    }
}

extension VersionCode {
    /// The `versionCode` a version names when it is written as one number (`81`), within Play's range.
    ///
    /// What `storerelease health --version 81` means on Google Play, where a release is known by
    /// its code as often as by its name. `nil` for `8.0.10`, `81.0`, `81-beta` or a number outside
    /// 1…``maximum``.
    public init?(exactly version: Version) {
        guard let code = try? VersionCode(parsing: version.text) else { return nil }
        self = code
    }
}

extension VersionCode: Comparable {
    /// Orders codes by value, as Play does.
    public static func < (lhs: VersionCode, rhs: VersionCode) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension VersionCode: CustomStringConvertible {
    /// The decimal value.
    public var description: String { String(rawValue) }
}

extension VersionCode: Codable {
    /// Decodes a JSON integer or a string of digits.
    ///
    /// The integer is `AppUpdateInfo.availableVersionCode`; the string, the Play Developer API's
    /// `versionCodes`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            guard let code = VersionCode(rawValue: value) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: VersionError(input: String(value), reason: .versionCodeOutOfRange, scheme: nil)
                        .description)
            }
            self = code
            return
        }
        self = try container.parsing(container.decode(String.self)) { text throws(VersionError) in
            try VersionCode(parsing: text)
        }
    }

    /// Encodes the integer value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
