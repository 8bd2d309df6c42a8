import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// Where the app is sold, from both stores, and a sweep of every storefront classified against it.
@Suite struct WhereSoldTests {
    static let secret = "where-sold-secret-\(UUID().uuidString)"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func connect(_ scenario: String = "complete", token: String = UUID().uuidString) throws -> AppStoreConnectSource {
        AppStoreConnectSource(
            client: try AppStoreConnectClient(
                credentials: .token(try BearerToken(Self.secret)),
                configuration: .init(baseURL: server.baseURL(scenario, token: token))))
    }

    func play(_ token: String = UUID().uuidString) throws -> PlayDeveloperAPIClient {
        try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret), configuration: .init(baseURL: server.baseURL("ok", token: token)))
    }

    @Test func appStoreConnectSaysWhereTheAppIsSoldAcrossEveryPage() async throws {
        let token = UUID().uuidString
        let availability = try await connect(token: token).availability(of: .id(414_478_124))
        #expect(availability.available.map(\.code) == ["cn", "de", "fr", "gb", "jp", "us"])
        #expect(availability.notAvailable.contains(try StorefrontCountry("ru")), "removed: CANNOT_SELL")
        let russia = try #require(availability.territories.first { $0.id == "RUS" })
        #expect(!russia.available && russia.contentStatuses == ["CANNOT_SELL"])
        #expect(availability.availableInNewTerritories == false)
        #expect(availability.territories.count > 200, "every territory, 50 a page")
        // App Store Connect lists 233 territories; 175 have a storefront, and only they count.
        let storefronts = availability.available + availability.notAvailable
        #expect(storefronts.count == 175 && Set(storefronts) == Set(AppStoreStorefront.all.map(\.country)))
        #expect(availability.territories.first { $0.id == "BGD" }?.country == nil)
        #expect(try server.contractChecks(token: token).violations.isEmpty)
        let everywhere = try await connect().availability(of: .id(999_000_999))
        #expect(everywhere.notAvailable.isEmpty, "an app without limits is sold everywhere")
        #expect(everywhere.available.count == 175, "in every storefront, and nowhere else")
        let sold = try await WhereSold.read(app: .id(999_000_999), appStoreConnect: try connect(), play: nil)
        #expect(sold.text.hasPrefix("App Store: sold in 175 storefronts ("))
    }

    @Test func playSaysWhereATrackIsAvailableThroughAnEditItDeletes() async throws {
        let token = UUID().uuidString
        let client = try play(token)
        let rollout = try await client.countryAvailability(track: "production", packageName: "com.example.rollout")
        #expect(rollout.countries == ["us", "cn", "jp", "gb", "de", "fr"] && !rollout.restOfWorld)
        let (jp, kr, us) = (try StorefrontCountry("jp"), try StorefrontCountry("kr"), try StorefrontCountry("us"))
        #expect(rollout.serves(jp) == true && rollout.serves(kr) == false)
        let beta = try await client.countryAvailability(track: "beta", packageName: "com.example.completed")
        #expect(beta.syncWithProduction && beta.serves(us) == nil)
        do throws(HTTPClientError) {
            _ = try await client.countryAvailability(track: "prodution", packageName: "com.example.rollout")
            Issue.record("expected the missing track")
        } catch {
            guard case .play(.trackNotFound("prodution", _)) = error.reason else {
                Issue.record("\(error)")
                return
            }
        }
        let stats = try server.playStats(token: token)
        #expect(stats["editsInserted"] as? Int == 3 && stats["openEdits"] as? Int == 0, "\(stats)")
    }

    @Test(arguments: [1, 2, 3, 9, 64])
    func everyStorefrontIsInExactlyOnePartTheSameEverywhere(_ parts: Int) {
        let all = AppStoreStorefront.all.map(\.country)
        let shards = (1...parts).map { StorefrontSelection.shard(all, part: $0, of: parts) }
        #expect(shards.flatMap { $0 }.sorted { $0.code < $1.code } == all.sorted { $0.code < $1.code })
        #expect(Set(shards.flatMap { $0 }).count == all.count, "no storefront twice")
        #expect(shards.map(\.count).max()! - shards.map(\.count).min()! <= 1, "balanced")
        #expect(StorefrontSelection.shard(all.reversed(), part: 1, of: parts) == shards[0], "whatever the order given")
    }

    @Test func aSweepOfTheSoldStorefrontsClassifiesEveryCountry() async throws {
        let client = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("sweep")), rateLimiter: RateLimiter(requests: 6000))
        let track = try await play().track("production", packageName: "com.example.rollout")
        let report = try await CrossStoreReport.gather(
            appStore: .live(.id(414_478_124), storefronts: .sold, client: client), play: .stored(track),
            appStoreConnect: try connect())
        let byCountry = Dictionary(uniqueKeysWithValues: report.countries.map { ($0.country, $0.appStore) })
        for live in ["cn", "de", "fr", "us"] { #expect(byCountry[live] == .live, "\(live)") }
        for lagging in ["jp", "gb"] { #expect(byCountry[lagging] == .behind, "\(lagging)") }
        #expect(byCountry["ru"] == .notSold, "removed from sale there")
        #expect(byCountry["kr"] == .notSold, "not asked: App Store Connect says it is not sold there")
        #expect(report.laggingStorefronts == ["gb", "jp"] && !report.agree)
        #expect(report.forceUpdate.reasons.contains { $0.contains("not live in storefront gb, jp yet") })
        #expect(report.countrySummary?.hasPrefix("Storefronts: 4 live, 2 behind (gb, jp), ") == true)
        // Storefronts only: not the 233 territories App Store Connect lists, 169 of them not sold.
        #expect(report.countries.count == 175)
        #expect(report.countrySummary?.contains(", 169 not sold") == true, "\(report.countrySummary ?? "")")

        let all = try await CrossStoreReport.gather(
            appStore: .live(.id(414_478_124), storefronts: .all, client: client), play: .stored(track),
            appStoreConnect: try connect())
        #expect(all.countries.first { $0.country == "kr" }?.appStore == .unexpected, "a result where it is not sold")
    }

    @Test func oneReadOfTheStoresFeedsTheReportAndTheSnapshot() async throws {
        let client = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("sweep")), rateLimiter: RateLimiter(requests: 6000))
        let sources = StoreSources(
            appStore: .live(.id(414_478_124), storefronts: .sold, client: client),
            play: .live(packageName: "com.example.rollout", track: "production", client: try play()),
            appStoreConnect: try connect())
        let reading = try await sources.read([.whereSold, .reviewStates])
        let sold = try #require(reading.appStoreConnect?.availability)
        #expect(reading.appStore?.expected == sold.available, "the sweep covers where the app is sold")
        #expect(reading.appStore?.releases.count == 6, "cn, de, fr, gb, jp, us: where it is sold")
        #expect(reading.appStoreConnect?.status.appID == "414478124")
        let play = try #require(reading.googlePlay)
        #expect(play.packageName == "com.example.rollout" && play.track.rollout?.version?.description == "8.0.10")
        #expect(!play.reviewStates.isEmpty && play.availability != nil, "the list and where the track is served")

        let appStore = try #require(reading.appStore)
        let report = CrossStoreReport(appStore: appStore, play: play, appStoreConnect: reading.appStoreConnect)
        let gathered = try await CrossStoreReport.gather(
            appStore: try #require(sources.appStore), play: try #require(sources.play),
            appStoreConnect: sources.appStoreConnect, now: Date())
        #expect(report.countries == gathered.countries && report.forceUpdate.reasons == gathered.forceUpdate.reasons)
        let now = Date(timeIntervalSince1970: 1_612_310_400)
        let snapshot = ReleaseSnapshot(reading, takenAt: now)
        #expect(snapshot.appStore?.storefronts.count == 6 && snapshot.app?.packageName == "com.example.rollout")
        #expect(snapshot.googlePlay?.releases.contains { $0.lifecycle != nil } == true, "review states kept")
    }

    @Test func soldStorefrontsNeedAppStoreConnect() async throws {
        let client = try AppStoreLookupClient(configuration: .init(baseURL: server.baseURL("sweep")))
        let track = PlayTrack(track: "production", releases: [])
        do throws(ReleaseSourceError) {
            _ = try await CrossStoreReport.gather(
                appStore: .live(.id(414_478_124), storefronts: .sold, client: client), play: .stored(track))
            Issue.record("expected availabilityNeeded")
        } catch {
            #expect(error == .availabilityNeeded)
        }
    }

    @Test func storedPartsKnowWhichExpectedStorefrontsNoPartCovered() throws {
        let cn = try StorefrontCountry("cn")
        let us = try StorefrontCountry("us")
        let release = StoreRelease(store: .appStore, appID: "1", version: try Version(parsing: "8.0.10"), country: cn)
        let report = CrossStoreReport(
            appStore: [release], play: PlayTrack(track: "production", releases: []), expected: [cn, us])
        #expect(
            report.countries == [
                CountryStatus(country: "cn", appStore: .live, googlePlay: .unknown),
                CountryStatus(country: "us", appStore: .missing, googlePlay: .unknown),
            ])
        #expect(report.forceUpdate.reasons.first == "no result yet in storefront us")
    }
}
