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

    /// Whether the host is this machine: `localhost`, an IPv4 literal in 127.0.0.0/8, or `::1`.
    ///
    /// Nothing else counts: `127.example.com` is a name anyone can register.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber }
                && (Int(part) ?? 256) <= 255
        }
    }

    /// Whether a credential may travel to this origin: over https, or http to this machine.
    package var isSafeForCredentials: Bool { scheme == "https" || (scheme == "http" && isLoopback) }

    /// `https://host:port`.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
    }
}
