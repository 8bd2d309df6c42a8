import Foundation
import StoreReleaseKit
import StoreReleaseTestSupport
import Testing

@Suite struct CrossStoreReportTests {
    static let play = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/play")

    func tracks(_ name: String) throws -> [PlayTrack] {
        try PlayTrack.decodeTracks(from: Data(contentsOf: Self.play.appendingPathComponent(name)))
    }

    func apple(_ version: String, _ country: String, released: Date? = nil) throws -> StoreRelease {
        StoreRelease(
            store: .appStore, version: try Version(parsing: version), country: try StorefrontCountry(country),
            releaseDate: released)
    }

    @Test func decodesATrackAndATrackList() throws {
        let production = try #require(try tracks("production-rollout.json").first)
        #expect(production.track == "production" && production.releases.count == 3)
        #expect(production.liveRelease?.name == "8.0.2" && production.rollout?.userFraction == 0.2)
        let release = StoreRelease(try #require(production.liveRelease), packageName: "com.example.app")
        #expect(release.store == .googlePlay && release.version?.description == "8.0.2")
        #expect(release.versionCode?.rawValue == 80 && release.releaseNotes == "Fixes.")
        let list = try tracks("tracks-ahead.json")
        #expect(list.map(\.track) == ["internal", "production"])
        let named = try #require(list.last?.liveRelease)
        #expect(named.version?.description == "8.1.0", "Play Console's name: the version and the versionCode")
        #expect(named.highestVersionCode?.rawValue == 85)
    }

    @Test(arguments: [
        (
            #"{"track":"p","releases":[{"status":"rolling"}]}"#,
            "status \"rolling\" is not one of statusUnspecified, draft"
        ),
        (#"{"track":"p","releases":[{"status":"inProgress","userFraction":1.5}]}"#, "userFraction 1.5 is outside"),
        (
            #"{"track":"p","releases":[{"status":"completed","inAppUpdatePriority":7}]}"#,
            "inAppUpdatePriority 7 is outside"
        ),
        (#"{"track":"p","releases":[{"status":"completed","versionCodes":["x"]}]}"#, "\"x\""),
    ])
    func badTracksAreErrorsNamingTheValue(_ json: String, _ message: String) {
        #expect {
            try PlayTrack.decodeTracks(from: Data(json.utf8))
        } throws: { error in
            (error as? DecodingError)?.readableDescription.contains(message) == true
        }
    }

    @Test func storesThatAgreeCanForceOnceTheDelayHasPassed() throws {
        let released = Date(timeIntervalSince1970: 1_700_000_000)
        let production = try #require(try tracks("production-rollout.json").first)
        let appStore = [try apple("8.0.2", "us", released: released), try apple("8.0.2", "cn", released: released)]
        let early = CrossStoreReport(appStore: appStore, play: production, now: released.addingTimeInterval(3600))
        #expect(early.agree && early.laggingStorefronts.isEmpty && early.ahead == nil)
        #expect(!early.forceUpdate.safe && early.forceUpdate.reasons == ["released less than 24.0 hours ago in cn, us"])
        let later = CrossStoreReport(appStore: appStore, play: production, now: released.addingTimeInterval(25 * 3600))
        #expect(later.forceUpdate.safe && later.forceUpdate.version == "8.0.2")
        #expect(later.playRollout?.versionCode == 81 && later.playRollout?.inAppUpdatePriority == 3)
    }

    @Test func aLaggingStorefrontAndTheStoreAheadAreNamed() throws {
        let production = try #require(try tracks("production-rollout.json").first)
        let report = CrossStoreReport(
            appStore: [try apple("8.0.10", "us"), try apple("8.0.2", "cn"), try apple("8.0.10", "jp")], play: production
        )
        #expect(!report.agree)
        #expect(report.laggingStorefronts == ["cn"])
        #expect(report.appStoreVersion == "8.0.10" && report.ahead == "appStore" && report.aheadBy == "patch")
        #expect(!report.forceUpdate.safe)
        #expect(
            report.forceUpdate.reasons == [
                "not live in storefront cn yet",
                "not fully rolled out on Play (production): 20% of users; forcing waits until the release is completed",
            ])
        #expect(report.text.contains("  cn  8.0.2  (behind)"))
        #expect(report.text.contains("The App Store is ahead (patch)."))
    }
}
