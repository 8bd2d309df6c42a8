/// Google Play's `AppUpdateType`: how an in-app update is presented.
///
/// The raw values are Play's constants: `FLEXIBLE = 0`, `IMMEDIATE = 1`. In JSON they are
/// written in lowercase, as the command-line contract has them (`"flexible"`); any case and the
/// integers decode.
public struct AppUpdateType: PlayConstant {
    /// Play's integer value and constant name.
    public let value: PlayConstantValue

    /// A flexible update: downloads in the background while the app stays usable.
    ///
    /// The app then asks the user to restart (`completeUpdate()`).
    public static let flexible = AppUpdateType(value: .init(0, "FLEXIBLE"))
    /// An immediate update: a full-screen flow that blocks the app until the update is installed.
    public static let immediate = AppUpdateType(value: .init(1, "IMMEDIATE"))

    /// Every constant, in Play's order.
    public static let allValues: [AppUpdateType] = [.flexible, .immediate]

    /// The lowercase name used in JSON: `flexible` or `immediate`.
    public var jsonName: String { name.lowercased() }

    /// Encodes the lowercase ``jsonName``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(jsonName)
    }
}
