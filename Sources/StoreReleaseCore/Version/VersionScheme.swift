/// The grammar a version string is parsed with.
///
/// Two schemes exist today; the type is a struct so that more can be added without breaking
/// clients that switch over it.
///
/// - ``appStore``: one or more non-negative decimal integers separated by `.`, the form of
///   `CFBundleShortVersionString`, Android's `versionName` and the App Store's
///   `minimumOsVersion`. Trailing zero components are insignificant (`1.2 == 1.2.0`) and leading
///   zeros are numeric (`01.2 == 1.2`).
/// - ``semver``: [Semantic Versioning 2.0.0](https://semver.org) exactly: three core
///   components without leading zeros, optional pre-release identifiers after `-` and build
///   metadata after `+`.
public struct VersionScheme: Sendable, Hashable {
    enum Representation: Sendable, Hashable {
        case appStore
        case semver
    }

    let representation: Representation

    private init(representation: Representation) {
        self.representation = representation
    }

    /// Dot-separated non-negative integers, any number of them (`8.0.10`, `10.11.0`, `7.13.88.4021`).
    public static let appStore = VersionScheme(representation: .appStore)

    /// Semantic Versioning 2.0.0 (`1.4.0-beta.2+build.7`).
    public static let semver = VersionScheme(representation: .semver)

    /// Every scheme, in the order the command-line tool lists them.
    public static let allSchemes: [VersionScheme] = [.appStore, .semver]

    /// Looks a scheme up by its name, ignoring case: `appstore` or `semver`; `nil` for any other.
    ///
    /// - Parameter name: The name as a user types it.
    public init?(name: String) {
        guard let scheme = Self.allSchemes.first(where: { $0.name == name.lowercased() }) else {
            return nil
        }
        self = scheme
    }

    /// The scheme's name as the command-line tool spells it: `appstore` or `semver`.
    public var name: String {
        switch representation {
        case .appStore: "appstore"
        case .semver: "semver"
        }
    }
}

extension VersionScheme: CustomStringConvertible {
    /// The scheme's ``name``.
    public var description: String { name }
}
