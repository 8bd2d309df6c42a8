import StoreReleaseCore
import StoreReleaseModels

/// What a lookup of apps in many storefronts found, and where an app had no result.
///
/// ``AppStoreLookupClient/lookup(_:in:entity:)`` makes it: every storefront asked for every app,
/// each storefront without a result for an app a ``Missing`` pair.
public struct StorefrontLookup: Sendable, Hashable {
    /// A storefront asked for an app that has no result for it.
    public struct Missing: Sendable, Hashable {
        /// The storefront.
        public let country: StorefrontCountry
        /// The app it has no result for.
        public let app: AppStoreApp

        /// Makes a missing pair.
        public init(country: StorefrontCountry, app: AppStoreApp) {
            self.country = country
            self.app = app
        }
    }

    /// The releases found, storefront by storefront.
    ///
    /// In the order the storefronts were asked, each storefront's apps in the order given.
    public let found: [StoreRelease]
    /// Every storefront and app without a result, in the same order.
    public let missing: [Missing]

    /// Makes a result.
    public init(found: [StoreRelease], missing: [Missing]) {
        self.found = found
        self.missing = missing
    }

    /// Every storefront has every app.
    public var isComplete: Bool { missing.isEmpty }

    /// The storefronts and apps without a result, `nil` when there are none.
    ///
    /// Storefronts missing the same apps are named together: `no result for App Store id 7 in
    /// storefronts de, fr; for App Store ids 7, 8 in storefront gb`.
    public var missingDescription: String? {
        guard !missing.isEmpty else { return nil }
        var order: [[AppStoreApp]] = []
        var storefronts: [[AppStoreApp]: [String]] = [:]
        var appsOf: [StorefrontCountry: [AppStoreApp]] = [:]
        var countries: [StorefrontCountry] = []
        for pair in missing {
            if appsOf[pair.country] == nil { countries.append(pair.country) }
            appsOf[pair.country, default: []].append(pair.app)
        }
        for country in countries {
            let apps = appsOf[country] ?? []
            if storefronts[apps] == nil { order.append(apps) }
            storefronts[apps, default: []].append(country.code)
        }
        let groups = order.map { apps in
            let codes = storefronts[apps] ?? []
            return "for \(Self.names(apps)) in storefront\(codes.count == 1 ? "" : "s") "
                + codes.joined(separator: ", ")
        }
        return "no result " + groups.joined(separator: "; ")
    }

    /// `App Store id 7`, `App Store ids 7, 8`, `bundle id com.example.app`.
    static func names(_ apps: [AppStoreApp]) -> String {
        var ids: [String] = []
        var bundleIDs: [String] = []
        for app in apps {
            switch app {
            case .id(let id): ids.append(String(id))
            case .bundleID(let bundleID): bundleIDs.append(bundleID)
            }
        }
        var parts: [String] = []
        if !ids.isEmpty { parts.append("App Store id\(ids.count == 1 ? "" : "s") " + ids.joined(separator: ", ")) }
        if !bundleIDs.isEmpty {
            parts.append("bundle id\(bundleIDs.count == 1 ? "" : "s") " + bundleIDs.joined(separator: ", "))
        }
        return parts.joined(separator: " and ")
    }
}
