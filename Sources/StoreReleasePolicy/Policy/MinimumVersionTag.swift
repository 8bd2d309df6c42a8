import Foundation
import StoreReleaseCore

/// The minimum supported version an app states in its store description: `[:mav: 1.2.3]`.
///
/// upgrader's syntax, so a description written for it works here: `[:mav:`, any spaces, the
/// version, any spaces, `]`, in any case (`[:MAV: 2.0]`), anywhere in the text; the first tag
/// counts. The version is an App Store version (`1.2.3`, `8.0`) or, as upgrader also writes it,
/// SemVer (`0.9.9+4`, `1.0.0-5.2.pre`), compared as SemVer: a pre-release is below its release,
/// build metadata does not count. It forces an update without a server of your own: below the
/// version, the decision is `immediate` / `belowMinimumSupported` (the policy's own minimum wins
/// when it is higher). A tag whose version is neither is ignored, and the decision says so in its
/// warnings, quoting at most the tag's first ``quotedLength`` characters.
public enum MinimumVersionTag: Sendable, Hashable {
    /// The tag and its version.
    case version(Version)
    /// A tag whose version is not one (`[:mav: soon]`), with why.
    ///
    /// `tag` is at most ``quotedLength`` characters of it.
    case malformed(tag: String, reason: String)

    /// The most of a malformed tag a warning quotes.
    public static let quotedLength = 40

    /// The longest version a tag may hold.
    public static let maximumVersionLength = 64

    /// The first `[:mav: …]` tag in `description`, or `nil` when it has none.
    public static func find(in description: String) -> MinimumVersionTag? {
        let opener = "[:mav:"
        guard let start = description.range(of: opener, options: .caseInsensitive) else { return nil }
        let rest = description[start.upperBound...]
        guard let close = rest.firstIndex(of: "]") else {
            return .malformed(tag: quoted(description[start.lowerBound...]), reason: "it has no closing ]")
        }
        let tag = quoted(description[start.lowerBound...close])
        let text = rest[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .malformed(tag: tag, reason: "it names no version") }
        guard text.count <= maximumVersionLength else {
            return .malformed(tag: tag, reason: "its version is longer than \(maximumVersionLength) characters")
        }
        do throws(VersionError) {
            return .version(try Version(parsingAppStoreOrSemVer: text))
        } catch {
            return .malformed(tag: tag, reason: "it is neither an App Store version nor SemVer: \(error.problem)")
        }
    }

    /// At most ``quotedLength`` characters of `text`, marked with `…` when cut.
    private static func quoted(_ text: Substring) -> String {
        text.count <= quotedLength ? String(text) : String(text.prefix(quotedLength)) + "…"
    }

    /// One line for a decision's warnings, when the tag is ignored.
    public var warning: String? {
        guard case .malformed(let tag, let reason) = self else { return nil }
        return "the description's \(tag) was ignored: \(reason)"
    }
}
