import Foundation
import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/DecidingWhatToShow.md`.
func decidingWhatToShowExamples() throws {
    let json = #"{"forceUpdateOn": "major", "minimumSupportedVersion": "7.0", "releaseDelayHours": 24}"#
    let policy = try JSONDecoder().decode(UpdatePolicy.self, from: Data(json.utf8))

    let released = Date(timeIntervalSince1970: 1_612_253_722)  // 2021-02-02T08:15:22Z
    let release = StoreRelease(store: .appStore, version: Version("8.0.10"), releaseDate: released)
    let now = released.addingTimeInterval(2 * 86_400)
    let decision = policy.decide(
        release: release, installed: try Version(parsing: "8.0.2"), context: UpdateContext(now: now))
    print(decision.action, decision.reason)  // flexible updateAvailable

    let inReview = policy.decide(
        release: release, installed: try Version(parsing: "8.1"), context: UpdateContext(now: now))
    print(inReview.action, inReview.reason)  // none installedIsNewer: never prompt the reviewer

    let tooSoon = policy.decide(
        release: release, installed: try Version(parsing: "8.0.2"), context: UpdateContext(now: released))
    print(tooSoon.reason)  // releaseTooRecent: the CDN may not have it everywhere yet

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let historyFile = folder.appendingPathComponent("update-prompts.json")

    let store = FilePromptHistoryStore(url: historyFile, warn: { print("warning:", $0) })
    let skipped = try Version(parsing: "8.0.10")
    try store.update { $0.skip(skipped) }  // the user tapped "Skip this version"
    let history = try store.load()
    let again = policy.decide(
        release: release, installed: try Version(parsing: "8.0.2"), context: history.context(now: now))
    print(again.reason)  // skippedVersion

    var deferred = PromptHistory()
    deferred.promptedAndDeferred(at: now, about: try Version(parsing: "8.0.10"))  // "Later" to 8.0.10
    let anHourLater = now.addingTimeInterval(3600)
    let stillLater = policy.decide(
        release: release, installed: try Version(parsing: "8.0.2"), context: deferred.context(now: anHourLater))
    print(stillLater.reason)  // remindLater
    let fix = StoreRelease(store: .appStore, version: Version("8.0.11"), releaseDate: released)
    let newer = policy.decide(
        release: fix, installed: try Version(parsing: "8.0.2"), context: deferred.context(now: anHourLater))
    print(newer.action, newer.reason)  // flexible updateAvailable: a newer release ends the reminder

    var testFlight = UpdateContext(now: now)
    testFlight.installChannel = .testFlight
    let beta = policy.decide(release: release, installed: try Version(parsing: "8.0.2"), context: testFlight)
    print(beta.reason)  // notFromTheStore

    let installed = try Version(parsing: "1.10.0")
    var whatsNew = PromptHistory(whatsNewShownFor: try Version(parsing: "1.1.0"))
    if whatsNew.shouldShowWhatsNew(installed: installed) {  // a new minor version: show it once
        whatsNew.whatsNewShown(for: installed)
    }
    print(!whatsNew.shouldShowWhatsNew(installed: installed))

    func listing(description: String) throws -> AppStoreLookupResult {
        let result: [String: Any] = [
            "trackId": 1, "bundleId": "com.example.notes", "trackName": "Notes", "version": "2.0.0",
            "currentVersionReleaseDate": "2021-02-02T08:15:22Z", "description": description,
        ]
        let data = try JSONSerialization.data(withJSONObject: ["resultCount": 1, "results": [result]])
        return try JSONDecoder().decode(AppStoreLookupResponse.self, from: data).results[0]
    }
    let aWeekOn = UpdateContext(now: released.addingTimeInterval(7 * 86_400))
    for (tag, installed) in [
        ("[:mav: 1.2.3]", "1.2.0"), ("[:mav: 0.9.9+4]", "0.9.9"), ("[:mav: 1.0.0-5.2.pre]", "1.0.0-5.1.pre"),
    ] {
        let decision = UpdatePolicy().decide(
            lookup: try listing(description: "Notes for everyone.\n\(tag)"),
            installed: try Version(parsingAppStoreOrSemVer: installed), context: aWeekOn)
        print(tag, installed, decision.action, decision.reason)
    }
    // [:mav: 1.2.3] 1.2.0 immediate belowMinimumSupported
    // [:mav: 0.9.9+4] 0.9.9 flexible updateAvailable: build metadata does not count
    // [:mav: 1.0.0-5.2.pre] 1.0.0-5.1.pre immediate belowMinimumSupported

    let manifestJSON = #"{"latestVersion": "8.1.0", "minimumSupportedVersion": "8.0.5", "inReview": false}"#
    let manifest = try JSONDecoder().decode(ReleaseManifest.self, from: Data(manifestJSON.utf8))
    let fromManifest = UpdatePolicy().decide(manifest: manifest, installed: try Version(parsing: "8.0.2"))
    print(fromManifest.action, fromManifest.reason)  // immediate belowMinimumSupported

    let versionTwo = #"""
        {"schemaVersion": 2, "latestVersion": "8.0.10", "blockedVersions": ["8.0.7"],
         "rollout": {"percent": 20, "startedAt": "2021-02-02T08:15:22Z"}}
        """#
    let staged = try JSONDecoder().decode(ReleaseManifest.self, from: Data(versionTwo.utf8))
    let pulled = UpdatePolicy().decide(manifest: staged, installed: try Version(parsing: "8.0.7"))
    print(pulled.action, pulled.reason)  // immediate blockedVersion
    let thisInstall = UpdateContext(installID: "install-0")  // a UUID the app keeps; bucket 94 of 100
    let waiting = UpdatePolicy().decide(
        manifest: staged, installed: try Version(parsing: "8.0.9"), context: thisInstall)
    print(waiting.reason)  // notInRollout: 20% of installs hear about 8.0.10 first

    if let text = UpdatePromptText(for: .flexible, appName: "微信", version: "8.0.10", preferredLanguages: ["zh-Hans"]) {
        print(text.title, text.message, text.updateButton, text.laterButton ?? "", text.skipButton ?? "")
        // 有新版本可用 微信 8.0.10 已发布。 更新 稍后 跳过此版本
    }
}
