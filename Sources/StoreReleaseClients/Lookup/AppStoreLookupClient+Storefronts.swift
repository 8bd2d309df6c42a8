import StoreReleaseCore
import StoreReleaseModels

extension AppStoreLookupClient {
    /// Looks an app up by id or bundle id in one storefront.
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` when the storefront does not have it.
    public func lookup(_ app: AppStoreApp, country: StorefrontCountry?) async throws(HTTPClientError)
        -> StoreRelease
    {
        switch app {
        case .id(let id): return try await lookup(id: id, country: country)
        case .bundleID(let bundleID): return try await lookup(bundleID: bundleID, country: country)
        }
    }

    /// Looks an app up in each storefront, one after the other within the rate limit.
    ///
    /// Each storefront is asked once, however often it is given.
    ///
    /// - Returns: One release per storefront, in the order given, each with its country.
    /// - Throws: The first failure, naming its storefront.
    public func lookup(_ app: AppStoreApp, in countries: [StorefrontCountry]) async throws(HTTPClientError)
        -> [StoreRelease]
    {
        let result = try await lookup([app], in: countries)
        if let first = result.missing.first {
            throw .lookup(.notFound(query: first.app.description, country: first.country))
        }
        return result.found
    }

    /// Sweeps storefronts for an app: one release for each storefront that has it.
    ///
    /// In the order given, each storefront asked once; a storefront without it is left out (a
    /// sweep reports it as missing or not sold).
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` when no storefront has it,
    ///   and any other failure at once.
    public func sweep(_ app: AppStoreApp, in countries: [StorefrontCountry]) async throws(HTTPClientError)
        -> [StoreRelease]
    {
        let result = try await lookup([app], in: countries)
        if result.found.isEmpty, let first = result.missing.first {
            throw .lookup(.notFound(query: first.app.description, country: first.country))
        }
        return result.found
    }

    /// Asks every storefront for every app: the releases found and each storefront without one.
    ///
    /// Storefronts are de-duplicated first (`us`, `us`, `US` is one storefront asked once), and so
    /// are apps. In each storefront the ids go 200 a request (450 ids in 3 storefronts are 9
    /// requests), a bundle id one a request, all under the client's rate limit. A storefront that
    /// has no result for an app is a ``StorefrontLookup/Missing`` pair, not a failure.
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when no app is given, and any other
    ///   failure at once (a 5xx after the retries, a bundle id that answers with another app…).
    public func lookup(_ apps: [AppStoreApp], in countries: [StorefrontCountry], entity: AppStoreEntity? = nil)
        async throws(HTTPClientError) -> StorefrontLookup
    {
        var seen: Set<AppStoreApp> = []
        let apps = apps.filter { seen.insert($0).inserted }
        guard !apps.isEmpty else { throw .lookup(.invalidRequest("no App Store id or bundle id given")) }
        let ids = apps.compactMap { app -> Int? in
            guard case .id(let id) = app else { return nil }
            return id
        }
        var found: [StoreRelease] = []
        var missing: [StorefrontLookup.Missing] = []
        for country in StorefrontCountry.unique(countries) {
            let byID = ids.isEmpty ? [:] : try await lookup(ids: ids, country: country, entity: entity)
            for app in apps {
                var release: StoreRelease?
                switch app {
                case .id(let id):
                    release = byID[id]
                case .bundleID(let bundleID):
                    do throws(HTTPClientError) {
                        release = try await lookup(bundleID: bundleID, country: country, entity: entity)
                    } catch {
                        guard case .lookup(.notFound) = error.reason else { throw error }
                    }
                }
                if let release {
                    found.append(release)
                } else {
                    missing.append(StorefrontLookup.Missing(country: country, app: app))
                }
            }
        }
        return StorefrontLookup(found: found, missing: missing)
    }

    /// Looks many apps up and answers in the order asked, with the ids the storefront lacks.
    ///
    /// Batched as ``lookup(ids:country:entity:)`` does; each id is answered once.
    ///
    /// - Returns: The releases found, in the order of their first id, and the missing ids.
    public func releases(ids: [Int], country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil)
        async throws(HTTPClientError) -> (found: [StoreRelease], missing: [Int])
    {
        let byID = try await lookup(ids: ids, country: country, entity: entity)
        var seen: Set<Int> = []
        let unique = ids.filter { seen.insert($0).inserted }
        return (unique.compactMap { byID[$0] }, unique.filter { byID[$0] == nil })
    }
}
