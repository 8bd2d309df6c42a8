import Foundation
import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/CheckingTheAppStore.md`. They run against the
/// base URL given (the test suite's loopback server, which serves the real payloads).
func checkingTheAppStoreExamples(baseURL: URL) async throws {
    let configuration = HTTPClientConfiguration(baseURL: baseURL, timeout: .seconds(10))
    let client = try AppStoreLookupClient(configuration: configuration)

    let update = try await checkForUpdate(installed: "8.0.1", client: client)
    print(update?.absoluteString == "https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4")
    let upToDate = try await checkForUpdate(installed: "8.0.2", client: client)
    let inReview = try await checkForUpdate(installed: "8.1", client: client)
    print(upToDate == nil && inReview == nil)

    do {
        _ = try await client.lookup(id: 414478124)  // no country: the US storefront
    } catch {
        // Typed throws: `error` is an HTTPClientError; decide by its code.
        if error.code == .notFound {
            print(error)  // not found in the default storefront (us): App Store id 414478124; …
        }
    }

    let ids = [904280696, 803453959, 975937182, 736189492]
    let releases = try await client.lookup(ids: ids, country: .unitedStates, entity: .macSoftware)
    for id in ids {
        let version = releases[id]?.version?.description ?? "not in this storefront"
        print("\(id): \(version)")
    }
    print(releases.count == 4)

    let storefronts = try ["us", "cn", "US"].map { code in try StorefrontCountry(code) }
    let sweep = try await client.lookup([.id(414478124), .id(803453959)], in: storefronts)
    print(sweep.found.map { "\($0.country?.code ?? "") \($0.appID ?? "")" })  // ["us 803453959", "cn 414478124"]
    print(sweep.missingDescription ?? "every storefront has every app")
    // no result for App Store id 414478124 in storefront us; for App Store id 803453959 in storefront cn

    try storedPayloadExample()
    linksExample()
}

func defaultClientExample() throws -> AppStoreLookupClient {
    let client = try AppStoreLookupClient()  // itunes.apple.com, 10 s, 3 attempts, 20 requests a minute
    return client
}

func checkForUpdate(installed: String, client: AppStoreLookupClient) async throws -> URL? {
    let installedVersion = try Version(parsing: installed)  // CFBundleShortVersionString
    let release = try await client.lookup(bundleID: "com.tencent.xin", country: StorefrontCountry("cn"))
    guard let storeVersion = release.version, storeVersion > installedVersion else {
        return nil  // up to date, or this build is newer (in review): never prompt
    }
    return release.storeURL
}

func storedPayloadExample() throws {
    let json =
        #"{"resultCount":1,"results":[{"trackId":414478124,"bundleId":"com.tencent.xin","trackName":"微信","version":"8.0.2","minimumOsVersion":"11.0"}]}"#
    let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: Data(json.utf8))
    let release = StoreRelease(response.results[0], country: try StorefrontCountry("cn"))
    print(release.storeURL?.absoluteString == "https://apps.apple.com/cn/app/id414478124")
}

func linksExample() {
    let us = StorefrontCountry.unitedStates
    let web = AppStoreLinks.web(trackId: 414478124, country: us)  // https://apps.apple.com/us/app/id414478124
    let app = AppStoreLinks.appStoreApp(trackId: 414478124, country: us)  // itms-apps://…
    let mac = AppStoreLinks.macAppStore(trackId: 803453959)  // macappstore://…
    print(web.scheme == "https" && app.scheme == "itms-apps" && mac.scheme == "macappstore")
}
