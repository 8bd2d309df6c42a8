import StoreReleaseCore

/// Where App Store Connect says an app is sold: every territory, available or not.
///
/// Read from `appAvailabilityV2` and its `territoryAvailabilities`; territory ids are StoreKit's
/// alpha-3 codes (`USA`), kept and mapped to the storefronts the lookup API takes (`us`) where
/// the App Store has one.
public struct AppStoreAvailability: Sendable, Hashable {
    /// One territory's availability.
    public struct Territory: Sendable, Hashable {
        /// App Store Connect's territory id (`USA`).
        public let id: String
        /// The storefront, when the App Store has one in the territory.
        ///
        /// App Store Connect lists territories Apple runs no storefront in (`BGD`): they have
        /// none, and count in neither ``AppStoreAvailability/available`` nor
        /// ``AppStoreAvailability/notAvailable``.
        public let country: StorefrontCountry?
        /// Whether the app can be downloaded there.
        public let available: Bool
        /// Apple's reasons (`AVAILABLE`, `CANNOT_SELL`, `PROCESSING_TO_NOT_AVAILABLE`…).
        public let contentStatuses: [String]

        /// Makes a territory's availability; the country comes from the id.
        public init(id: String, available: Bool, contentStatuses: [String] = []) {
            self.id = id
            self.country = try? StorefrontCountry(id)
            self.available = available
            self.contentStatuses = contentStatuses
        }
    }

    /// Whether the app becomes available in territories Apple adds.
    public let availableInNewTerritories: Bool?
    /// Every territory App Store Connect listed.
    public let territories: [Territory]

    /// Makes an availability.
    public init(availableInNewTerritories: Bool?, territories: [Territory]) {
        self.availableInNewTerritories = availableInNewTerritories
        self.territories = territories
    }

    /// The storefronts where the app is sold, in code order.
    public var available: [StorefrontCountry] { countries { $0.available } }

    /// The storefronts where it is not (never offered, or removed: `CANNOT_SELL`), in code order.
    public var notAvailable: [StorefrontCountry] { countries { !$0.available } }

    private func countries(_ include: (Territory) -> Bool) -> [StorefrontCountry] {
        territories.filter(include).compactMap(\.country).sorted { $0.code < $1.code }
    }
}

/// Where a Play track is available: `edits.countryavailability` of the track.
public struct PlayCountryAvailability: Sendable, Hashable, Codable {
    /// The track (`production`).
    public let track: String
    /// The countries, lower-case alpha-2 (`us`), as the App Store's storefronts are written.
    public let countries: [String]
    /// Whether the rest of the world gets the track too.
    public let restOfWorld: Bool
    /// Whether the track follows production's countries.
    public let syncWithProduction: Bool

    /// Makes an availability.
    public init(track: String, countries: [String], restOfWorld: Bool, syncWithProduction: Bool) {
        self.track = track
        self.countries = countries
        self.restOfWorld = restOfWorld
        self.syncWithProduction = syncWithProduction
    }

    /// The countries in words: `us, cn and the rest of the world`, `every country`.
    ///
    /// A track that follows production is `the same countries as production`.
    public var reach: String {
        if syncWithProduction { return "the same countries as production" }
        if countries.isEmpty { return restOfWorld ? "every country" : "no country" }
        return countries.joined(separator: ", ") + (restOfWorld ? " and the rest of the world" : "")
    }

    /// Whether Play serves the track in a country.
    ///
    /// `nil` when the track follows production, whose countries are another read.
    public func serves(_ country: StorefrontCountry) -> Bool? {
        if syncWithProduction { return nil }
        return restOfWorld || countries.contains(country.code)
    }
}
