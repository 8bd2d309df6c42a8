import StoreReleaseCore
import StoreReleaseModels

/// How one country stands in a sweep of every storefront.
///
/// What the App Store serves there against where the app is sold, and whether Play serves the
/// track there.
public struct CountryStatus: Sendable, Hashable, Encodable {
    /// The App Store in the country.
    public enum AppStore: String, Sendable, Hashable, Encodable, CaseIterable {
        /// The storefront serves the newest version.
        case live
        /// The storefront serves an older one (the CDN lag).
        case behind
        /// The app should be there (asked for, or sold there) but the storefront has no result.
        case missing
        /// App Store Connect says the app is not sold there, and the storefront agrees.
        case notSold
        /// The storefront has a result where App Store Connect says the app is not sold.
        case unexpected
    }

    /// Google Play in the country.
    public enum GooglePlay: String, Sendable, Hashable, Encodable, CaseIterable {
        /// The track is available there.
        case available
        /// It is not.
        case notAvailable
        /// Play's countries were not read (a stored track, or one that follows production).
        case unknown
    }

    /// The country, lower-case alpha-2 (`cn`).
    public let country: String
    /// The App Store there.
    public let appStore: AppStore
    /// Google Play there.
    public let googlePlay: GooglePlay

    /// Makes a status.
    public init(country: String, appStore: AppStore, googlePlay: GooglePlay) {
        self.country = country
        self.appStore = appStore
        self.googlePlay = googlePlay
    }

    /// Classifies every country a sweep knows of.
    ///
    /// The countries are those asked for (`expected`), those with a result, and, when App Store
    /// Connect's availability is known, every territory it lists, in code order. A result where
    /// the app is not sold is `unexpected`; no result where it is not sold is `notSold`; no result
    /// where it should be is `missing`; a result is `live` at the newest version, else `behind`.
    static func classify(
        results: [String: Version?], newest: Version?, expected: [StorefrontCountry],
        availability: AppStoreAvailability?, play: PlayCountryAvailability?
    ) -> [CountryStatus] {
        let notSold = Set((availability?.notAvailable ?? []).map(\.code))
        var codes = Set(results.keys).union(expected.map(\.code))
        if let availability { codes.formUnion(availability.territories.compactMap(\.country?.code)) }
        return codes.sorted().map { code in
            let appStore: AppStore
            if let version = results[code] {
                if notSold.contains(code) {
                    appStore = .unexpected
                } else {
                    appStore = version != nil && version == newest ? .live : .behind
                }
            } else {
                appStore = notSold.contains(code) ? .notSold : .missing
            }
            let served = play.flatMap { availability in
                (try? StorefrontCountry(code)).flatMap { availability.serves($0) }
            }
            let googlePlay: GooglePlay = served.map { $0 ? .available : .notAvailable } ?? .unknown
            return CountryStatus(country: code, appStore: appStore, googlePlay: googlePlay)
        }
    }
}
