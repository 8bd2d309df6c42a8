// An app's update check that uses only the app's product, StoreReleaseApp, as an iOS app would:
// AppProductTests checks that its binary refers to no `Foundation.Process` (Foundation has none
// on iOS, tvOS, watchOS or visionOS), and runs it against the loopback lookup server whose base
// URL is its one argument.
import Foundation
import StoreReleaseApp

guard CommandLine.arguments.count == 2, let baseURL = URL(string: CommandLine.arguments[1]) else {
    print("usage: AppProbe LOOKUP-BASE-URL")
    exit(2)
}

// The App Store: the live release in the user's storefront, the policy's decision, its prompt.
let lookup = try AppStoreLookupClient(configuration: .init(baseURL: baseURL))
let live = try await lookup.lookup(id: 414478124, country: StorefrontCountry("cn"))
let running = try Version(parsing: "8.0.1")
let action = UpdatePolicy().decide(release: live, installed: running).action
let offered = live.version.map { "\($0)" } ?? "no version"
print("App Store: \(running) → \(offered): \(action)")
if let prompt = UpdatePromptText(for: action, appName: live.name ?? "", version: offered, preferredLanguages: ["en"]) {
    print("\(prompt.title): \(prompt.message)")
}

// Google Play: the same policy over the in-app update record the simulator hands out.
var playStore = UpdateFlowSimulator()
try playStore.setUpdateAvailable(81)
let info = try playStore.getAppUpdateInfo()
let installedCode = try VersionCode(parsing: "80")
let playAction = UpdatePolicy().decide(play: info, installed: installedCode).action
print("Google Play: \(installedCode) → \(info.availableVersionCode): \(playAction)")
