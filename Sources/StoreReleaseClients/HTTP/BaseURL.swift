import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The rule every client's base URL follows: `https`, or `http` on a loopback address (tests).
enum BaseURL {
    /// What is wrong with `url` as a base URL, or `nil` when nothing is.
    ///
    /// Loopback means `localhost`, an IPv4 literal in 127.0.0.0/8 or `::1` (``Origin/isLoopback``).
    static func problem(with url: URL) -> String? {
        let origin = Origin(url)
        guard origin.isSafeForCredentials else {
            return "base URL \(url.absoluteString.debugDescription) must be https (http only on a loopback address: "
                + "localhost, 127.x.x.x or [::1])"
        }
        guard !origin.host.isEmpty, url.query == nil else {
            return "base URL \(url.absoluteString.debugDescription) needs a host and no query"
        }
        return nil
    }

    /// `base` followed by `path` (which starts with `/`), without doubling the slash.
    static func appending(_ path: String, to base: URL) -> URL? {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path)
    }

    /// One path segment, percent-encoded (letters, digits and `-._~:` stay as they are).
    static func segment(_ text: String) -> String {
        let allowed = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
