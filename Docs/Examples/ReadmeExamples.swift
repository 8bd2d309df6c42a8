import Foundation
import StoreReleaseKit

/// The Swift example of the top-level README.md.
func readmeExamples() throws {
    let installed = try Version(parsing: "8.0.2")  // CFBundleShortVersionString
    let store = try Version(parsing: "8.0.10")  // the App Store's "version"
    if installed < store, let change = store.change(from: installed) {
        print("Update available: \(installed) → \(store) (\(change) change)")
    }
    // Update available: 8.0.2 → 8.0.10 (patch change)
}

/// The app and backend examples of the top-level README.md, against the given client.
func readmeLookupExample(client: AppStoreLookupClient) async throws {
    let outcome = try await readmeAppExample(client: client)
    precondition(outcome == .flexible)
    try await readmeBackendExample(client: client)
}

func readmeAppExample(client: AppStoreLookupClient) async throws -> UpdateDecision.Action {
    let installed = try Version(parsing: "8.0.1")  // CFBundleShortVersionString
    let release = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
    let decision = UpdatePolicy().decide(release: release, installed: installed)
    if decision.action != .none, let version = release.version, let url = release.storeURL {
        print("\(release.name ?? "The app") \(version) is out (\(decision.action)): \(url)")
    }
    // 微信 8.0.2 is out (flexible): https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4
    return decision.action
}

func readmeBackendExample(client: AppStoreLookupClient) async throws {
    let appStore = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
    let tracks = #"{"track":"production","releases":[{"name":"8.0.2","versionCodes":["80"],"status":"completed"}]}"#
    let play = try JSONDecoder().decode(PlayTrack.self, from: Data(tracks.utf8))
    let report = CrossStoreReport(appStore: [appStore], play: play)
    print(report.text)  // The stores agree. … Forcing 8.0.2: safe now.
    precondition(report.agree && report.forceUpdate.safe)
}
