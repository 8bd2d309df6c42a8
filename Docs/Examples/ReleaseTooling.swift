import Foundation
import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/ReleaseTooling.md`, on the payloads in
/// `Docs/Examples/payloads`.
func releaseToolingExamples() throws {
    let payloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("payloads")

    let trackJSON = try Data(contentsOf: payloads.appendingPathComponent("play-production.json"))
    let production = try PlayTrack.decodeTracks(from: trackJSON)[0]
    if let rollout = production.rollout {
        print("Play is rolling out \(rollout.name ?? "?") to \(Int((rollout.userFraction ?? 1) * 100))% of users")
    }

    var appStore: [StoreRelease] = []
    for (file, country) in [("appstore-wechat-us.json", "us"), ("appstore-wechat-cn.json", "cn")] {
        let data = try Data(contentsOf: payloads.appendingPathComponent(file))
        let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: data)
        appStore.append(StoreRelease(response.results[0], country: try StorefrontCountry(country)))
    }
    let now = try Date("2021-02-12T00:00:00Z", strategy: .iso8601)
    let report = CrossStoreReport(appStore: appStore, play: production, releaseDelayHours: 24, now: now)
    print(report.text)
    precondition(!report.agree && report.laggingStorefronts == ["cn"] && report.ahead == "appStore")

    if report.forceUpdate.safe, let version = report.forceUpdate.version {
        print("publish a policy with minimumSupportedVersion \(version)")
    } else {
        print("not yet:", report.forceUpdate.reasons.joined(separator: "; "))
    }
    precondition(!report.forceUpdate.safe)
}
