/// The platforms of App Store Connect's versions.
public enum AppStoreConnectPlatform: String, Sendable, Hashable, CaseIterable {
    /// iPhone and iPad (`IOS`).
    case iOS = "IOS"
    /// The Mac (`MAC_OS`).
    case macOS = "MAC_OS"
    /// Apple TV (`TV_OS`).
    case tvOS = "TV_OS"

    /// The platform for a command-line name: `ios`, `macos` or `tvos`.
    public init?(name: String) {
        switch name.lowercased() {
        case "ios": self = .iOS
        case "macos": self = .macOS
        case "tvos": self = .tvOS
        default: return nil
        }
    }
}
