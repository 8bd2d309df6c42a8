import Foundation
import StoreReleaseCore
import StoreReleaseModels
import StoreReleaseTestSupport
import StoreReleaseTooling
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

    @Test func anUnknownOrMissingReleaseStatusIsKeptNeverLiveAndNeverFatal() throws {
        let json = #"""
            {"track": "production", "releases": [
              {"name": "9.0", "versionCodes": ["90"], "status": "rolling"},
              {"name": "8.5", "versionCodes": ["85"]},
              {"name": "8.0", "versionCodes": ["80"], "status": "completed"}]}
            """#
        let track = try #require(try PlayTrack.decodeTracks(from: Data(json.utf8)).first)
        #expect(track.releases.map(\.status.rawValue) == ["rolling", "statusUnspecified", "completed"])
        #expect(track.releases[0].status.isDocumented == false && track.releases[1].status == .statusUnspecified)
        #expect(track.liveRelease?.version?.description == "8.0", "an unknown status is never live")
        #expect(track.rollout == nil && track.haltedReleases.isEmpty)
    }

    @Test(arguments: [
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
        #expect(later.forceUpdate.safe && later.forceUpdate.version?.description == "8.0.2")
        #expect(later.playRollout?.versionCode == 81 && later.playRollout?.inAppUpdatePriority == 3)
    }

    @Test func aLaggingStorefrontAndTheStoreAheadAreNamed() throws {
        let production = try #require(try tracks("production-rollout.json").first)
        let report = CrossStoreReport(
            appStore: [try apple("8.0.10", "us"), try apple("8.0.2", "cn"), try apple("8.0.10", "jp")], play: production
        )
        #expect(!report.agree)
        #expect(report.laggingStorefronts == ["cn"])
        #expect(
            report.appStoreVersion?.description == "8.0.10" && report.ahead == .appStore && report.aheadBy == .patch)
        #expect(!report.forceUpdate.safe)
        #expect(
            report.forceUpdate.reasons == [
                "not live in storefront cn yet",
                "not fully rolled out on Play (production): 20% of users; forcing waits until the release is completed",
            ])
        #expect(report.text.contains("  cn  8.0.2  (behind)"))
        #expect(report.text.contains("The App Store is ahead (patch)."))
    }

    @Test func theCountryClassesCountStorefrontsAndPlaysCountriesAreReportedApart() throws {
        let us = try StorefrontCountry("us")
        // Play serves Bangladesh and Samoa, where the App Store has no storefront; App Store
        // Connect lists territories without one too.
        let play = PlayCountryAvailability(
            track: "production", countries: ["us", "bd", "ws"], restOfWorld: false, syncWithProduction: false)
        let availability = AppStoreAvailability(
            availableInNewTerritories: false,
            territories: [.init(id: "USA", available: true), .init(id: "BGD", available: false)])
        let report = CrossStoreReport(
            appStore: [try apple("8.0.2", "us")],
            play: PlayTrack(
                track: "production",
                releases: [
                    PlayTrackRelease(name: "8.0.2", versionCodes: PlayRolloutReportTests.codes(80), status: .completed)
                ]),
            expected: [us], availability: availability, playAvailability: play)
        #expect(report.countries == [CountryStatus(country: "us", appStore: .live, googlePlay: .available)])
        #expect(report.playCountries == play)
        #expect(report.text.contains("  serves   us, bd, ws\n"), "\(report.text)")
        #expect(report.markdown.contains("Google Play (production) serves us, bd, ws."), "\(report.markdown)")
        let data = try JSONEncoder().encode(report)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let countries = (object?["playCountries"] as? [String: Any])?["countries"] as? [String]
        #expect(countries == ["us", "bd", "ws"] && (object?["countries"] as? [Any])?.count == 1)
    }

    /// `--countries all` without App Store Connect: where the app is sold is unknown, so the
    /// storefronts without a result are listed as missing but neither make the stores disagree
    /// nor hold forcing back (round 5); named one by one they still do.
    @Test func everyStorefrontWithoutAppStoreConnectListsTheMissingWithoutADisagreement() throws {
        let released = Date(timeIntervalSince1970: 1_700_000_000)
        let production = try #require(try tracks("production-rollout.json").first)
        let appStore = [try apple("8.0.2", "us", released: released), try apple("8.0.2", "cn", released: released)]
        let every = AppStoreStorefront.all.map(\.country)
        let report = CrossStoreReport(
            appStore: appStore, play: production, now: released.addingTimeInterval(25 * 3600), expected: every,
            whereSoldUnknown: true)
        #expect(report.agree && report.forceUpdate.safe, "\(report.forceUpdate.reasons)")
        #expect(report.countries.filter { $0.appStore == .missing }.count == every.count - 2)
        #expect(report.text.contains("App Store Connect would tell which are not sold"), "\(report.text)")
        let named = CrossStoreReport(
            appStore: appStore, play: production, now: released.addingTimeInterval(25 * 3600),
            expected: [try StorefrontCountry("us"), try StorefrontCountry("cn"), try StorefrontCountry("fr")])
        #expect(!named.agree && named.forceUpdate.reasons.first == "no result yet in storefront fr")
    }

    /// A storefront where App Store Connect says the app is not sold, still answering an older
    /// version, is `unexpected`, never lagging.
    @Test func aStorefrontWhereTheAppIsNotSoldIsNeverLagging() throws {
        let production = try #require(try tracks("production-rollout.json").first)
        let availability = AppStoreAvailability(
            availableInNewTerritories: false,
            territories: [.init(id: "USA", available: true), .init(id: "FRA", available: false)])
        let report = CrossStoreReport(
            appStore: [try apple("8.0.2", "us"), try apple("8.0.1", "fr")], play: production,
            expected: [try StorefrontCountry("us")], availability: availability)
        #expect(report.laggingStorefronts.isEmpty, "\(report.laggingStorefronts)")
        #expect(report.countries.first { $0.country == "fr" }?.appStore == .unexpected)
    }
}

/// Play release names as Play Console and upload tools write them, and what the report and its
/// force gate make of real rollouts: halted, country-targeted, oddly named.
@Suite struct PlayRolloutReportTests {
    static func codes(_ values: Int...) -> [VersionCode] { values.compactMap(VersionCode.init(rawValue:)) }

    @Test(
        arguments: [
            ("8.0.2", [80], "8.0.2"),
            ("80 (8.0.2)", [80], "8.0.2"),
            ("8.0.2 (80)", [80], "8.0.2"),
            ("  81 ( 8.0.10 ) ", [81], "8.0.10"),
            ("8.1.0 (85)", [84, 85], "8.1.0"),
            ("85 (8.1.0)", [84, 85], "8.1.0"),
            ("90 (9.0)", [91], "9.0"),
            ("80", [80], nil),
            ("80 (80)", [80], nil),
            ("Spring release", [81], nil),
            ("Spring release (81)", [81], nil),
            ("1 (2)", [3], nil),
            ("", [80], nil),
            ("8.0.2 (", [80], nil),
        ] as [(String, [Int], String?)])
    func releaseNamesCarryAVersionOnlyWithoutDoubt(_ name: String, _ codes: [Int], _ version: String?) {
        let found = PlayReleaseName.version(in: name, versionCodes: codes.compactMap(VersionCode.init(rawValue:)))
        #expect(found?.description == version, "\(name.debugDescription)")
    }

    func report(_ releases: [PlayTrackRelease], apple: String = "8.0.10") throws -> CrossStoreReport {
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        return CrossStoreReport(
            appStore: [
                StoreRelease(
                    store: .appStore, version: try Version(parsing: apple), country: try StorefrontCountry("us"),
                    releaseDate: old)
            ],
            play: PlayTrack(track: "production", releases: releases))
    }

    @Test func aCompletedReleaseNamedByPlayConsoleAgrees() throws {
        let report = try report([
            PlayTrackRelease(name: "81 (8.0.10)", versionCodes: Self.codes(81), status: .completed)
        ])
        #expect(report.agree && report.playVersion?.description == "8.0.10" && report.playReleaseName == "81 (8.0.10)")
        #expect(report.forceUpdate.safe && report.forceUpdate.reasons.isEmpty)
        #expect(report.playReleaseNameWithoutVersion.isEmpty)
    }

    @Test func aHaltedReleaseIsNeverLiveAndForcingItIsNotSafe() throws {
        let report = try report([
            PlayTrackRelease(name: "80 (8.0.2)", versionCodes: Self.codes(80), status: .completed),
            PlayTrackRelease(name: "81 (8.0.10)", versionCodes: Self.codes(81), status: .halted, userFraction: 0.05),
        ])
        #expect(!report.agree && report.playVersion?.description == "8.0.2")
        #expect(
            report.playHalted.map(\.version?.description) == ["8.0.10"] && report.playHalted.first?.userFraction == 0.05
        )
        #expect(!report.forceUpdate.safe && report.forceUpdate.version?.description == "8.0.10")
        #expect(
            report.forceUpdate.reasons == [
                "8.0.10 is halted on Play (production) at 5% (versionCode 81): nobody new gets it"
            ])
        #expect(report.text.contains("  halted   8.0.10 (versionCode 81) at 5% of users\n"))
    }

    @Test func aCountryTargetedRolloutNamesItsCountriesAndWaits() throws {
        let targeting = PlayTrackRelease.CountryTargeting(countries: ["US", "CA"], includeRestOfWorld: false)
        let report = try report([
            PlayTrackRelease(name: "80 (8.0.2)", versionCodes: Self.codes(80), status: .completed),
            PlayTrackRelease(
                name: "81 (8.0.10)", versionCodes: Self.codes(81), status: .inProgress, userFraction: 0.2,
                countryTargeting: targeting),
        ])
        #expect(report.playRollout?.countries == ["US", "CA"] && report.playRollout?.includeRestOfWorld == false)
        #expect(!report.forceUpdate.safe)
        #expect(
            report.forceUpdate.reasons == [
                "not fully rolled out on Play (production): 20% of users in us, ca only; forcing waits until the release is completed"
            ])
        let world = try self.report([
            PlayTrackRelease(name: "8.0.2", versionCodes: Self.codes(80), status: .completed),
            PlayTrackRelease(name: "8.0.10", versionCodes: Self.codes(81), status: .inProgress, userFraction: 0.5),
        ])
        #expect(world.playRollout?.countries == nil && world.playRollout?.includeRestOfWorld == true)
    }

    /// The snapshot's gate (`snapshot`, `watch`'s `forceUpdateSafe`) says what `parity` says of
    /// one release, read now and read back from a state file: a rollout to some countries and
    /// the rest of the world says so in both; the state file names the rest of the world only then.
    @Test(arguments: [true, false])
    func aSnapshotsGateSaysWhatParitySaysOfACountryTargetedRollout(restOfWorld: Bool) throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let releases = [
            StoreRelease(
                store: .appStore, version: try Version(parsing: "8.0.10"), country: try StorefrontCountry("us"),
                releaseDate: now.addingTimeInterval(-7 * 86_400))
        ]
        let track = PlayTrack(
            track: "production",
            releases: [
                PlayTrackRelease(name: "80 (8.0.2)", versionCodes: Self.codes(80), status: .completed),
                PlayTrackRelease(
                    name: "81 (8.0.10)", versionCodes: Self.codes(81), status: .inProgress, userFraction: 0.2,
                    countryTargeting: .init(countries: ["US", "CA"], includeRestOfWorld: restOfWorld)),
            ])
        let parity = CrossStoreReport(appStore: releases, play: track, now: now).forceUpdate
        #expect(
            parity.reasons == [
                "not fully rolled out on Play (production): 20% of users in us, ca only"
                    + (restOfWorld ? " and the rest of the world" : "")
                    + "; forcing waits until the release is completed"
            ])
        let snapshot = ReleaseSnapshot(takenAt: now, releases: releases, track: track, status: nil)
        #expect(snapshot.forceUpdate() == parity)
        let state = try JSONEncoder().encode(snapshot)
        #expect(String(decoding: state, as: UTF8.self).contains("includeRestOfWorld") == restOfWorld)
        #expect(try JSONDecoder().decode(ReleaseSnapshot.self, from: state).forceUpdate() == parity)
    }

    @Test func aNameWithoutAVersionIsReportedNotGuessed() throws {
        let report = try report(
            [
                PlayTrackRelease(name: "80", versionCodes: Self.codes(80), status: .completed),
                PlayTrackRelease(
                    name: "Spring release", versionCodes: Self.codes(81), status: .inProgress, userFraction: 0.5),
                PlayTrackRelease(name: "Draft", versionCodes: Self.codes(82), status: .draft),
            ], apple: "8.0.2")
        #expect(report.playVersion == nil && report.playVersionCode == 80 && report.playReleaseName == "80")
        #expect(report.playReleaseNameWithoutVersion == [80, 81], "drafts are not reported")
        #expect(!report.agree && report.ahead == nil)
        #expect(!report.forceUpdate.safe)
        #expect(report.forceUpdate.reasons.first?.contains(#"is named "80", which carries no version"#) == true)
        #expect(report.text.contains(#"  live     "80", no version in the name (versionCode 80)"#))
    }

    @Test func theJSONHasEveryKeyWithNullsForWhatIsUnknown() throws {
        let report = try report([PlayTrackRelease(name: "80", versionCodes: Self.codes(80), status: .completed)])
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let keys = [
            "agree", "laggingStorefronts", "storefronts", "appStoreVersion", "playTrack", "playVersion",
            "playReleaseName", "playVersionCode", "playRollout", "playHalted", "playReleaseNameWithoutVersion", "ahead",
            "aheadBy", "forceUpdate", "appStoreConnect", "countries", "playCountries",
        ]
        #expect(Set(object.keys) == Set(keys))
        #expect(
            object["playVersion"] is NSNull && object["playRollout"] is NSNull && object["appStoreConnect"] is NSNull
                && object["playCountries"] is NSNull)
        #expect(object["playHalted"] as? [Any] != nil && object["playReleaseNameWithoutVersion"] as? [Int] == [80])
    }

    @Test func theMarkdownHasAHeadingATableAndTheVerdict() throws {
        let report = try report([
            PlayTrackRelease(name: "80 (8.0.2)", versionCodes: Self.codes(80), status: .completed),
            PlayTrackRelease(name: "Fix | pipes", versionCodes: Self.codes(81), status: .halted, userFraction: 0.1),
        ])
        let lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "### The stores do not agree")
        #expect(lines.contains("| Store | Where | Version | versionCode | Status |"))
        #expect(lines.contains("| App Store | us | 8.0.10 |  | live, released 2020-09-13T12:26:40Z |"))
        #expect(lines.contains("| Google Play | production | unknown | 81 | halted at 10% of users |"))
        #expect(lines.contains("Play releases whose names carry no version (versionCode): `81`."))
        #expect(lines.contains("**Forcing 8.0.10: not yet.**"))
        #expect(lines.contains("- not fully rolled out on Play (production)"))
    }

    @Test func aTrackEncodesBackInTheAPIsShape() throws {
        let json =
            #"{"track":"production","releases":[{"name":"81 (8.0.10)","versionCodes":["81"],"status":"inProgress","userFraction":0.2,"countryTargeting":{"countries":["US"],"includeRestOfWorld":true}}]}"#
        let track = try #require(try PlayTrack.decodeTracks(from: Data(json.utf8)).first)
        let again = try PlayTrack.decodeTracks(from: JSONEncoder().encode(track))
        #expect(again == [track])
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(track)) as? [String: Any]
        let release = (object?["releases"] as? [[String: Any]])?.first
        #expect(release?["versionCodes"] as? [String] == ["81"], "versionCodes are strings, as the API writes them")
        #expect(release?["inAppUpdatePriority"] == nil, "absent values are left out, as the API leaves them")
        #expect(try PlayTrack.decodeTracks(from: Data(#"{"kind":"androidpublisher#tracksListResponse"}"#.utf8)).isEmpty)
    }
}

/// A stored lookup read once for every command: `storerelease lookup`'s output keeps its
/// storefront, an API response's storefront comes from its `trackViewUrl`.
@Suite struct StoredLookupTests {
    @Test func bothFormsKeepTheStorefront() throws {
        let fixture = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/appstore/wechat-cn.json")
        let response = try StoredLookup.releases(in: Data(contentsOf: fixture))
        #expect(response.map(\.country?.code) == ["cn"] && response.first?.version?.description == "8.0.2")
        let output = try JSONEncoder().encode(response)
        #expect(try StoredLookup.releases(in: output) == response)
        #expect(throws: DecodingError.self) { try StoredLookup.releases(in: Data(#"{"results":"#.utf8)) }
    }

    @Test func aStoredReleaseInACountryWithoutAStorefrontIsAnErrorNamingIt() {
        let stored = #" [{"store": "appStore", "appID": "1", "version": "8.0.2", "country": "bd"}]"#
        #expect {
            try StoredLookup.releases(in: Data(stored.utf8))
        } throws: { error in
            (error as? DecodingError)?.readableDescription.contains(#""bd" is not an App Store storefront"#) == true
        }
    }
}
