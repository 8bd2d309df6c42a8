import Foundation
import StoreReleaseCore
import StoreReleaseModels
import StoreReleaseTooling
import Testing

/// The force gate waits for health: safe only when every store judged is `healthy`.
@Suite struct HealthGateTests {
    let now = Date(timeIntervalSince1970: 1_612_396_800)  // 2021-02-04

    func report(health: ReleaseHealthReport?) throws -> CrossStoreReport {
        let version = try Version(parsing: "8.0.10")
        let release = StoreRelease(
            store: .appStore, version: version, country: try StorefrontCountry("cn"),
            releaseDate: now.addingTimeInterval(-7 * 86400))
        let track = PlayTrack(
            track: "production",
            releases: [
                PlayTrackRelease(
                    name: "8.0.10", versionCodes: [try #require(VersionCode(rawValue: 81))], status: .completed)
            ])
        return CrossStoreReport(appStore: [release], play: track, now: now, health: health)
    }

    /// Both stores serving 8.0.10, a week ago on the App Store and completed on Play, with `health`.
    func reading(health: ReleaseHealthReport) throws -> StoreReading {
        StoreReading(
            appStore: StoreReading.AppStore(releases: [
                StoreRelease(
                    store: .appStore, version: try Version(parsing: "8.0.10"), country: try StorefrontCountry("cn"),
                    releaseDate: now.addingTimeInterval(-7 * 86400))
            ]),
            googlePlay: StoreReading.GooglePlay(
                track: PlayTrack(
                    track: "production",
                    releases: [
                        PlayTrackRelease(
                            name: "8.0.10", versionCodes: [try #require(VersionCode(rawValue: 81))], status: .completed)
                    ])),
            health: health)
    }

    @Test func aSourceThatCannotBeReadBlocksForcing() throws {
        let unknown = StoreHealth.unreadable(
            store: .googlePlay, source: .playDeveloperReporting, reason: "the API could not be read: HTTP 403")
        let gate = try report(health: ReleaseHealthReport(appStore: nil, googlePlay: unknown)).forceUpdate
        #expect(!gate.safe)
        #expect(
            gate.reasons == [
                "Google Play's health is unknown (the API could not be read: HTTP 403); forcing waits until every "
                    + "store's health is healthy"
            ])
    }

    @Test func withoutHealthTheGateIsAsBefore() throws {
        let report = try report(health: nil)
        #expect(report.forceUpdate.safe && report.forceUpdate.reasons.isEmpty, "\(report.forceUpdate.reasons)")
        #expect(report.forceUpdate.version == (try Version(parsing: "8.0.10")))
        #expect(report.health == nil)
    }

    @Test func aRecordedVerdictThatIsNotHealthyHoldsTheSnapshotsGate() throws {
        let reading = try reading(
            health: ReleaseHealthReport(
                appStore: nil,
                googlePlay: .unreadable(store: .googlePlay, source: .healthFile, reason: "no file"),
                version: try Version(parsing: "8.0.10")))
        let snapshot = ReleaseSnapshot(reading, takenAt: now)
        #expect(snapshot.health?.googlePlay?.verdict == .unknown)
        let gate = try #require(snapshot.forceUpdate())
        #expect(
            !gate.safe && gate.reasons.contains { $0.hasPrefix("Google Play 8.0.10 is unknown") }, "\(gate.reasons)")
        var healthy = snapshot
        healthy.health = nil
        #expect(healthy.forceUpdate()?.safe == true)
    }

    /// One sentence for a verdict with its numbers: the force gate's health reason reads the same
    /// from a report (`parity`) and from a snapshot's record of it (`snapshot`, `watch`, a halt's
    /// Slack text), on either store, with the App Store's counts called sessions.
    @Test(arguments: [Store.googlePlay, .appStore])
    func theForceGatesHealthReasonHasOneWording(_ store: Store) throws {
        var days: [HealthDay] = []
        for offset in 0..<3 {
            let day = try #require(HealthDate("2021-02-0\(offset + 1)"))
            days.append(
                try #require(
                    HealthDay(
                        date: day, version: try Version(parsing: "8.0.9"), versionCode: VersionCode(rawValue: 80),
                        users: 21_000, crashedUsers: 126, anrUsers: store == .googlePlay ? 21 : nil)))
            days.append(
                try #require(
                    HealthDay(
                        date: day, version: try Version(parsing: "8.0.10"), versionCode: VersionCode(rawValue: 81),
                        users: 7_000, crashedUsers: 147, anrUsers: store == .googlePlay ? 7 : nil)))
        }
        let health = StoreHealth.judge(
            try VersionOrCode(parsing: "8.0.10"), store: store, source: .healthFile, days: days,
            criteria: try HealthCriteria())
        #expect(health.verdict.kind == .regressed, "\(health.reasons)")
        let parity = try #require(health.gateReason)
        let report =
            store == .googlePlay
            ? ReleaseHealthReport(appStore: nil, googlePlay: health, version: try Version(parsing: "8.0.10"))
            : ReleaseHealthReport(appStore: health, googlePlay: nil, version: try Version(parsing: "8.0.10"))
        #expect(try self.report(health: report).forceUpdate.reasons.contains(parity))
        let reading = try reading(health: report)
        let snapshot = try #require(ReleaseSnapshot(reading, takenAt: now).forceUpdate())
        #expect(snapshot.reasons.contains(parity), "\(snapshot.reasons) vs \(parity)")
        #expect(
            parity.contains(store == .googlePlay ? "user-days" : "sessions") && parity.contains(" vs "), "\(parity)")
    }
}
