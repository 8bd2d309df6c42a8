import StoreReleaseCore

/// An App Store storefront, by its ISO 3166-1 country code (`us`, `cn`, `jp`).
///
/// The lookup API answers per storefront: an app sold only in China returns `results: []`
/// without `country=cn` (seed 000). StoreKit's `Storefront.countryCode` gives the alpha-3 form
/// (`CHN`); both forms are accepted and stored as the lowercase alpha-2 code the API takes.
public struct StorefrontCountry: Sendable, Hashable {
    /// The lowercase ISO 3166-1 alpha-2 code (`cn`).
    public let code: String

    /// Validates a country code: ISO 3166-1 alpha-2 (`cn`, `CN`) or alpha-3 (`CHN`), any case.
    ///
    /// - Throws: ``StorefrontCountryError`` naming the code when it is neither.
    public init(_ code: String) throws(StorefrontCountryError) {
        let upper = code.uppercased()
        if upper.utf8.count == 3, let alpha2 = Self.alpha3ToAlpha2[upper] {
            self.code = alpha2
        } else if upper.utf8.count == 2, Self.alpha2Codes.contains(upper.lowercased()) {
            self.code = upper.lowercased()
        } else {
            throw StorefrontCountryError(input: code)
        }
    }

    /// The United States storefront, which the lookup API uses when no country is given.
    public static let unitedStates = StorefrontCountry(validated: "us")

    /// A code known to be valid (the catalogue's).
    init(validated code: String) {
        self.code = code
    }

    static let alpha2Codes = Set(alpha3ToAlpha2.values)

    /// ISO 3166-1: every alpha-3 code and its alpha-2 code.
    static let alpha3ToAlpha2: [String: String] = [
        "ABW": "aw", "AFG": "af", "AGO": "ao", "AIA": "ai", "ALA": "ax", "ALB": "al",
        "AND": "ad", "ARE": "ae", "ARG": "ar", "ARM": "am", "ASM": "as", "ATA": "aq",
        "ATF": "tf", "ATG": "ag", "AUS": "au", "AUT": "at", "AZE": "az", "BDI": "bi",
        "BEL": "be", "BEN": "bj", "BES": "bq", "BFA": "bf", "BGD": "bd", "BGR": "bg",
        "BHR": "bh", "BHS": "bs", "BIH": "ba", "BLM": "bl", "BLR": "by", "BLZ": "bz",
        "BMU": "bm", "BOL": "bo", "BRA": "br", "BRB": "bb", "BRN": "bn", "BTN": "bt",
        "BVT": "bv", "BWA": "bw", "CAF": "cf", "CAN": "ca", "CCK": "cc", "CHE": "ch",
        "CHL": "cl", "CHN": "cn", "CIV": "ci", "CMR": "cm", "COD": "cd", "COG": "cg",
        "COK": "ck", "COL": "co", "COM": "km", "CPV": "cv", "CRI": "cr", "CUB": "cu",
        "CUW": "cw", "CXR": "cx", "CYM": "ky", "CYP": "cy", "CZE": "cz", "DEU": "de",
        "DJI": "dj", "DMA": "dm", "DNK": "dk", "DOM": "do", "DZA": "dz", "ECU": "ec",
        "EGY": "eg", "ERI": "er", "ESH": "eh", "ESP": "es", "EST": "ee", "ETH": "et",
        "FIN": "fi", "FJI": "fj", "FLK": "fk", "FRA": "fr", "FRO": "fo", "FSM": "fm",
        "GAB": "ga", "GBR": "gb", "GEO": "ge", "GGY": "gg", "GHA": "gh", "GIB": "gi",
        "GIN": "gn", "GLP": "gp", "GMB": "gm", "GNB": "gw", "GNQ": "gq", "GRC": "gr",
        "GRD": "gd", "GRL": "gl", "GTM": "gt", "GUF": "gf", "GUM": "gu", "GUY": "gy",
        "HKG": "hk", "HMD": "hm", "HND": "hn", "HRV": "hr", "HTI": "ht", "HUN": "hu",
        "IDN": "id", "IMN": "im", "IND": "in", "IOT": "io", "IRL": "ie", "IRN": "ir",
        "IRQ": "iq", "ISL": "is", "ISR": "il", "ITA": "it", "JAM": "jm", "JEY": "je",
        "JOR": "jo", "JPN": "jp", "KAZ": "kz", "KEN": "ke", "KGZ": "kg", "KHM": "kh",
        "KIR": "ki", "KNA": "kn", "KOR": "kr", "KWT": "kw", "LAO": "la", "LBN": "lb",
        "LBR": "lr", "LBY": "ly", "LCA": "lc", "LIE": "li", "LKA": "lk", "LSO": "ls",
        "LTU": "lt", "LUX": "lu", "LVA": "lv", "MAC": "mo", "MAF": "mf", "MAR": "ma",
        "MCO": "mc", "MDA": "md", "MDG": "mg", "MDV": "mv", "MEX": "mx", "MHL": "mh",
        "MKD": "mk", "MLI": "ml", "MLT": "mt", "MMR": "mm", "MNE": "me", "MNG": "mn",
        "MNP": "mp", "MOZ": "mz", "MRT": "mr", "MSR": "ms", "MTQ": "mq", "MUS": "mu",
        "MWI": "mw", "MYS": "my", "MYT": "yt", "NAM": "na", "NCL": "nc", "NER": "ne",
        "NFK": "nf", "NGA": "ng", "NIC": "ni", "NIU": "nu", "NLD": "nl", "NOR": "no",
        "NPL": "np", "NRU": "nr", "NZL": "nz", "OMN": "om", "PAK": "pk", "PAN": "pa",
        "PCN": "pn", "PER": "pe", "PHL": "ph", "PLW": "pw", "PNG": "pg", "POL": "pl",
        "PRI": "pr", "PRK": "kp", "PRT": "pt", "PRY": "py", "PSE": "ps", "PYF": "pf",
        "QAT": "qa", "REU": "re", "ROU": "ro", "RUS": "ru", "RWA": "rw", "SAU": "sa",
        "SDN": "sd", "SEN": "sn", "SGP": "sg", "SGS": "gs", "SHN": "sh", "SJM": "sj",
        "SLB": "sb", "SLE": "sl", "SLV": "sv", "SMR": "sm", "SOM": "so", "SPM": "pm",
        "SRB": "rs", "SSD": "ss", "STP": "st", "SUR": "sr", "SVK": "sk", "SVN": "si",
        "SWE": "se", "SWZ": "sz", "SXM": "sx", "SYC": "sc", "SYR": "sy", "TCA": "tc",
        "TCD": "td", "TGO": "tg", "THA": "th", "TJK": "tj", "TKL": "tk", "TKM": "tm",
        "TLS": "tl", "TON": "to", "TTO": "tt", "TUN": "tn", "TUR": "tr", "TUV": "tv",
        "TWN": "tw", "TZA": "tz", "UGA": "ug", "UKR": "ua", "UMI": "um", "URY": "uy",
        "USA": "us", "UZB": "uz", "VAT": "va", "VCT": "vc", "VEN": "ve", "VGB": "vg",
        "VIR": "vi", "VNM": "vn", "VUT": "vu", "WLF": "wf", "WSM": "ws", "XKS": "xk", "YEM": "ye",
        "ZAF": "za", "ZMB": "zm", "ZWE": "zw",
    ]
}

extension StorefrontCountry: CustomStringConvertible {
    /// The lowercase alpha-2 code.
    public var description: String { code }
}

/// A country code that is not ISO 3166-1 alpha-2 or alpha-3.
public struct StorefrontCountryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code as given.
    public let input: String

    /// `"XX" is not an ISO 3166-1 country code (use two letters such as us or cn, or three such as CHN)`.
    public var description: String {
        "\(input.debugDescription) is not an ISO 3166-1 country code (use two letters such as us or cn, or three such as CHN)"
    }
}

extension StorefrontCountry: Encodable {
    /// Encodes the lowercase code (`cn`), as the lookup API takes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
