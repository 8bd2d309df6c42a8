import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// What moved out of the command-line tool: the stores read from their sources (stored or live),
/// in one library call for the report and the manifest, each failure naming its store.
@Suite struct ReleaseSourcesTests {
    static let secret = "ya29.sources-secret-\(UUID().uuidString)"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func stored(_ file: String) throws -> [StoreRelease] {
        let url = LoopbackServer.packageRoot.appendingPathComponent("Docs/Examples/payloads/\(file)")
        return try StoredLookup.releases(in: try Data(contentsOf: url))
    }

    func playTrack() throws -> PlayTrack {
        let url = LoopbackServer.packageRoot.appendingPathComponent("Docs/Examples/payloads/play-production.json")
        return try #require(try PlayTrack.decodeTracks(from: try Data(contentsOf: url)).first)
    }

    func lookupClient(_ scenario: String = "ok") throws -> AppStoreLookupClient {
        try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL(scenario), retry: .none),
            rateLimiter: RateLimiter(requests: 1000))
    }

    /// App Store Connect asked about the macOS platform, from the fake's `platforms` scenario.
    func macOSConnect(token: String) throws -> AppStoreConnectSource {
        AppStoreConnectSource(
            client: try AppStoreConnectClient(
                credentials: .token(try BearerToken(Self.secret)),
                configuration: .init(baseURL: server.baseURL("platforms", token: token))),
            platform: .macOS)
    }

    @Test func storedSourcesMakeTheSameReportAsTheValues() async throws {
        let releases = try stored("appstore-wechat-cn.json") + stored("appstore-wechat-us.json")
        let track = try playTrack()
        let gathered = try await CrossStoreReport.gather(
            appStore: .stored(releases), play: .stored(track), now: Date(timeIntervalSince1970: 1_700_000_000))
        let direct = CrossStoreReport(appStore: releases, play: track, now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(gathered == direct)
        #expect(gathered.laggingStorefronts == ["cn"])
    }

    @Test func liveSourcesAskTheStoresAndEachFailureNamesItsStore() async throws {
        let cn = try StorefrontCountry("cn")
        let appStore = AppStoreSource.live(.id(414_478_124), storefronts: .listed([cn]), client: try lookupClient())
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret), configuration: .init(baseURL: server.baseURL("ok")))
        let report = try await CrossStoreReport.gather(
            appStore: appStore, play: .live(packageName: "com.example.rollout", track: "production", client: play))
        #expect(report.storefronts.map(\.country) == ["cn"] && report.playRollout?.version?.description == "8.0.10")

        do throws(ReleaseSourceError) {
            _ = try await CrossStoreReport.gather(
                appStore: appStore, play: .live(packageName: "com.example.rollout", track: "prodution", client: play))
            Issue.record("expected the missing track")
        } catch {
            #expect(error == .play(.play(.trackNotFound("prodution", available: ["production"]))))
        }
        let missing = AppStoreSource.live(.id(1), storefronts: .listed([cn]), client: try lookupClient())
        do throws(ReleaseSourceError) {
            _ = try await missing.releases()
            Issue.record("expected not found")
        } catch {
            guard case .appStore(let error) = error, error.code == .notFound else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func appStoreConnectIsAskedAboutTheAppTheStoredLookupsName() async throws {
        let token = UUID().uuidString
        let connect = try macOSConnect(token: token)
        let report = try await CrossStoreReport.gather(
            appStore: .stored(try stored("appstore-wechat-cn.json")), play: .stored(try playTrack()),
            appStoreConnect: connect)
        #expect(report.appStoreConnect?.live?.version == "3.1", "the macOS version of app 414478124")
        #expect(try server.ascStats(token: token)["platforms"] as? [String] == ["MAC_OS"])

        let nameless = StoreRelease(store: .appStore, version: try Version(parsing: "1.0"))
        let track = try playTrack()
        do throws(ReleaseSourceError) {
            _ = try await CrossStoreReport.gather(
                appStore: .stored([nameless]), play: .stored(track), appStoreConnect: connect)
            Issue.record("expected no App Store id")
        } catch {
            #expect(error == .noAppStoreID)
        }
    }

    /// An App Store Connect source that names its app (as an actor's does) is asked about it
    /// with no App Store source; one that names none is not asked.
    @Test func appStoreConnectNamingItsAppIsAskedWithoutAnAppStoreSource() async throws {
        let token = UUID().uuidString
        var connect = try macOSConnect(token: token)
        #expect(try await StoreSources(appStoreConnect: connect).read().appStoreConnect == nil)
        #expect(try server.ascStats(token: token)["platforms"] as? [String] ?? [] == [], "nothing asked")
        connect.app = .id(414_478_124)
        let reading = try await StoreSources(appStoreConnect: connect).read()
        #expect(reading.appStoreConnect?.status.appID == "414478124" && reading.appStore == nil)
        #expect(reading.appStoreConnect?.status.live?.version == "3.1", "the macOS version of app 414478124")
        #expect(try server.ascStats(token: token)["platforms"] as? [String] == ["MAC_OS"])
    }

    @Test func theManifestIsMadeFromOneStorefrontsSource() async throws {
        let generator = ManifestGenerator(now: Date(timeIntervalSince1970: 1_700_000_000))
        let one = try await generator.appStore(
            from: .stored(try stored("appstore-wechat-cn.json")), minimumSupported: try Version(parsing: "8.0.2"))
        #expect(one.manifest.latestVersion.description == "8.0.2" && one.reasons.isEmpty)
        let two = try stored("appstore-wechat-cn.json") + stored("appstore-wechat-us.json")
        let track = try playTrack()
        do throws(ReleaseSourceError) {
            _ = try await generator.appStore(from: .stored(two))
            Issue.record("expected one storefront")
        } catch {
            #expect(error == .manifest(.notOneStorefront(2)))
        }
        let play = try await generator.googlePlay(from: .stored(track), packageName: "com.tencent.mm")
        #expect(play.manifest.latestVersion.description == "8.0.2")
    }

    @Test func idsAreAnsweredOnceInTheOrderAskedWithTheMissingOnes() async throws {
        let token = UUID().uuidString
        let client = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("ok", token: token)), rateLimiter: RateLimiter(requests: 1000))
        let answer = try await client.releases(ids: [7, 414_478_124, 7, 414_478_124], country: StorefrontCountry("cn"))
        #expect(answer.found.map(\.appID) == ["414478124"] && answer.missing == [7])
        #expect(try server.stats(token: token).ids == [["7", "414478124"]], "one request, each id once")
    }
}
