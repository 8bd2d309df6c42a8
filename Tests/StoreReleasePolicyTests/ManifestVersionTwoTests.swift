import Foundation
import StoreReleaseCore
import StoreReleasePolicy
import Testing

@testable import StoreReleaseModels

/// Manifest version 2: blocked versions, a staged rollout of the prompt, Play's version names.
@Suite struct ManifestVersionTwoTests {
    static let now = Date(timeIntervalSince1970: 1_612_569_600)  // 2021-02-06
    static func manifest(_ json: String) throws -> ReleaseManifest {
        try JSONDecoder().decode(ReleaseManifest.self, from: Data(json.utf8))
    }

    @Test func aBlockedVersionMustUpdateAndOthersAreAsked() throws {
        let manifest = try Self.manifest(
            #"{"schemaVersion": 2, "latestVersion": "8.0.10", "blockedVersions": ["8.0.7", "8.0.8"]}"#)
        let context = UpdateContext(now: Self.now)
        let blocked = UpdatePolicy().decide(
            manifest: manifest, installed: try Version(parsing: "8.0.7"), context: context)
        #expect(blocked.action == .immediate && blocked.reason == .blockedVersion)
        let fine = UpdatePolicy().decide(manifest: manifest, installed: try Version(parsing: "8.0.9"), context: context)
        #expect(fine.action == .flexible && fine.reason == .updateAvailable)
        let current = UpdatePolicy().decide(
            manifest: manifest, installed: try Version(parsing: "8.0.10"), context: context)
        #expect(current.reason == .upToDate)
    }

    @Test func theRolloutSplitIsWithinOnePercentAndAnInstallKeepsItsBucket() throws {
        let latest = try Version(parsing: "8.0.10")
        let buckets = (0..<100_000).map {
            ReleaseManifest.Rollout.bucket(installID: "install-\($0)", latestVersion: latest)
        }
        #expect(buckets.allSatisfy { (0..<100).contains($0) })
        for percent in [1.0, 5, 20, 50, 90] {
            let inside = buckets.filter { Double($0) < percent }.count
            let share = Double(inside) / 1000
            #expect(abs(share - percent) <= 1, "\(percent)%: \(share)% of 100,000 installs")
        }
        let uuids = (0..<100_000).map { _ in UUID().uuidString }
        let twenty = uuids.filter {
            ReleaseManifest.Rollout(percent: 20).includes(installID: $0, latestVersion: latest)
        }
        #expect(abs(Double(twenty.count) / 1000 - 20) <= 1, "random ids too: \(twenty.count)")
        #expect(
            ReleaseManifest.Rollout.bucket(installID: "install-7", latestVersion: latest) == buckets[7],
            "the same install and version, the same bucket")
        // Pinned, so the function (which a server may reimplement) never changes silently.
        #expect(
            ["install-0", "install-1", "A5F2C0DE-0000-4000-8000-000000000001"].map {
                ReleaseManifest.Rollout.bucket(installID: $0, latestVersion: latest)
            } == Self.pinned)
        let next = try Version(parsing: "8.0.11")
        let moved = (0..<1000).filter {
            ReleaseManifest.Rollout.bucket(installID: "install-\($0)", latestVersion: next) != buckets[$0]
        }
        #expect(moved.count > 900, "each version draws anew, so the same installs are not always first")
    }

    /// The buckets of three installs for 8.0.10, computed apart from this package (Python, from
    /// the algorithm the documentation states).
    static let pinned = [94, 36, 74]

    @Test func outsideTheRolloutNoPromptButTheSafetyRulesStillApply() throws {
        let manifest = try Self.manifest(
            #"{"schemaVersion": 2, "latestVersion": "8.0.10", "minimumSupportedVersion": "8.0.5", "blockedVersions": ["8.0.7"], "rollout": {"percent": 0}}"#
        )
        func decide(_ installed: String, id: String? = "install-1") throws -> UpdateDecision {
            UpdatePolicy().decide(
                manifest: manifest, installed: try Version(parsing: installed),
                context: UpdateContext(now: Self.now, installID: id))
        }
        #expect(try decide("8.0.9").reason == .notInRollout)
        #expect(try decide("8.0.9", id: nil).reason == .notInRollout, "without an id, only 100% includes")
        #expect(try decide("8.0.7").reason == .blockedVersion)
        #expect(try decide("8.0.4").reason == .belowMinimumSupported)
        let everyone = try Self.manifest(
            #"{"schemaVersion": 2, "latestVersion": "8.0.10", "rollout": {"percent": 100}}"#)
        #expect(
            UpdatePolicy().decide(
                manifest: everyone, installed: try Version(parsing: "8.0.9"), context: UpdateContext(now: Self.now)
            ).reason == .updateAvailable)
    }

    @Test(arguments: [
        (
            #"{"latestVersion": "2.0", "blockedVersions": ["1.0"]}"#,
            #"blockedVersions is a key of manifest version 2: add "schemaVersion": 2"#
        ),
        (#"{"schemaVersion": 3, "latestVersion": "2.0"}"#, "schemaVersion 3 is not 1 or 2"),
        (
            #"{"schemaVersion": 2, "latestVersion": "2.0", "blockedVersions": ["1.0", "1.x"]}"#,
            #"blockedVersions[1] "1.x" is not a version"#
        ),
        (
            #"{"schemaVersion": 2, "latestVersion": "2.0", "rollout": {"percent": 101}}"#,
            "rollout.percent 101.0 is outside 0–100"
        ),
        (
            #"{"schemaVersion": 2, "latestVersion": "2.0", "rollout": {"percent": -1}}"#,
            "rollout.percent -1.0 is outside 0–100"
        ),
        (
            #"{"schemaVersion": 2, "latestVersion": "2.0", "rollout": {"percent": 5, "start": "x"}}"#,
            #""start" is not a key of a rollout"#
        ),
        (
            #"{"schemaVersion": 2, "latestVersion": "2.0", "versionNames": {"eighty": "8.0"}}"#,
            #"versionNames key "eighty" is not a versionCode"#
        ),
        (
            #"{"schemaVersion": 2, "latestVersion": "2.0", "versionNames": {"80": "v8"}}"#,
            #"versionNames["80"] "v8" is not a version"#
        ),
    ])
    func aBadVersionTwoManifestIsNamed(_ json: String, _ message: String) throws {
        #expect {
            _ = try Self.manifest(json)
        } throws: { error in
            ((error as? DecodingError)?.readableDescription ?? "\(error)").contains(message)
        }
    }

    @Test func versionOneReadsAndWritesAsBefore() throws {
        let json = #"{"latestVersion":"8.0.10","minimumSupportedVersion":"8.0","inReview":true}"#
        let manifest = try Self.manifest(json)
        #expect(manifest.schemaVersion == 1 && manifest.blockedVersions.isEmpty && manifest.rollout == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(manifest), as: UTF8.self)
                == #"{"inReview":true,"latestVersion":"8.0.10","minimumSupportedVersion":"8.0"}"#)
        let two = try Self.manifest(
            #"{"schemaVersion": 2, "latestVersion": "8.0.10", "rollout": {"percent": 20, "startedAt": "2021-02-02T08:15:22Z"}, "versionNames": {"81": "8.0.10"}}"#
        )
        #expect(try Self.manifest(String(decoding: try encoder.encode(two), as: UTF8.self)) == two)
    }

    @Test func playDecidesTheChangeFromTheManifestsNames() throws {
        let names: [VersionCode: Version] = [
            try #require(VersionCode(rawValue: 80)): try Version(parsing: "8.0.9"),
            try #require(VersionCode(rawValue: 90)): try Version(parsing: "9.0"),
            try #require(VersionCode(rawValue: 81)): try Version(parsing: "8.0.10"),
        ]
        func info(_ code: Int) -> AppUpdateInfo {
            AppUpdateInfo(
                packageName: "com.example.app", availableVersionCode: code, updateAvailability: .updateAvailable,
                installStatus: .unknown, allowedUpdateTypes: [.flexible, .immediate])
        }
        let installed = try #require(VersionCode(rawValue: 80))
        let major = UpdatePolicy(forceUpdateOn: .major).decide(
            play: info(90), installed: installed, versionNames: names)
        #expect(major.action == .immediate && major.reason == .forcedByVersionChange)
        let patch = UpdatePolicy(forceUpdateOn: .major, promptOn: .minor).decide(
            play: info(81), installed: installed, versionNames: names)
        #expect(patch.reason == .changeTooSmall)
        let unnamed = UpdatePolicy(forceUpdateOn: .major).decide(play: info(90), installed: installed)
        #expect(unnamed.reason == .updateAvailable, "without names Play's record says no change")
    }
}
