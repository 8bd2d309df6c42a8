import StoreReleaseCore

/// The platforms of App Store Connect's versions.
public enum AppStoreConnectPlatform: String, Sendable, Hashable, CaseIterable {
    /// iPhone and iPad (`IOS`).
    case iOS = "IOS"
    /// The Mac (`MAC_OS`).
    case macOS = "MAC_OS"
    /// Apple TV (`TV_OS`).
    case tvOS = "TV_OS"
    /// Apple Vision Pro (`VISION_OS`).
    case visionOS = "VISION_OS"

    /// The platform for a command-line name: `ios`, `macos`, `tvos` or `visionos`.
    public init?(name: String) {
        switch name.lowercased() {
        case "ios": self = .iOS
        case "macos": self = .macOS
        case "tvos": self = .tvOS
        case "visionos": self = .visionOS
        default: return nil
        }
    }
}
