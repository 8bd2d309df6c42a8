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
