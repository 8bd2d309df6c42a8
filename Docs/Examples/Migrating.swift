import Foundation
import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/MigratingFromHandWrittenChecks.md` that need no
/// network.
func migratingExamples() throws {
    try seed001Replacement()
    try seed002Replacement()
    try seed003Replacement()
    try seed004Replacement()
    try seed004AndroidReplacement()
    try fromSiren()
    try fromUpgrader()
}

/// "From Siren": its rules per update type as a policy.
func fromSiren() throws {
    let sirenRules = #"""
        {"forceUpdateOn": "major", "releaseDelayHours": 24,
         "remindAfterHours": {"major": 0, "minor": 24, "patch": 168}}
        """#
    let likeSiren = try JSONDecoder().decode(UpdatePolicy.self, from: Data(sirenRules.utf8))
    print(likeSiren.remindHours(for: .minor), likeSiren.remindHours(for: .patch))  // 24.0 168.0
}

/// "From upgrader": its settings as a policy and a context.
func fromUpgrader() throws {
    let upgraderLike = UpdatePolicy(minimumSupportedVersion: Version("1.2.3"), remindAfterHours: 72)
    var beta = UpdateContext(now: Date())
    beta.installChannel = .testFlight  // upgrader #450: no store prompt for a TestFlight build
    let release = StoreRelease(store: .appStore, version: Version("1.3.0"), releaseDate: Date(timeIntervalSince1970: 0))
    print(upgraderLike.decide(release: release, installed: try Version(parsing: "1.2.0"), context: beta).reason)
    // notFromTheStore
}

/// Seed 000's replacement, against the given client (the tests' loopback server).
func migratingLookupExample(client: AppStoreLookupClient) async throws {
    let outcome = await appStoreVersion(client: client)
    print(outcome == "8.0.2")
}

func appStoreVersion(client: AppStoreLookupClient) async -> String {
    do {
        let release = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
        return release.version?.description ?? "no version"
    } catch let error as HTTPClientError {
        return "could not check: \(error)"  // not "no update": a 503, HTML, a timeout, not sold in cn…
    } catch {
        return "bad storefront: \(error)"
    }
}

func seed001Replacement() throws {
    let installed = try Version(parsing: "1.2")
    let store = try Version(parsing: "1.2.0")
    print(!(installed < store))  // NSNumericSearch says 1.2 < 1.2.0: a prompt to install 1.2
    let link = AppStoreLinks.appStoreApp(trackId: 1197227551, country: try StorefrontCountry("cn"))
    print(link.absoluteString == "itms-apps://apps.apple.com/cn/app/id1197227551")
}

func seed002Replacement() throws {
    let released = Date(timeIntervalSince1970: 1_488_509_724)  // 2017-03-03T02:55:24Z
    let release = StoreRelease(store: .appStore, version: Version("1.0.9"), releaseDate: released)
    let installed = try Version(parsing: "1.0.8")
    let policy = UpdatePolicy()
    var history = PromptHistory()
    let now = released.addingTimeInterval(3 * 86_400)
    let first = policy.decide(release: release, installed: installed, context: history.context(now: now))
    print(first.action)  // flexible
    history.promptedAndDeferred(at: now)  // the user tapped "later"
    let anHourLater = history.context(now: now.addingTimeInterval(3600))
    let second = policy.decide(release: release, installed: installed, context: anHourLater)
    print(second.action, second.reason)  // none remindLater: not on every launch
}

func seed003Replacement() throws {
    let store = try Version(parsing: "2.0")
    let installed = try Version(parsing: "1.9.9")
    print(installed < store)  // "199" > "20" as integers: the seed never offers 2.0

    var history = PromptHistory()
    history.whatsNewShown(for: try Version(parsing: "1.1.0"))
    let updated = try Version(parsing: "1.10.0")
    print(history.shouldShowWhatsNew(installed: updated))  // "1.1" == "1.1": the seed shows nothing
}

func seed004Replacement() throws {
    do {
        _ = try Version(parsing: "1.4 (18)")
    } catch {
        print(error)  // "1.4 (18)": … at offset 3: the seed made it 1.0.0
    }
    let fourth = try Version(parsing: "7.13.88.4022")
    let third = try Version(parsing: "7.13.88.4021")
    print(third < fourth)  // the seed keeps three components: equal, no update

    let inReview = try Version(parsing: "2.1")  // the build Apple is reviewing
    let live = StoreRelease(store: .appStore, version: Version("2.0"))
    let decision = UpdatePolicy().decide(release: live, installed: inReview)
    print(decision.action, decision.reason)  // none installedIsNewer: `!=` prompted the reviewer
}

func seed004AndroidReplacement() throws {
    var play = UpdateFlowSimulator()
    try play.setUpdateAvailable(88)
    try play.startUpdateFlow(.flexible)
    try play.userAcceptsUpdate()
    try play.downloadCompletes()  // the user left the app while it downloaded

    let policy = UpdatePolicy()
    let installed = try VersionCode(parsing: "87")
    let onResume = policy.decide(play: try play.getAppUpdateInfo(), installed: installed)
    print(onResume.action)  // completeUpdate: ask for the restart, once per resume

    var unbound = UpdateFlowSimulator()
    try unbound.setInstallErrorCode(.errorAPINotAvailable)  // an emulator: "Failed to bind to the service"
    do {
        _ = try unbound.getAppUpdateInfo()
    } catch {
        print(error.code == "ERROR_API_NOT_AVAILABLE")  // a failed task, not a crash
    }
}
