import StoreReleaseCore

/// An App Store storefront, by its ISO 3166-1 country code (`us`, `cn`, `jp`).
///
/// The lookup API answers per storefront: an app sold only in China returns `results: []`
/// without `country=cn` (seed 000). StoreKit's `Storefront.countryCode` gives the alpha-3 form
/// (`CHN`); both forms are accepted and stored as the lowercase alpha-2 code the API takes. Only
/// the App Store's storefronts (``AppStoreStorefront/all``) are: a country Apple runs no
/// storefront in (`bd`) is refused like any other unknown code.
public struct StorefrontCountry: Sendable, Hashable {
    /// The lowercase ISO 3166-1 alpha-2 code (`cn`).
    public let code: String

    /// Validates a storefront's code: ISO 3166-1 alpha-2 (`cn`, `CN`) or alpha-3 (`CHN`), any case.
    ///
    /// - Throws: ``StorefrontCountryError`` naming the code when it is no App Store storefront's.
    public init(_ code: String) throws(StorefrontCountryError) {
        guard (2...3).contains(code.utf8.count), let alpha2 = AppStoreStorefront.codes[code.lowercased()] else {
            throw StorefrontCountryError(input: code)
        }
        self.code = alpha2
    }

    /// The United States storefront, which the lookup API uses when no country is given.
    public static let unitedStates = StorefrontCountry(validated: "us")

    /// A code known to be valid (the catalogue's).
    init(validated code: String) {
        self.code = code
    }

    /// The storefronts in the order given, each once (`us,us,US` is one storefront).
    public static func unique(_ countries: [StorefrontCountry]) -> [StorefrontCountry] {
        var seen: Set<StorefrontCountry> = []
        return countries.filter { seen.insert($0).inserted }
    }
}

extension StorefrontCountry: CustomStringConvertible {
    /// The lowercase alpha-2 code.
    public var description: String { code }
}

/// A code that is no App Store storefront's.
///
/// Not a country code (`zz`), or a country Apple runs no storefront in (`bd`).
public struct StorefrontCountryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code as given.
    public let input: String

    /// `"bd" is not an App Store storefront (…)`; a long input is cut to its first characters.
    public var description: String {
        let shown = input.count > 12 ? String(input.prefix(12)).debugDescription + "…" : input.debugDescription
        return "\(shown) is not an App Store storefront (the App Store has \(AppStoreStorefront.all.count): give two "
            + "letters such as us or cn, or three such as CHN; storerelease storefronts lists them)"
    }
}

extension StorefrontCountry: Encodable {
    /// Encodes the lowercase code (`cn`), as the lookup API takes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
