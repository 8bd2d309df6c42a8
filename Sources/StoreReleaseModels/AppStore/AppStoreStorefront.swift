import StoreReleaseCore

/// One App Store storefront: the country code the lookup API takes, StoreKit's code, a name.
public struct AppStoreStorefront: Sendable, Hashable, Encodable, EveryKeyEncodable {
    /// The storefront, as the lookup API takes it (`cn`).
    public let country: StorefrontCountry
    /// StoreKit's `Storefront.countryCode` and App Store Connect's territory id (`CHN`).
    public let alpha3: String
    /// The country or region's English name, as Apple writes it (`China mainland`).
    public let name: String

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case country, alpha3, name
    }
}

extension AppStoreStorefront {
    /// Every App Store storefront, by country code: the sweep `--countries all` makes.
    ///
    /// The App Store's 175 storefronts and no other code. The list is Apple's "App Store
    /// countries and regions" (App Store Connect Help), as two projects outside this one keep it:
    /// Siren (`ArtSabintsev/Siren`, `Sources/Models/AppStoreCountry.swift`) and
    /// app-store-reviews-swift (`jcoynel/app-store-reviews-swift`,
    /// `Sources/AppStoreReviews/Models/Territory.swift`), which agree code for code;
    /// app-store-scraper's `markets` (`facundoolano/app-store-scraper`, `lib/constants.js`: 115 of
    /// them, with Apple's storefront ids such as 143441 for the United States) has none outside it.
    /// `StorefrontCatalogueTests` keeps that reference list as data and fails on any code outside it.
    /// App Store Connect's `TerritoryCode` enumeration (233 codes in
    /// `Tests/Contracts/app-store-connect.subset.json`) names more territories than there are
    /// storefronts: AD, BD, CF, ET, GN, LI, MC, PS and WS, which this list once had, are in none of
    /// the lists above (in Bangladesh a lookup answers nothing for every app, and
    /// `apps.apple.com/bd` redirects to `/us`).
    /// StoreKit's code is ISO 3166-1 alpha-3 (Kosovo, which ISO does not list, is Apple's `XKS`).
    /// Names are CLDR's English short names, as Foundation's `Locale` gives them.
    public static let all: [AppStoreStorefront] = catalogue.map { code, alpha3, name in
        AppStoreStorefront(country: StorefrontCountry(validated: code), alpha3: alpha3, name: name)
    }

    /// The storefront of a country, if the App Store has one there.
    public static func named(_ country: StorefrontCountry) -> AppStoreStorefront? {
        all.first { $0.country == country }
    }

    /// The storefronts' alpha-2 codes (`cn`) and alpha-3 codes (`CHN`), each to its alpha-2 code.
    static let codes: [String: String] = {
        var codes: [String: String] = [:]
        for (code, alpha3, _) in catalogue {
            codes[code] = code
            codes[alpha3.lowercased()] = code
        }
        return codes
    }()

    /// Siren's and app-store-reviews-swift's 175 (see ``all``), in code order.
    private static let catalogue: [(String, String, String)] = [
        ("ae", "ARE", "United Arab Emirates"),
        ("af", "AFG", "Afghanistan"),
        ("ag", "ATG", "Antigua and Barbuda"),
        ("ai", "AIA", "Anguilla"),
        ("al", "ALB", "Albania"),
        ("am", "ARM", "Armenia"),
        ("ao", "AGO", "Angola"),
        ("ar", "ARG", "Argentina"),
        ("at", "AUT", "Austria"),
        ("au", "AUS", "Australia"),
        ("az", "AZE", "Azerbaijan"),
        ("ba", "BIH", "Bosnia and Herzegovina"),
        ("bb", "BRB", "Barbados"),
        ("be", "BEL", "Belgium"),
        ("bf", "BFA", "Burkina Faso"),
        ("bg", "BGR", "Bulgaria"),
        ("bh", "BHR", "Bahrain"),
        ("bj", "BEN", "Benin"),
        ("bm", "BMU", "Bermuda"),
        ("bn", "BRN", "Brunei"),
        ("bo", "BOL", "Bolivia"),
        ("br", "BRA", "Brazil"),
        ("bs", "BHS", "Bahamas"),
        ("bt", "BTN", "Bhutan"),
        ("bw", "BWA", "Botswana"),
        ("by", "BLR", "Belarus"),
        ("bz", "BLZ", "Belize"),
        ("ca", "CAN", "Canada"),
        ("cd", "COD", "Congo - Kinshasa"),
        ("cg", "COG", "Congo - Brazzaville"),
        ("ch", "CHE", "Switzerland"),
        ("ci", "CIV", "Côte d’Ivoire"),
        ("cl", "CHL", "Chile"),
        ("cm", "CMR", "Cameroon"),
        ("cn", "CHN", "China mainland"),
        ("co", "COL", "Colombia"),
        ("cr", "CRI", "Costa Rica"),
        ("cv", "CPV", "Cape Verde"),
        ("cy", "CYP", "Cyprus"),
        ("cz", "CZE", "Czechia"),
        ("de", "DEU", "Germany"),
        ("dk", "DNK", "Denmark"),
        ("dm", "DMA", "Dominica"),
        ("do", "DOM", "Dominican Republic"),
        ("dz", "DZA", "Algeria"),
        ("ec", "ECU", "Ecuador"),
        ("ee", "EST", "Estonia"),
        ("eg", "EGY", "Egypt"),
        ("es", "ESP", "Spain"),
        ("fi", "FIN", "Finland"),
        ("fj", "FJI", "Fiji"),
        ("fm", "FSM", "Micronesia"),
        ("fr", "FRA", "France"),
        ("ga", "GAB", "Gabon"),
        ("gb", "GBR", "United Kingdom"),
        ("gd", "GRD", "Grenada"),
        ("ge", "GEO", "Georgia"),
        ("gh", "GHA", "Ghana"),
        ("gm", "GMB", "Gambia"),
        ("gr", "GRC", "Greece"),
        ("gt", "GTM", "Guatemala"),
        ("gw", "GNB", "Guinea-Bissau"),
        ("gy", "GUY", "Guyana"),
        ("hk", "HKG", "Hong Kong"),
        ("hn", "HND", "Honduras"),
        ("hr", "HRV", "Croatia"),
        ("hu", "HUN", "Hungary"),
        ("id", "IDN", "Indonesia"),
        ("ie", "IRL", "Ireland"),
        ("il", "ISR", "Israel"),
        ("in", "IND", "India"),
        ("iq", "IRQ", "Iraq"),
        ("is", "ISL", "Iceland"),
        ("it", "ITA", "Italy"),
        ("jm", "JAM", "Jamaica"),
        ("jo", "JOR", "Jordan"),
        ("jp", "JPN", "Japan"),
        ("ke", "KEN", "Kenya"),
        ("kg", "KGZ", "Kyrgyzstan"),
        ("kh", "KHM", "Cambodia"),
        ("kn", "KNA", "St. Kitts and Nevis"),
        ("kr", "KOR", "South Korea"),
        ("kw", "KWT", "Kuwait"),
        ("ky", "CYM", "Cayman Islands"),
        ("kz", "KAZ", "Kazakhstan"),
        ("la", "LAO", "Laos"),
        ("lb", "LBN", "Lebanon"),
        ("lc", "LCA", "St. Lucia"),
        ("lk", "LKA", "Sri Lanka"),
        ("lr", "LBR", "Liberia"),
        ("lt", "LTU", "Lithuania"),
        ("lu", "LUX", "Luxembourg"),
        ("lv", "LVA", "Latvia"),
        ("ly", "LBY", "Libya"),
        ("ma", "MAR", "Morocco"),
        ("md", "MDA", "Moldova"),
        ("me", "MNE", "Montenegro"),
        ("mg", "MDG", "Madagascar"),
        ("mk", "MKD", "North Macedonia"),
        ("ml", "MLI", "Mali"),
        ("mm", "MMR", "Myanmar (Burma)"),
        ("mn", "MNG", "Mongolia"),
        ("mo", "MAC", "Macao"),
        ("mr", "MRT", "Mauritania"),
        ("ms", "MSR", "Montserrat"),
        ("mt", "MLT", "Malta"),
        ("mu", "MUS", "Mauritius"),
        ("mv", "MDV", "Maldives"),
        ("mw", "MWI", "Malawi"),
        ("mx", "MEX", "Mexico"),
        ("my", "MYS", "Malaysia"),
        ("mz", "MOZ", "Mozambique"),
        ("na", "NAM", "Namibia"),
        ("ne", "NER", "Niger"),
        ("ng", "NGA", "Nigeria"),
        ("ni", "NIC", "Nicaragua"),
        ("nl", "NLD", "Netherlands"),
        ("no", "NOR", "Norway"),
        ("np", "NPL", "Nepal"),
        ("nr", "NRU", "Nauru"),
        ("nz", "NZL", "New Zealand"),
        ("om", "OMN", "Oman"),
        ("pa", "PAN", "Panama"),
        ("pe", "PER", "Peru"),
        ("pg", "PNG", "Papua New Guinea"),
        ("ph", "PHL", "Philippines"),
        ("pk", "PAK", "Pakistan"),
        ("pl", "POL", "Poland"),
        ("pt", "PRT", "Portugal"),
        ("pw", "PLW", "Palau"),
        ("py", "PRY", "Paraguay"),
        ("qa", "QAT", "Qatar"),
        ("ro", "ROU", "Romania"),
        ("rs", "SRB", "Serbia"),
        ("ru", "RUS", "Russia"),
        ("rw", "RWA", "Rwanda"),
        ("sa", "SAU", "Saudi Arabia"),
        ("sb", "SLB", "Solomon Islands"),
        ("sc", "SYC", "Seychelles"),
        ("se", "SWE", "Sweden"),
        ("sg", "SGP", "Singapore"),
        ("si", "SVN", "Slovenia"),
        ("sk", "SVK", "Slovakia"),
        ("sl", "SLE", "Sierra Leone"),
        ("sn", "SEN", "Senegal"),
        ("sr", "SUR", "Suriname"),
        ("st", "STP", "São Tomé and Príncipe"),
        ("sv", "SLV", "El Salvador"),
        ("sz", "SWZ", "Eswatini"),
        ("tc", "TCA", "Turks and Caicos Islands"),
        ("td", "TCD", "Chad"),
        ("th", "THA", "Thailand"),
        ("tj", "TJK", "Tajikistan"),
        ("tm", "TKM", "Turkmenistan"),
        ("tn", "TUN", "Tunisia"),
        ("to", "TON", "Tonga"),
        ("tr", "TUR", "Türkiye"),
        ("tt", "TTO", "Trinidad and Tobago"),
        ("tw", "TWN", "Taiwan"),
        ("tz", "TZA", "Tanzania"),
        ("ua", "UKR", "Ukraine"),
        ("ug", "UGA", "Uganda"),
        ("us", "USA", "United States"),
        ("uy", "URY", "Uruguay"),
        ("uz", "UZB", "Uzbekistan"),
        ("vc", "VCT", "St. Vincent and Grenadines"),
        ("ve", "VEN", "Venezuela"),
        ("vg", "VGB", "British Virgin Islands"),
        ("vn", "VNM", "Vietnam"),
        ("vu", "VUT", "Vanuatu"),
        ("xk", "XKS", "Kosovo"),
        ("ye", "YEM", "Yemen"),
        ("za", "ZAF", "South Africa"),
        ("zm", "ZMB", "Zambia"),
        ("zw", "ZWE", "Zimbabwe"),
    ]
}
