import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The rule every client's base URL follows: `https`, or `http` on a loopback address (tests).
enum BaseURL {
    /// What is wrong with `url` as a base URL, or `nil` when nothing is.
    ///
    /// The scheme is compared without regard to case (`HTTP://` is `http://`, and is sent as that:
    /// ``appending(_:to:)``). Loopback means `localhost`, an IPv4 literal in 127.0.0.0/8 or `::1`
    /// (``Origin/isLoopback``); a host no request could reach is refused too (``Origin/hostProblem``).
    ///
    /// A user name or password in it (`https://user:pass@host`) is refused first, and never shown:
    /// a credential travels in a token, not in a URL that messages and logs repeat.
    static func problem(with url: URL) -> String? {
        let origin = Origin(url)
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let hasUserInfo = url.user != nil || url.password != nil || parts?.user != nil || parts?.password != nil
        parts?.user = nil
        parts?.password = nil
        let shown = (parts?.url ?? url).absoluteString.debugDescription
        if hasUserInfo {
            return "base URL \(shown) carries a user name or password: a credential goes in a token, never in a URL"
        }
        if let problem = origin.hostProblem { return "base URL \(shown): \(problem)" }
        guard origin.isSafeForCredentials else {
            return
                "base URL \(shown) must be https (http only on a loopback address: localhost or 127.x.x.x\(Origin.ipv6LoopbackNote))"
        }
        guard !origin.host.isEmpty, url.query == nil else {
            return "base URL \(shown) needs a host and no query"
        }
        return nil
    }

    /// `base` (its scheme lower-cased) followed by `path` (which starts with `/`), without
    /// doubling the slash.
    static func appending(_ path: String, to base: URL) -> URL? {
        var text = Origin.normalized(base).absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path)
    }

    /// A value as one path segment or one query value: every byte but RFC 3986's unreserved
    /// characters (letters, digits, `-._~`) percent-encoded, `:` and `/` included.
    ///
    /// Every client builds its paths and queries from values through this one function: Google's
    /// URL scheme reads a trailing `:x` as a custom method, so the track `wear:production` goes as
    /// `wear%3Aproduction`; a value of dots alone (`..`) is encoded too, so that nothing on the
    /// way takes it for a step up the path.
    static func component(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let dotsOnly = !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
        var encoded: [UInt8] = []
        for byte in text.utf8 {
            let unreserved =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_~".utf8.contains(byte)
                || (byte == UInt8(ascii: ".") && !dotsOnly)
            if unreserved {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}

extension URL {
    /// A URL the package writes as a constant (a client's default host), which is valid by
    /// construction: a typo in one is a programming error caught by the first test that uses it.
    init(constant text: StaticString) {
        guard let url = URL(string: "\(text)") else { preconditionFailure("a constant, valid URL: \(text)") }
        self = url
    }
}
