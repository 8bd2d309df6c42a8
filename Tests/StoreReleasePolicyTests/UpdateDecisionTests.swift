import Foundation
import StoreReleaseCore
import StoreReleaseModels
import StoreReleasePolicy
import StoreReleaseTestSupport
import Testing

/// The decision rules, first match wins, for both stores: every reason the engine can give
/// (but `inReview`, which belongs to the manifest source, not built yet), and the interactions.
@Suite struct UpdateDecisionTests {
    static let released = Date(timeIntervalSince1970: 1_612_253_722)  // 2021-02-02T08:15:22Z
    static let dayLater = released.addingTimeInterval(25 * 3600)

    static func release(_ version: String, minimumOS: String? = "11.0") -> StoreRelease {
        StoreRelease(
            store: .appStore, appID: "414478124", version: Version(version), releaseDate: released,
            releaseNotes: "notes", minimumOSVersion: minimumOS.flatMap(Version.init),
            storeURL: URL(string: "https://apps.apple.com/cn/app/id414478124"))
    }

    struct AppStoreCase: Sendable, CustomTestStringConvertible {
        let name: String
        let store: String
        let installed: String
        var policy = UpdatePolicy()
        var context = UpdateContext(now: UpdateDecisionTests.dayLater)
        let action: UpdateDecision.Action
        let reason: UpdateDecision.Reason
        var testDescription: String { name }
    }

    static let appStoreCases: [AppStoreCase] = [
        AppStoreCase(name: "equal versions", store: "8.0.2", installed: "8.0.2.0", action: .none, reason: .upToDate),
        AppStoreCase(
            name: "the build in review is newer", store: "8.0.2", installed: "8.0.10", action: .none,
            reason: .installedIsNewer),
        AppStoreCase(
            name: "the device OS is too old", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(osVersion: Version("10.3.4"), now: dayLater), action: .none, reason: .osTooOld),
        AppStoreCase(
            name: "below the minimum supported version", store: "8.0.10", installed: "7.9",
            policy: UpdatePolicy(minimumSupportedVersion: Version("8.0")), action: .immediate,
            reason: .belowMinimumSupported),
        AppStoreCase(
            name: "released 23 hours ago", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(now: released.addingTimeInterval(23 * 3600)), action: .none,
            reason: .releaseTooRecent),
        AppStoreCase(
            name: "a minor change with forceUpdateOn minor", store: "8.1", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .minor), action: .immediate, reason: .forcedByVersionChange),
        AppStoreCase(
            name: "a patch change with forceUpdateOn minor", store: "8.0.10", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .minor), action: .flexible, reason: .updateAvailable),
        AppStoreCase(
            name: "the skipped version", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(now: dayLater, skippedVersion: Version("8.0.10")), action: .none,
            reason: .skippedVersion),
        AppStoreCase(
            name: "prompted an hour ago", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(now: dayLater, lastPrompted: dayLater.addingTimeInterval(-3600)), action: .none,
            reason: .remindLater),
        AppStoreCase(
            name: "prompted two days ago", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(now: dayLater, lastPrompted: dayLater.addingTimeInterval(-48 * 3600)),
            action: .flexible,
            reason: .updateAvailable),
        AppStoreCase(
            name: "a newer release", store: "8.0.10", installed: "8.0.2", action: .flexible, reason: .updateAvailable),
        // Issue 22: the install channel, onlyForced, promptOn, reminders that follow the release.
        AppStoreCase(
            name: "a TestFlight build is never prompted, even for a forced update", store: "9.0", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .major),
            context: UpdateContext(now: dayLater, installChannel: .testFlight), action: .none, reason: .notFromTheStore),
        AppStoreCase(
            name: "a debug build is never prompted", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(now: dayLater, installChannel: .debug), action: .none, reason: .notFromTheStore),
        AppStoreCase(
            name: "onlyForced holds a patch back", store: "8.0.10", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .minor, onlyForced: true), action: .none, reason: .notForced),
        AppStoreCase(
            name: "onlyForced still forces a minor change", store: "8.1", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .minor, onlyForced: true), action: .immediate,
            reason: .forcedByVersionChange),
        AppStoreCase(
            name: "promptOn minor holds a patch back", store: "8.0.10", installed: "8.0.2",
            policy: UpdatePolicy(promptOn: .minor), action: .none, reason: .changeTooSmall),
        AppStoreCase(
            name: "promptOn minor prompts for a minor change", store: "8.1", installed: "8.0.2",
            policy: UpdatePolicy(promptOn: .minor), action: .flexible, reason: .updateAvailable),
        AppStoreCase(
            name: "promptOn patch holds a fourth-component change back", store: "8.0.2.1", installed: "8.0.2",
            policy: UpdatePolicy(promptOn: .patch), action: .none, reason: .changeTooSmall),
        AppStoreCase(
            name: "without promptOn a fourth-component change prompts, as before", store: "8.0.2.1",
            installed: "8.0.2", action: .flexible, reason: .updateAvailable),
        AppStoreCase(
            name: "\"later\" to 8.0.9 an hour ago ends when 8.0.10 arrives", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(
                now: dayLater, lastPrompted: dayLater.addingTimeInterval(-3600), remindedVersion: Version("8.0.9")),
            action: .flexible, reason: .updateAvailable),
        AppStoreCase(
            name: "\"later\" to 8.0.10 an hour ago holds for 8.0.10", store: "8.0.10", installed: "8.0.2",
            context: UpdateContext(
                now: dayLater, lastPrompted: dayLater.addingTimeInterval(-3600), remindedVersion: Version("8.0.10")),
            action: .none, reason: .remindLater),
        AppStoreCase(
            name: "a patch is reminded a week later", store: "8.0.10", installed: "8.0.2",
            policy: UpdatePolicy(remindAfterHoursByChange: [.major: 0, .minor: 24, .patch: 168]),
            context: UpdateContext(now: dayLater, lastPrompted: dayLater.addingTimeInterval(-48 * 3600)),
            action: .none, reason: .remindLater),
        AppStoreCase(
            name: "a major change is reminded at once", store: "9.0", installed: "8.0.2",
            policy: UpdatePolicy(remindAfterHoursByChange: [.major: 0, .minor: 24, .patch: 168]),
            context: UpdateContext(now: dayLater, lastPrompted: dayLater.addingTimeInterval(-60)),
            action: .flexible, reason: .updateAvailable),
        // Interactions.
        AppStoreCase(
            name: "a forced update ignores the skipped version", store: "9.0", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .major),
            context: UpdateContext(now: dayLater, skippedVersion: Version("9.0")),
            action: .immediate, reason: .forcedByVersionChange),
        AppStoreCase(
            name: "an old OS suppresses even a forced update", store: "9.0", installed: "8.0.2",
            policy: UpdatePolicy(forceUpdateOn: .major, minimumSupportedVersion: Version("9.0")),
            context: UpdateContext(osVersion: Version("10.0"), now: dayLater), action: .none, reason: .osTooOld),
        AppStoreCase(
            name: "below the minimum supported version even when released a minute ago", store: "9.0",
            installed: "8.0.2",
            policy: UpdatePolicy(minimumSupportedVersion: Version("8.5")),
            context: UpdateContext(now: released.addingTimeInterval(60)), action: .immediate,
            reason: .belowMinimumSupported),
        AppStoreCase(
            name: "the release delay is in hours, not calendar days", store: "8.0.10", installed: "8.0.2",
            policy: UpdatePolicy(releaseDelayHours: 2),
            context: UpdateContext(now: released.addingTimeInterval(2 * 3600 + 1)),
            action: .flexible, reason: .updateAvailable),
    ]

    @Test(arguments: appStoreCases)
    func appStoreRules(_ example: AppStoreCase) throws {
        let installed = try Version(parsing: example.installed)
        let decision = example.policy.decide(
            release: Self.release(example.store), installed: installed, context: example.context)
        #expect(decision.action == example.action)
        #expect(decision.reason == example.reason)
        #expect(decision.installedVersion == example.installed && decision.storeVersion == example.store)
        #expect(decision.storeURL?.host == "apps.apple.com" && decision.releaseNotes == "notes")
    }

    static func info(
        code: Int = 42, availability: UpdateAvailability = .updateAvailable, status: InstallStatus = .unknown,
        priority: Int = 0, staleness: Int? = nil, types: [AppUpdateType] = [.flexible, .immediate]
    ) -> AppUpdateInfo {
        AppUpdateInfo(
            packageName: "com.example.app", availableVersionCode: code, updateAvailability: availability,
            installStatus: status, updatePriority: priority, clientVersionStalenessDays: staleness,
            allowedUpdateTypes: types)
    }

    struct PlayCase: Sendable, CustomTestStringConvertible {
        let name: String
        let info: AppUpdateInfo
        var installed = 41
        var policy = UpdatePolicy()
        var context = UpdateContext()
        let action: UpdateDecision.Action
        let reason: UpdateDecision.Reason
        var testDescription: String { name }
    }

    static let playCases: [PlayCase] = [
        PlayCase(
            name: "downloaded", info: info(availability: .developerTriggeredUpdateInProgress, status: .downloaded),
            action: .completeUpdate, reason: .downloaded),
        PlayCase(
            name: "an update in progress of an unknown type",
            info: info(availability: .developerTriggeredUpdateInProgress, status: .downloading),
            action: .resumeImmediate, reason: .updateInProgress),
        PlayCase(
            name: "an immediate update in progress",
            info: info(availability: .developerTriggeredUpdateInProgress, status: .downloading),
            context: UpdateContext(typeInProgress: .immediate), action: .resumeImmediate, reason: .updateInProgress),
        PlayCase(
            name: "a flexible download in progress: the listener reports it",
            info: info(availability: .developerTriggeredUpdateInProgress, status: .downloading),
            context: UpdateContext(typeInProgress: .flexible), action: .none, reason: .updateInProgress),
        PlayCase(
            name: "not available", info: info(availability: .updateNotAvailable), action: .none, reason: .notAvailable),
        PlayCase(
            name: "availability unknown", info: info(availability: .unknown), action: .none,
            reason: .availabilityUnknown),
        PlayCase(name: "the same versionCode", info: info(), installed: 42, action: .none, reason: .upToDate),
        PlayCase(
            name: "an installed build newer than Play's", info: info(), installed: 50, action: .none,
            reason: .installedIsNewer),
        PlayCase(
            name: "priority 4 with immediate allowed", info: info(priority: 4), action: .immediate,
            reason: .highPriority),
        PlayCase(
            name: "priority 5 with only flexible allowed", info: info(priority: 5, types: [.flexible]),
            action: .flexible, reason: .updateAvailable),
        PlayCase(
            name: "stale for a week, immediate after 7 days", info: info(staleness: 7),
            policy: UpdatePolicy(immediateStalenessDays: 7), action: .immediate, reason: .staleForTooLong),
        PlayCase(
            name: "the skipped versionCode", info: info(), context: UpdateContext(skippedVersion: Version("42")),
            action: .none, reason: .skippedVersion),
        PlayCase(
            name: "prompted an hour ago", info: info(),
            context: UpdateContext(lastPrompted: Date().addingTimeInterval(-3600)),
            action: .none, reason: .remindLater),
        PlayCase(
            name: "flexible not allowed", info: info(types: [.immediate]), action: .none, reason: .updateTypeNotAllowed),
        PlayCase(
            name: "an APK Play did not install is never prompted", info: info(priority: 5),
            context: UpdateContext(installChannel: .debug), action: .none, reason: .notFromTheStore),
        PlayCase(
            name: "onlyForced holds a low priority back", info: info(), policy: UpdatePolicy(onlyForced: true),
            action: .none, reason: .notForced),
        PlayCase(
            name: "onlyForced still takes a high priority", info: info(priority: 5),
            policy: UpdatePolicy(onlyForced: true),
            action: .immediate, reason: .highPriority),
        PlayCase(
            name: "\"later\" to versionCode 41 ends when 42 arrives", info: info(),
            context: UpdateContext(lastPrompted: Date().addingTimeInterval(-3600), remindedVersion: Version("41")),
            action: .flexible, reason: .updateAvailable),
        PlayCase(
            name: "\"later\" to versionCode 42 holds for 42", info: info(),
            context: UpdateContext(lastPrompted: Date().addingTimeInterval(-3600), remindedVersion: Version("42")),
            action: .none, reason: .remindLater),
        PlayCase(
            name: "unknown staleness counts as 0", info: info(staleness: nil),
            policy: UpdatePolicy(flexibleStalenessDays: 2), action: .none, reason: .notStaleEnough),
        PlayCase(
            name: "stale enough for a flexible prompt", info: info(staleness: 2),
            policy: UpdatePolicy(flexibleStalenessDays: 2), action: .flexible, reason: .updateAvailable),
        PlayCase(
            name: "a high priority ignores the skipped versionCode", info: info(priority: 5),
            context: UpdateContext(skippedVersion: Version("42")), action: .immediate, reason: .highPriority),
    ]

    @Test(arguments: playCases)
    func playRules(_ example: PlayCase) throws {
        let installed = try #require(VersionCode(rawValue: example.installed))
        let decision = example.policy.decide(play: example.info, installed: installed, context: example.context)
        #expect(decision.action == example.action)
        #expect(decision.reason == example.reason)
        #expect(decision.installedVersion == String(example.installed))
    }

    struct PreconditionCase: Sendable, CustomTestStringConvertible {
        let name: String
        let allowed: [AppUpdateType]
        let withDeletion: [AppUpdateType]
        let failed: [AppUpdateType: Set<UpdatePrecondition>]
        var priority = 0
        let action: UpdateDecision.Action
        let reason: UpdateDecision.Reason
        let deleting: Bool
        let named: [String]
        var testDescription: String { name }
    }

    static let preconditionCases: [PreconditionCase] = [
        PreconditionCase(
            name: "flexible allowed once asset packs may be deleted", allowed: [], withDeletion: [.flexible],
            failed: [.flexible: [.insufficientStorage]], action: .flexible, reason: .updateAvailable, deleting: true,
            named: ["INSUFFICIENT_STORAGE"]),
        PreconditionCase(
            name: "not allowed even then: the preconditions are named", allowed: [], withDeletion: [],
            failed: [.flexible: [.needStoreToProceed, .cannotDisplay]], action: .none, reason: .updateTypeNotAllowed,
            deleting: false, named: ["CANNOT_DISPLAY", "NEED_STORE_TO_PROCEED"]),
        PreconditionCase(
            name: "a high priority immediate that needs the deletion", allowed: [.flexible], withDeletion: [.immediate],
            failed: [.immediate: [.insufficientStorage]], priority: 5, action: .immediate, reason: .highPriority,
            deleting: true, named: ["INSUFFICIENT_STORAGE"]),
        PreconditionCase(
            name: "allowed as it is: nothing to say", allowed: [.flexible, .immediate], withDeletion: [], failed: [:],
            action: .flexible, reason: .updateAvailable, deleting: false, named: []),
    ]

    /// Play's preconditions, and the asset-pack deletion Google's guide tries before giving up.
    @Test(arguments: preconditionCases)
    func playsPreconditionsAreNamedAndAssetPackDeletionIsTriedFirst(_ example: PreconditionCase) throws {
        let info = AppUpdateInfo(
            packageName: "com.example.app", availableVersionCode: 42, updateAvailability: .updateAvailable,
            installStatus: .unknown, updatePriority: example.priority, allowedUpdateTypes: example.allowed,
            failedPreconditions: example.failed, allowedUpdateTypesWithAssetPackDeletion: example.withDeletion)
        let decision = UpdatePolicy().decide(play: info, installed: try #require(VersionCode(rawValue: 41)))
        #expect(decision.action == example.action && decision.reason == example.reason)
        #expect(decision.allowAssetPackDeletion == example.deleting && decision.failedPreconditions == example.named)
        let type = example.action == .immediate ? AppUpdateType.immediate : .flexible
        #expect(
            info.isUpdateTypeAllowed(AppUpdateOptions(appUpdateType: type, allowAssetPackDeletion: true))
                == (example.action != .none), "the record answers as Play's isUpdateTypeAllowed(options) does")
    }

    @Test func theNewPolicyKeysDecodeAndBadValuesAreNamed() throws {
        let json = #"{"remindAfterHours": {"major": 0, "patch": 168}, "promptOn": "minor", "onlyForced": true}"#
        let policy = try JSONDecoder().decode(UpdatePolicy.self, from: Data(json.utf8))
        #expect(policy.remindAfterHoursByChange == [.major: 0, .minor: 24, .patch: 168])
        #expect(policy.remindAfterHours == 0, "a change not known (Play) takes the shortest")
        #expect(policy.promptOn == .minor && policy.onlyForced)
        let again = try JSONDecoder().decode(UpdatePolicy.self, from: JSONEncoder().encode(policy))
        #expect(again == policy, "a policy reads back as it was written")
        let old = try JSONDecoder().decode(UpdatePolicy.self, from: Data(#"{"remindAfterHours": 12}"#.utf8))
        #expect(old == UpdatePolicy(remindAfterHours: 12), "a number is every change's interval, as before")
        for (bad, named) in [
            (#"{"promptOn": "tiny"}"#, #"promptOn "tiny" is not major, minor or patch"#),
            (#"{"promptOn": "beyondPatch"}"#, "is not major, minor or patch"),
            (#"{"remindAfterHours": {"build": 3}}"#, "remindAfterHours.build is not major, minor or patch"),
            (#"{"remindAfterHours": {"patch": -1}}"#, "remindAfterHours.patch -1.0 is not a number of hours"),
            (#"{"remindAfterHours": -2}"#, "remindAfterHours -2.0 is not a number of hours"),
            (#"{"onlyForced": "yes"}"#, "onlyForced"),
        ] {
            #expect {
                _ = try JSONDecoder().decode(UpdatePolicy.self, from: Data(bad.utf8))
            } throws: { error in
                let text = (error as? DecodingError)?.readableDescription ?? "\(error)"
                return text.contains(named)
            }
        }
    }

    @Test func theRuleListsNameEveryReasonOnce() {
        let listed = UpdatePolicy.appStoreRules + UpdatePolicy.playRules + [.inReview]
        #expect(Set(listed) == Set(UpdateDecision.Reason.allCases))
        #expect(Set(UpdatePolicy.appStoreRules).count == UpdatePolicy.appStoreRules.count)
        #expect(Set(UpdatePolicy.playRules).count == UpdatePolicy.playRules.count)
        for example in Self.appStoreCases {
            #expect(UpdatePolicy.appStoreRules.contains(example.reason), "\(example.name)")
        }
        for example in Self.playCases { #expect(UpdatePolicy.playRules.contains(example.reason), "\(example.name)") }
    }

    /// The numbered list after `heading` in the decision guide: each item's first `code`.
    static func guideRules(after heading: String) throws -> [String] {
        let guide = try String(
            contentsOf: LoopbackServer.packageRoot.appendingPathComponent(
                "Docs/StoreReleaseKit.docc/DecidingWhatToShow.md"),
            encoding: .utf8)
        let after = try #require(guide.components(separatedBy: heading).dropFirst().first)
        var rules: [String] = []
        for line in after.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            guard let dot = line.firstIndex(of: "."), Int(line[..<dot]) != nil else {
                if rules.isEmpty { continue } else { break }
            }
            let code = line.split(separator: "`", omittingEmptySubsequences: false)
            rules.append(code.count > 1 ? String(code[1]) : "")
        }
        return rules
    }

    @Test func theGuidesRuleTablesAreTheCodesOrder() throws {
        #expect(
            try Self.guideRules(after: "The App Store and a manifest") == UpdatePolicy.appStoreRules.map(\.rawValue))
        #expect(try Self.guideRules(after: "Play's record") == UpdatePolicy.playRules.map(\.rawValue))
    }

    @Test func everyReasonIsCovered() {
        let covered = Set(
            Self.appStoreCases.map(\.reason) + Self.playCases.map(\.reason) + [Self.manifestReviewReason]
                + Self.manifestVersionTwoReasons)
        #expect(Set(UpdateDecision.Reason.allCases).subtracting(covered).isEmpty)
    }

    /// What the policy decides for a manifest and an installed version (`.updateAvailable` when
    /// either does not read).
    static func manifestReason(_ json: String, installed: String) -> UpdateDecision.Reason {
        guard let manifest = try? JSONDecoder().decode(ReleaseManifest.self, from: Data(json.utf8)),
            let installed = Version(installed)
        else { return .updateAvailable }
        return UpdatePolicy().decide(manifest: manifest, installed: installed).reason
    }

    static let manifestReviewReason = manifestReason(#"{"latestVersion": "2.0", "inReview": true}"#, installed: "1.0")

    /// The reasons only a version 2 manifest gives, decided (ManifestVersionTwoTests has the rest
    /// of their rules): a blocked version, an install outside the prompt's rollout.
    static let manifestVersionTwoReasons = [
        manifestReason(#"{"schemaVersion": 2, "latestVersion": "2.0", "blockedVersions": ["1.0"]}"#, installed: "1.0"),
        manifestReason(#"{"schemaVersion": 2, "latestVersion": "2.0", "rollout": {"percent": 0}}"#, installed: "1.9"),
    ]

    @Test func aManifestInReviewSilencesEvenAForcedUpdate() throws {
        let json = #"{"latestVersion": "9.0", "minimumSupportedVersion": "9.0", "inReview": true}"#
        let manifest = try JSONDecoder().decode(ReleaseManifest.self, from: Data(json.utf8))
        let decision = UpdatePolicy(forceUpdateOn: .major).decide(
            manifest: manifest, installed: try Version(parsing: "1.0"))
        #expect(decision.action == .none && decision.reason == .inReview)
        #expect(Self.manifestReviewReason == .inReview)
    }

    @Test func aManifestsStoreURLIsHTTPSWhateverTheCaseOfItsScheme() throws {
        // Found by the Manifest fuzzer: "httPs:" was accepted and kept, so a caller checking for
        // "https" saw "httPs".
        let json = #"{"latestVersion": "2.0", "storeURL": "httPs://apps.apple.com/cn/app/id414478124"}"#
        let manifest = try JSONDecoder().decode(ReleaseManifest.self, from: Data(json.utf8))
        #expect(manifest.storeURL?.absoluteString == "https://apps.apple.com/cn/app/id414478124")
        for bad in ["http://apps.apple.com/app/id1", "https:///no-host", "apps.apple.com/app/id1"] {
            let text = #"{"latestVersion": "2.0", "storeURL": "\#(bad)"}"#
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(ReleaseManifest.self, from: Data(text.utf8))
            }
        }
    }

    @Test func aManifestsMinimumSupportedVersionAndNotesApply() throws {
        let json = #"""
            {"latestVersion": "2.0", "minimumSupportedVersion": "1.5", "releaseNotes": {"en": "Fixes.", "zh-Hans": "修复。", "ja": "修正。"},
             "minimumOSVersion": "13.0"}
            """#
        let manifest = try JSONDecoder().decode(ReleaseManifest.self, from: Data(json.utf8))
        let decision = UpdatePolicy().decide(
            manifest: manifest, installed: try Version(parsing: "1.0"), preferredLanguages: ["zh-Hans-CN"])
        #expect(decision.action == .immediate && decision.reason == .belowMinimumSupported)
        #expect(decision.releaseNotes == "修复。")
        #expect(manifest.release(preferredLanguages: ["ja-JP"]).releaseNotes == "修正。")
        #expect(manifest.release(preferredLanguages: ["fr"]).releaseNotes == "Fixes.")
        #expect(manifest.release().store == .manifest)
        let plain = try JSONDecoder().decode(
            ReleaseManifest.self, from: Data(#"{"latestVersion":"2","releaseNotes":"Hi"}"#.utf8))
        #expect(plain.release(preferredLanguages: ["ja"]).releaseNotes == "Hi")
    }

    @Test func badManifestsAreErrors() {
        for bad in [
            "{}", #"{"latestVersion":"2.x"}"#, #"{"latestVersion":"2","forced":true}"#,
            #"{"latestVersion":"2","storeURL":"http://example.com"}"#, #"{"latestVersion":"2","releaseDate":"soon"}"#,
            #"{"latestVersion":"2","inReview":"yes"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(ReleaseManifest.self, from: Data(bad.utf8))
            }
        }
    }

    @Test func policyJSONTakesDefaultsAndRefusesUnknownKeysAndBadValues() throws {
        let empty = try JSONDecoder().decode(UpdatePolicy.self, from: Data("{}".utf8))
        #expect(empty == UpdatePolicy())
        let full = try JSONDecoder().decode(
            UpdatePolicy.self,
            from: Data(
                #"""
                {"forceUpdateOn":"minor","minimumSupportedVersion":"8.0","releaseDelayHours":2.5,"remindAfterHours":72,
                 "immediatePriority":5,"flexibleStalenessDays":3,"immediateStalenessDays":10}
                """#.utf8))
        #expect(full.forceUpdateOn == .minor && full.minimumSupportedVersion == Version("8.0"))
        #expect(full.releaseDelayHours == 2.5 && full.immediateStalenessDays == 10)
        #expect(try JSONDecoder().decode(UpdatePolicy.self, from: JSONEncoder().encode(full)) == full)
        for bad in [
            #"{"forceUpdate":"minor"}"#, #"{"forceUpdateOn":"sometimes"}"#, #"{"releaseDelayHours":-1}"#,
            #"{"minimumSupportedVersion":"8.x"}"#, #"{"immediatePriority":9}"#, #"{"flexibleStalenessDays":-2}"#, "[]",
        ] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(UpdatePolicy.self, from: Data(bad.utf8))
            }
        }
    }
}
