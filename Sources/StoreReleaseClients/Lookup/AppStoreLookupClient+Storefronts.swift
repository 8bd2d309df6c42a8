import StoreReleaseCore
import StoreReleaseModels

extension AppStoreLookupClient {
    /// Looks an app up by id or bundle id in one storefront.
    ///
    /// - Throws: ``AppStoreLookupError/notFound(query:country:)`` when the storefront does not have it.
    public func lookup(_ app: AppStoreApp, country: StorefrontCountry?) async throws(AppStoreLookupError)
        -> StoreRelease
    {
        switch app {
        case .id(let id): return try await lookup(id: id, country: country)
        case .bundleID(let bundleID): return try await lookup(bundleID: bundleID, country: country)
        }
    }

    /// Looks an app up in each storefront, one after the other within the rate limit.
    ///
    /// - Returns: One release per storefront, in the order given, each with its country.
    /// - Throws: The first failure, naming its storefront.
    public func lookup(_ app: AppStoreApp, in countries: [StorefrontCountry]) async throws(AppStoreLookupError)
        -> [StoreRelease]
    {
        var releases: [StoreRelease] = []
        for country in countries {
            releases.append(try await lookup(app, country: country))
        }
        return releases
    }
}
