/// Google Play's `AppUpdateType`: how an in-app update is presented.
///
/// The raw values are Play's constants: `FLEXIBLE = 0`, `IMMEDIATE = 1`.
public struct AppUpdateType: Sendable, Hashable {
    /// Play's integer constant.
    public let rawValue: Int

    /// A flexible update: downloads in the background while the app stays usable; the app then
    /// asks the user to restart (`completeUpdate()`).
    public static let flexible = AppUpdateType(rawValue: 0, name: "flexible")
    /// An immediate update: a full-screen flow that blocks the app until the update is installed.
    public static let immediate = AppUpdateType(rawValue: 1, name: "immediate")

    /// Both types, in Play's order.
    public static let allTypes: [AppUpdateType] = [.flexible, .immediate]

    /// The lowercase name used in JSON: `flexible` or `immediate`.
    public let name: String

    private init(rawValue: Int, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// The type with Play's integer constant, `nil` for any other value.
    public init?(rawValue: Int) {
        guard let type = Self.allTypes.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = type
    }

    /// The type with a name, in any case: `flexible`, `FLEXIBLE`, `immediate`, `IMMEDIATE`.
    public init?(name: String) {
        guard let type = Self.allTypes.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = type
    }
}

extension AppUpdateType: CustomStringConvertible {
    /// The lowercase ``name``.
    public var description: String { name }
}

extension AppUpdateType: Codable {
    /// Decodes Play's integer constant or a name (`"flexible"`, `"IMMEDIATE"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            guard let type = AppUpdateType(rawValue: value) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(value) is not an AppUpdateType (0 FLEXIBLE or 1 IMMEDIATE)")
            }
            self = type
            return
        }
        let name = try container.decode(String.self)
        guard let type = AppUpdateType(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(name.debugDescription) is not an AppUpdateType (flexible or immediate)")
        }
        self = type
    }

    /// Encodes the lowercase name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
