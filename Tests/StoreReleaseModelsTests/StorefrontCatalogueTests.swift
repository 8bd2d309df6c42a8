import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels

/// The storefront catalogue is data checked against lists nobody here wrote, and Apple's own list
/// of territories.
@Suite struct StorefrontCatalogueTests {
    /// Apple's storefronts as Siren keeps them, code for code as Siren writes them (alpha-2 or
    /// alpha-3): `ArtSabintsev/Siren`, `Sources/Models/AppStoreCountry.swift` at commit
    /// 02b3440d2aa97388612f239668e46f421db5ff60, "List of country codes" from App Store Connect
    /// Help's "App Store countries and regions". `jcoynel/app-store-reviews-swift`'s
    /// `Sources/AppStoreReviews/Models/Territory.swift` ("Last updated 30 January 2021", from the
    /// same page) lists the same 175.
    static let siren = """
        AFG AE AG AI AL AM AO AR AT AU AZ BB BE BIH BF BG BH BJ BM BN BO BR BS BT BW BY BZ CMR CA CG CH CIV CL
        CN CO COD CR CV CY CZ DE DK DM DO DZ EC EE EG ES FI FJ FM FR GAB GB GD GEO GH GM GR GT GW GY HK HN HR
        HU ID IE IL IN IRQ IS IT JM JO JP KE KG KH KN KR KW KY KZ LA LB LBY LC LK LR LT LU LV MAR MD MDV MG MK
        ML MMR MN MNE MO MR MS MT MU MW MX MY MZ NA NE NG NI NL NO NP NRU NZ OM PA PE PG PH PK PL PT PW PY QA
        RO RU RWA SA SB SC SE SG SI SK SL SN SR SRB ST SV SZ TC TD TH TJ TM TN TON TR TT TW TZ UA UG US UY UZ
        VC VE VG VN VUT XKS YE ZA ZMB ZW
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// app-store-scraper's `markets` (storefront ids such as US: 143441): `facundoolano/app-store-scraper`,
    /// `lib/constants.js` at commit 09c820765f7fd328bd0a6fdc7fce4a0a544d6550. 115 of the 175.
    static let appStoreScraperMarkets = """
        DZ AO AI AR AM AU AT AZ BH BB BY BE BZ BM BO BW BR VG BN BG CA KY CL CN CO CR HR CY CZ DK DM EC EG SV
        EE FI FR DE GB GH GR GD GT GY HN HK HU IS IN ID IE IL IT JM JP JO KE KR KW LV LB LT LU MO MK MG MY ML
        MT MU MX MS NP NL NZ NI NE NG NO OM PK PA PY PE PH PL PT QA RO RU SA SN SG SK SI ZA ES LK SR SE CH TW
        TZ TH TN TR UG UA AE US UY UZ VE VN YE
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// The codes the catalogue once had that are in no list above.
    static let removed = ["ad", "bd", "cf", "et", "gn", "li", "mc", "ps", "ws"]

    /// The reference entry that names a storefront, in either of its forms.
    static func reference(_ storefront: AppStoreStorefront, in list: [String]) -> String? {
        list.first { $0 == storefront.country.code.uppercased() || $0 == storefront.alpha3 }
    }

    @Test func theCatalogueIsSirensListCodeForCodeAndNoOtherCode() {
        #expect(Self.siren.count == 175 && Set(Self.siren).count == 175)
        let outside = AppStoreStorefront.all.filter { Self.reference($0, in: Self.siren) == nil }.map(\.country.code)
        #expect(outside.isEmpty, "not App Store storefronts by Siren's list: \(outside)")
        let matched = Set(AppStoreStorefront.all.compactMap { Self.reference($0, in: Self.siren) })
        #expect(Set(Self.siren).subtracting(matched).isEmpty, "missing: \(Set(Self.siren).subtracting(matched))")
        #expect(AppStoreStorefront.all.count == 175)
    }

    @Test func everyMarketOfAppStoreScraperIsAStorefront() throws {
        #expect(Self.appStoreScraperMarkets.count == 115)
        for market in Self.appStoreScraperMarkets {
            #expect(AppStoreStorefront.named(try StorefrontCountry(market)) != nil, "\(market)")
        }
    }

    @Test func onlyAStorefrontsCodeIsAccepted() throws {
        let letters = "abcdefghijklmnopqrstuvwxyz"
        for first in letters {
            for second in letters {
                let code = "\(first)\(second)"
                let storefront = AppStoreStorefront.all.first { $0.country.code == code }
                #expect((try? StorefrontCountry(code)) == storefront?.country, "\(code)")
            }
        }
        for code in Self.removed + ["BGD", "LIE", "WSM", "zz"] {
            #expect(throws: StorefrontCountryError(input: code)) { try StorefrontCountry(code) }
            #expect(
                StorefrontCountryError(input: code).description.hasPrefix("\"\(code)\" is not an App Store storefront"))
        }
    }

    @Test func territoriesOfAppStoreConnectWithoutAStorefrontAreNotStorefronts() {
        let availability = AppStoreAvailability(
            availableInNewTerritories: true,
            territories: [
                .init(id: "BGD", available: true), .init(id: "USA", available: true),
                .init(id: "AND", available: false),
                .init(id: "CHN", available: false),
            ])
        #expect(availability.available.map(\.code) == ["us"] && availability.notAvailable.map(\.code) == ["cn"])
        #expect(availability.territories.first?.country == nil, "Bangladesh has no storefront")
    }

    /// The `TerritoryCode` enumeration of Apple's App Store Connect OpenAPI document.
    static func appleTerritories() throws -> Set<String> {
        let url = LoopbackServer.packageRoot.appendingPathComponent("Tests/Contracts/app-store-connect.subset.json")
        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
        let schemas = (document?["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let codes = (schemas?["TerritoryCode"] as? [String: Any])?["enum"] as? [String]
        return Set(try #require(codes))
    }

    @Test func codesAreUniqueAndRoundTripBetweenAlpha2AndAlpha3() throws {
        let all = AppStoreStorefront.all
        #expect(all.count == 175, "the App Store's 175 storefronts")
        #expect(Set(all.map(\.country)).count == all.count && Set(all.map(\.alpha3)).count == all.count)
        for storefront in all {
            #expect(try StorefrontCountry(storefront.alpha3) == storefront.country, "\(storefront.alpha3)")
            #expect(try StorefrontCountry(storefront.country.code.uppercased()) == storefront.country)
            #expect(!storefront.name.isEmpty && storefront.alpha3.count == 3)
            #expect(AppStoreStorefront.named(storefront.country) == storefront)
        }
        #expect(all.map(\.country.code) == all.map(\.country.code).sorted(), "in code order")
    }

    @Test func everyStorefrontIsAnAppStoreConnectTerritory() throws {
        let territories = try Self.appleTerritories()
        let unknown = AppStoreStorefront.all.map(\.alpha3).filter { !territories.contains($0) }
        #expect(unknown.isEmpty, "not territories of App Store Connect: \(unknown)")
    }

    @Test func theCatalogueEncodesAsTheContractSays() throws {
        let china = try #require(AppStoreStorefront.named(try StorefrontCountry("cn")))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(china), as: UTF8.self)
                == #"{"alpha3":"CHN","country":"cn","name":"China mainland"}"#)
    }
}
