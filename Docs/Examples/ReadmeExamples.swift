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

/// The App Store example of the top-level README.md, against the given client.
func readmeLookupExample(client: AppStoreLookupClient) async throws {
    let installed = try Version(parsing: "8.0.1")
    let release = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
    if let storeVersion = release.version, storeVersion > installed, let url = release.storeURL {
        print("\(release.name ?? "The app") \(storeVersion) is out: \(url)")
    }
    // 微信 8.0.2 is out: https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4
}
