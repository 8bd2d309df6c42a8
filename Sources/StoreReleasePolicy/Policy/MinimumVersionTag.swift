import Foundation
import StoreReleaseCore

/// The minimum supported version an app states in its store description: `[:mav: 1.2.3]`.
///
/// upgrader's syntax, so a description written for it works here: `[:mav:`, any spaces, the
/// version, any spaces, `]`, in any case (`[:MAV: 2.0]`), anywhere in the text; the first tag
/// counts. It forces an update without a server of your own: below the version, the decision is
/// `immediate` / `belowMinimumSupported` (the policy's own minimum wins when it is higher). A tag
/// whose version does not parse is ignored, and the decision says so in its warnings.
public enum MinimumVersionTag: Sendable, Hashable {
    /// The tag and its version.
    case version(Version)
    /// A tag whose version is not one (`[:mav: soon]`), with why.
    case malformed(tag: String, reason: String)

    /// The first `[:mav: …]` tag in `description`, or `nil` when it has none.
    public static func find(in description: String) -> MinimumVersionTag? {
        let opener = "[:mav:"
        guard let start = description.range(of: opener, options: .caseInsensitive) else { return nil }
        let rest = description[start.upperBound...]
        guard let close = rest.firstIndex(of: "]") else {
            return .malformed(tag: String(description[start.lowerBound...].prefix(40)), reason: "it has no closing ]")
        }
        let tag = String(description[start.lowerBound...close])
        let text = rest[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .malformed(tag: tag, reason: "it names no version") }
        do throws(VersionError) {
            return .version(try Version(parsing: text))
        } catch {
            return .malformed(tag: tag, reason: "\(error)")
        }
    }

    /// One line for a decision's warnings, when the tag is ignored.
    public var warning: String? {
        guard case .malformed(let tag, let reason) = self else { return nil }
        return "the description's \(tag) was ignored: \(reason)"
    }
}
