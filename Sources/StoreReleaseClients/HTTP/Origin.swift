import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Where a request goes, as the web draws the line a credential must not cross: scheme, host
/// and port.
///
/// A client that carries a token sends it only to its base URL's origin: a `links.next` or a
/// redirect to any other origin is refused, never followed.
package struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `https` or `http`, lower-cased.
    package let scheme: String
    /// The host, lower-cased, without the brackets of an IPv6 literal.
    package let host: String
    /// The port, the scheme's default when the URL names none.
    package let port: Int?

    /// The origin of a URL.
    package init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        var host = url.host?.lowercased() ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        port = url.port ?? ["https": 443, "http": 80][scheme]
    }

    /// Whether the host is this machine: `localhost`, an IPv4 literal in 127.0.0.0/8 written the
    /// usual way (no leading zeros), or `::1`.
    ///
    /// Nothing else counts: `127.example.com` is a name anyone can register.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        return Self.isIPv4(host) && host.hasPrefix("127.")
    }

    /// What keeps a request from reaching this host, or `nil` when nothing does; the same rule
    /// for every base URL and the webhook, said without the URL's path.
    ///
    /// - A host of digits and dots must be an IPv4 address as people write it (four numbers 0 to
    ///   255, no leading zeros): `127.000.000.001` is refused here rather than failing later with
    ///   "NSURLErrorDomain error -1000" (and some systems read `010` as octal).
    /// - An IPv6 literal (`[::1]`) is refused where the URL loading system is
    ///   FoundationNetworking (Linux, Windows), which cannot connect to one
    ///   (swift-corelibs-foundation #5496); on Apple platforms it connects.
    package var hostProblem: String? {
        if !host.isEmpty, host.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }), !Self.isIPv4(host) {
            return "the host \(host) is not an IPv4 address as it is written (four numbers 0 to 255 without "
                + "leading zeros, such as 127.0.0.1)"
        }
        #if canImport(FoundationNetworking)
            if host.contains(":") {
                return "the host [\(host)] is an IPv6 address, which URLSession on this platform cannot connect to "
                    + "(swift-corelibs-foundation #5496): use 127.0.0.1 or localhost"
            }
        #endif
        return nil
    }

    /// How an error that lists the loopback hosts allowed names the IPv6 one: `" or [::1]"` where
    /// it connects, nothing where ``hostProblem`` refuses it.
    package static var ipv6LoopbackNote: String {
        #if canImport(FoundationNetworking)
            return ""
        #else
            return " or [::1]"
        #endif
    }

    /// Whether `text` is a dotted-decimal IPv4 address without leading zeros (`127.0.0.1`).
    private static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { ("0"..."9").contains($0) }
                    && (part == "0" || part.first != "0") && (Int(part) ?? 256) <= 255
            }
    }

    /// `url` as the transport takes it: the scheme lower-cased (`HTTP://` is `http://`; URLSession
    /// answers "unsupported URL" to the other).
    package static func normalized(_ url: URL) -> URL {
        guard let scheme = url.scheme, scheme != scheme.lowercased(),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = scheme.lowercased()
        return components.url ?? url
    }

    /// Whether a credential may travel to this origin: over https, or http to this machine.
    package var isSafeForCredentials: Bool { scheme == "https" || (scheme == "http" && isLoopback) }

    /// `https://host:port`.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
    }
}
