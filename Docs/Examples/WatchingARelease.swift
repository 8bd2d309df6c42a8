import Foundation
import StoreReleaseKit

// The examples of Docs/StoreReleaseKit.docc/WatchingARelease.md, against the loopback server's
// scripted release (Tests/Fixtures/timeline/release.json).

/// Three rounds of a watch over both stores, then the propagation lag the state measured.
func watchRelease(
    lookup: AppStoreLookupClient, play: PlayDeveloperAPIClient, connect: AppStoreConnectClient, statePath: String,
    interval: Duration
) async throws {
    let watcher = ReleaseWatcher(
        state: WatchStateFile(path: statePath),
        appStore: .live(
            .id(414_478_124), storefronts: .listed([.unitedStates, try StorefrontCountry("jp")]), client: lookup),
        play: .live(packageName: "com.tencent.mm", track: "production", client: play),
        appStoreConnect: AppStoreConnectSource(client: connect),
        interval: interval)
    let outcome = try await watcher.run(
        rounds: 3,
        progress: { progress in
            switch progress {
            case .baseline:
                print("baseline recorded")
            case .events(let events):
                for event in events { print(event.sentence) }
            case .storeFailed(let error, let retryIn):
                print("could not read a store (\(error)); next round in \(retryIn)")
            case .halted(let plan):
                print("halted \(plan.version): verified \(plan.verified == true)")
            case .delivered, .deliveryFailed, .historyFailed, .haltFailed, .rolledOut, .rolloutFailed:
                break
            }
        })
    print("\(outcome.rounds) rounds, \(outcome.undelivered) events owed to the webhook")

    if let state = try WatchStateFile(path: statePath).read() {
        for lag in PropagationLag.report(state) {
            print("\(lag.version): \(lag.storefronts.count) storefront(s) so far, missing \(lag.missing)")
        }
    }
}

/// The guide's example, run against the loopback server's timeline scenario.
func watchingAReleaseExamples(baseURL: URL) async throws {
    let timeline = baseURL.deletingLastPathComponent().appendingPathComponent("timeline-release")
    let lookup = try AppStoreLookupClient(configuration: .init(baseURL: timeline))
    let play = try PlayDeveloperAPIClient(
        token: try BearerToken("doc-examples-token"), configuration: .init(baseURL: timeline))
    let connect = try AppStoreConnectClient(
        credentials: .token(try BearerToken("doc-examples-token")), configuration: .init(baseURL: timeline))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await watchRelease(
        lookup: lookup, play: play, connect: connect, statePath: folder.appendingPathComponent("watch.json").path,
        interval: .zero)
}
