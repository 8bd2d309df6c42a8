import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels

/// The storefront catalogue is data checked against Apple's own list of territories.
@Suite struct StorefrontCatalogueTests {
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
        #expect(all.count >= 175, "the App Store sells in about 175 storefronts")
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
