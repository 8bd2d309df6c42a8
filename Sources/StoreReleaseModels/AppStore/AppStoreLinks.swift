import Foundation
import StoreReleaseCore

/// The URLs that open an app's App Store page.
///
/// On the web, in the App Store app on iOS (`itms-apps://`, seed 001), and in the Mac App Store
/// (`macappstore://`).
public enum AppStoreLinks {
    /// The hosts a lookup payload's `trackViewUrl` may point at.
    public static let appleHosts: Set<String> = ["apps.apple.com", "itunes.apple.com"]

    /// `https://apps.apple.com/{country}/app/id{trackId}`.
    public static func web(trackId: Int, country: StorefrontCountry = .unitedStates) -> URL {
        url("https", trackId: trackId, country: country)
    }

    /// `itms-apps://apps.apple.com/{country}/app/id{trackId}`: opens the App Store app on iOS.
    public static func appStoreApp(trackId: Int, country: StorefrontCountry = .unitedStates) -> URL {
        url("itms-apps", trackId: trackId, country: country)
    }

    /// `macappstore://apps.apple.com/{country}/app/id{trackId}`: opens the Mac App Store.
    public static func macAppStore(trackId: Int, country: StorefrontCountry = .unitedStates) -> URL {
        url("macappstore", trackId: trackId, country: country)
    }

    private static func url(_ scheme: String, trackId: Int, country: StorefrontCountry) -> URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = "apps.apple.com"
        components.path = "/\(country.code)/app/id\(trackId)"
        guard let url = components.url else {
            preconditionFailure("a scheme constant, a fixed host, two letters and a number make a URL")
        }
        return url
    }

    /// A payload's `trackViewUrl` when it is `https` on an Apple host, else `nil`.
    ///
    /// A payload cannot send users anywhere else. Raw non-ASCII in the path (2017 payloads have
    /// `…/us/app/众驾租车/id1197227551?mt=8&uo=4`) is percent-encoded; the scheme and host, which
    /// compare without case, come back in lowercase (`httpS://Apps.Apple.com` → `https://apps.apple.com`).
    public static func trusted(trackViewUrl text: String) -> URL? {
        let allowed = CharacterSet.urlQueryAllowed.union(.urlPathAllowed).union(CharacterSet(charactersIn: "%#"))
        guard let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed),
            var components = HTTPSURL.components(encoded),
            let host = components.host?.lowercased(), appleHosts.contains(host),
            components.user == nil, components.password == nil, components.port == nil
        else { return nil }
        components.host = host
        return components.url
    }
}
