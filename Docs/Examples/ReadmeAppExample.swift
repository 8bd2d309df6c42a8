// The README's app example, in a file that imports only the app's product, as an app's code
// does: it compiles with what StoreReleaseApp exports.
import StoreReleaseApp

func checkForUpdate(client: AppStoreLookupClient) async throws -> UpdateDecision.Action {
    let installed = try Version(parsing: "8.0.1")  // CFBundleShortVersionString
    let release = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
    let decision = UpdatePolicy().decide(release: release, installed: installed)
    if decision.action != .none, let version = release.version, let url = release.storeURL {
        print("\(release.name ?? "The app") \(version) is out (\(decision.action)): \(url)")
    }
    // 微信 8.0.2 is out (flexible): https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4
    return decision.action
}
