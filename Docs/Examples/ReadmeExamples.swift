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
    let outcome = try await checkForUpdate(client: client)
    print(outcome == .flexible)
    try await readmeBackendExample(client: client, play: play)
}

func readmeBackendExample(client: AppStoreLookupClient, play: PlayDeveloperAPIClient) async throws {
    let storefronts = try await client.lookup(.id(414478124), in: [StorefrontCountry("cn")])
    let production = try await play.track("production", packageName: "com.example.rollout")
    let report = CrossStoreReport(appStore: storefronts, play: production)
    print(report.text)  // The stores agree. … rollout 8.0.10 … in us, ca only … Forcing 8.0.2: safe now.
}
