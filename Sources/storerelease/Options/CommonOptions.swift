import Foundation
import StoreReleaseKit

/// The flags several commands share, declared once; a command that says more of one gives it its
/// own help with ``Option/help(_:valueName:)``.
enum CommonOptions {
    /// `--format`, with the words `Format` has.
    static func format<Format: ChoiceArgument>(_ help: String) -> Option<Format> {
        Option("--format", help)
    }

    /// `--quiet`: no progress line on stderr (`lookup`, `parity`, `watch`).
    static let quiet = Switch(
        "--quiet", "No progress on stderr (a sweep's storefronts looked up, the lookup limit's waits).")

    static let now = Option<Date>("--now", "ISO8601", "The current time (default: now).")

    static let releaseDelayHours = Option<Hours>(
        "--release-delay-hours", "H", "How old a release must be before forcing it (default 24).")

    static let timeout = Option<Seconds>(
        "--timeout", "S", "Seconds each attempt may take in all, the whole answer read (default 10).")

    static let scheme = Option<VersionScheme>(
        "--scheme", "appstore|semver",
        "How to read versions: appstore (default; dot-separated numbers, 1.2 == 1.2.0) or semver (SemVer 2.0.0)."
    )
}
