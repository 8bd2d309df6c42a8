import Foundation
import StoreReleaseCore

/// `https` URLs read from input this package does not control (payloads, manifests).
enum HTTPSURL {
    /// The URL in `text` when it is `https` with a host, else `nil`; the scheme, which compares
    /// without case, comes back in lowercase (`httpS:` → `https:`).
    static func components(_ text: String) -> URLComponents? {
        guard var components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            components.host?.isEmpty == false
        else { return nil }
        components.scheme = "https"
        return components
    }
}
