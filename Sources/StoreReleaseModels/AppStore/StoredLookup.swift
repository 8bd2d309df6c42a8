import Foundation
import StoreReleaseCore

/// A lookup saved to a file: `storerelease lookup`'s output or the API's response.
///
/// The first is a JSON array of releases; the second, the lookup API's own JSON.
public enum StoredLookup {
    /// The releases in a stored lookup, each with its storefront.
    ///
    /// The storefront is as written by `storerelease lookup`, or for an API response read from
    /// its `trackViewUrl` (`https://apps.apple.com/cn/app/…` is `cn`; `nil` when it names none).
    ///
    /// - Throws: The `DecodingError` of the form the data has: a JSON array is read as releases
    ///   (a release whose `country` is no storefront, `"bd"`, is an error naming it), anything else
    ///   as the API's response; or one naming a key given twice or a number a `Double` cannot hold.
    public static func releases(in data: Data) throws -> [StoreRelease] {
        try StrictJSON.check(data)
        if StrictJSON.firstByte(of: data) == UInt8(ascii: "[") {
            return try JSONDecoder().decode([StoreRelease].self, from: data)
        }
        let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: data)
        return response.results.map { StoreRelease($0, country: $0.storefront) }
    }
}

extension AppStoreLookupResult {
    /// The storefront this result came from, read from its `trackViewUrl`.
    ///
    /// `https://apps.apple.com/cn/app/…` is `cn`; `nil` when the URL names none or is not Apple's.
    public var storefront: StorefrontCountry? {
        guard let url = trackViewUrl.flatMap(AppStoreLinks.trusted(trackViewUrl:)),
            let code = url.pathComponents.dropFirst().first, code.count == 2
        else { return nil }
        return try? StorefrontCountry(code)
    }
}
