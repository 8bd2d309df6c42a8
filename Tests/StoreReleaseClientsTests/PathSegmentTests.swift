import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseModels

/// Every value a client puts into a path or a query goes through one function, `:` included:
/// Google reads a trailing `:x` as a custom method, so `wear:production` must go as `wear%3Aproduction`.
@Suite struct PathSegmentTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    @Test(arguments: [
        ("wear:production", "wear%3Aproduction"), ("automotive:beta", "automotive%3Abeta"),
        ("Pre-release testing", "Pre-release%20testing"), ("a/b?c#d&e=f", "a%2Fb%3Fc%23d%26e%3Df"),
        ("..", "%2E%2E"), (".", "%2E"), ("v1.2_x~y", "v1.2_x~y"), ("é", "%C3%A9"), ("100%", "100%25"),
    ])
    func aValueIsOneComponentWithOnlyUnreservedCharactersLeft(_ value: String, _ encoded: String) {
        #expect(BaseURL.component(value) == encoded)
    }

    @Test func playTrackNamesWithAColonGoEncodedAndAreRead() async throws {
        let token = UUID().uuidString
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.path-test"), configuration: .init(baseURL: server.baseURL("ok", token: token)))
        let wear = try await play.track("wear:production", packageName: "com.example.wear")
        #expect(wear.track == "wear:production" && wear.liveRelease?.version?.description == "8.0.2")
        let automotive = try await play.releases(packageName: "com.example.wear", track: "automotive:beta")
        #expect(automotive.map(\.releaseName) == ["3081 (8.0.3)"])
        let countries = try await play.countryAvailability(track: "wear:production", packageName: "com.example.wear")
        #expect(countries.countries == ["us"] && !countries.restOfWorld)
        let paths = try server.playStats(token: token)["paths"] as? [String] ?? []
        let base = "/androidpublisher/v3/applications/com.example.wear"
        #expect(
            paths.contains { $0.hasPrefix(base + "/edits/") && $0.hasSuffix("/tracks/wear%3Aproduction") }, "\(paths)")
        #expect(paths.contains(base + "/tracks/automotive%3Abeta/releases"), "\(paths)")
        #expect(paths.contains { $0.hasSuffix("/countryAvailability/wear%3Aproduction") }, "\(paths)")
        #expect(!paths.contains { $0.contains("wear:") || $0.contains("automotive:") }, "no raw colon: \(paths)")
    }

    @Test func anAppStoreConnectIdFromTheServerGoesEncoded() async throws {
        let token = UUID().uuidString
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken("asc-path-test")),
            configuration: .init(baseURL: server.baseURL("colonids", token: token)))
        let availability = try await connect.availability(of: .bundleID("com.tencent.xin"))
        #expect(!availability.territories.isEmpty)
        let paths = try server.ascStats(token: token)["paths"] as? [String] ?? []
        #expect(paths.contains { $0.hasPrefix("/v1/apps/414478124/appAvailabilityV2") }, "\(paths)")
        #expect(
            paths.contains { $0.hasPrefix("/v2/appAvailabilities/414478124%3Av2/territoryAvailabilities?") },
            "the availability's id, as the server gave it, encoded: \(paths)")
        #expect(paths.contains { $0.hasPrefix("/v1/apps?filter%5BbundleId%5D=com.tencent.xin") }, "\(paths)")
    }

    @Test func lookupParametersGoThroughTheSameFunction() throws {
        let request = try AppStoreLookupRequest(
            bundleID: "com.example.app", country: StorefrontCountry("jp"), language: "ja_jp",
            cacheBuster: "a:b/c d&e")
        let url = request.url(baseURL: try #require(URL(string: "http://127.0.0.1:9/t/ok/")))
        #expect(
            url.absoluteString
                == "http://127.0.0.1:9/t/ok/lookup?bundleId=com.example.app&country=jp&lang=ja_jp&_=a%3Ab%2Fc%20d%26e")
        let ids = try AppStoreLookupRequest(ids: [1, 2]).url()
        #expect(ids.absoluteString == "https://itunes.apple.com/lookup?id=1%2C2")
    }
}
