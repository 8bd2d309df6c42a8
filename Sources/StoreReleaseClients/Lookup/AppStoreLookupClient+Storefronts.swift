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

    /// Sweeps storefronts for an app: one release for each storefront that has it.
    ///
    /// In the order given; a storefront without it is left out (a sweep reports it as missing
    /// or not sold).
    ///
    /// - Throws: ``AppStoreLookupError/notFound(query:country:)`` when no storefront has it,
    ///   and any other failure at once.
    public func sweep(_ app: AppStoreApp, in countries: [StorefrontCountry]) async throws(AppStoreLookupError)
        -> [StoreRelease]
    {
        var releases: [StoreRelease] = []
        var firstMissing: AppStoreLookupError?
        for country in countries {
            do throws(AppStoreLookupError) {
                releases.append(try await lookup(app, country: country))
            } catch {
                guard case .notFound = error else { throw error }
                if firstMissing == nil { firstMissing = error }
            }
        }
        if releases.isEmpty, let firstMissing { throw firstMissing }
        return releases
    }

    /// Looks many apps up and answers in the order asked, with the ids the storefront lacks.
    ///
    /// Batched as ``lookup(ids:country:entity:)`` does; each id is answered once.
    ///
    /// - Returns: The releases found, in the order of their first id, and the missing ids.
    public func releases(ids: [Int], country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil)
        async throws(AppStoreLookupError) -> (found: [StoreRelease], missing: [Int])
    {
        let byID = try await lookup(ids: ids, country: country, entity: entity)
        var seen: Set<Int> = []
        let unique = ids.filter { seen.insert($0).inserted }
        return (unique.compactMap { byID[$0] }, unique.filter { byID[$0] == nil })
    }
}
