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
func readmeLookupExample(client: AppStoreLookupClient, play: PlayDeveloperAPIClient) async throws {
    let outcome = try await readmeAppExample(client: client)
    print(outcome == .flexible)
    try await readmeBackendExample(client: client, play: play)
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

func readmeBackendExample(client: AppStoreLookupClient, play: PlayDeveloperAPIClient) async throws {
    let storefronts = try await client.lookup(.id(414478124), in: [StorefrontCountry("cn")])
    let production = try await play.track("production", packageName: "com.example.rollout")
    let report = CrossStoreReport(appStore: storefronts, play: production)
    print(report.text)  // The stores agree. … rollout 8.0.10 … in US, CA only … Forcing 8.0.2: safe now.
}
