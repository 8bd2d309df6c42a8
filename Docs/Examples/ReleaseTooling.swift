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

    if report.forceUpdate.safe, let version = report.forceUpdate.version {
        print("publish a policy with minimumSupportedVersion \(version)")
    } else {
        print("not yet:", report.forceUpdate.reasons.joined(separator: "; "))
    }
}

/// The guide's live examples, against the loopback server at `baseURL`, which plays both the
/// lookup API and the Play Developer API.
func releaseToolingLiveExamples(baseURL: URL, accessToken: String) async throws {
    let appStore = try AppStoreLookupClient(configuration: .init(baseURL: baseURL))
    let play = try PlayDeveloperAPIClient(token: try BearerToken(accessToken), configuration: .init(baseURL: baseURL))

    let rollout = try await play.track("production", packageName: "com.example.rollout")
    for release in rollout.releases {
        print(release.status, release.version?.description ?? "no version", release.userFraction ?? 1)
    }

    let storefronts = try await appStore.lookup(.id(414478124), in: [StorefrontCountry("cn")])
    let track = try await play.track("production", packageName: "com.example.rollout")
    let live = CrossStoreReport(appStore: storefronts, play: track)
    print(live.markdown)

    let stores = StoreSources(
        appStore: .live(.id(414478124), storefronts: .listed([try StorefrontCountry("cn")]), client: appStore),
        play: .live(packageName: "com.example.completed", track: "production", client: play))
    var waiter = ReleaseWaiter(sources: stores, version: try Version(parsing: "8.0.2"))
    waiter.interval = .seconds(60)
    let done = try await waiter.run { round in print(round) }
    print(done.summary)  // 8.0.2 is live in cn; fully rolled out on Google Play (production)
}

/// The guide's client for Google's host, with a token from the environment (compiled, not run).
func playClientExample(accessToken: String) throws -> PlayDeveloperAPIClient {
    let play = try PlayDeveloperAPIClient(token: try BearerToken(accessToken))
    return play
}

/// The guide's App Store Connect and manifest examples, against the loopback server.
func appStoreConnectExamples(baseURL: URL) async throws {
    let appStore = try AppStoreLookupClient(configuration: .init(baseURL: baseURL))
    let connect = try AppStoreConnectClient(
        credentials: .token(try BearerToken("doc-examples-token")),
        configuration: .init(baseURL: baseURL.deletingLastPathComponent().appendingPathComponent("phased")))

    let status = try await connect.status(of: .bundleID("com.tencent.xin"), platform: .iOS)
    if let live = status.live, let phase = live.phasedRelease, phase.state != .complete {
        print("\(live.version) reaches \(phase.percent)% of automatic updates (\(phase.state), day \(phase.day ?? 0))")
    }
    if let pending = status.pending {
        print("next: \(pending.version) is \(pending.state)")
    }

    let generator = ManifestGenerator(releaseDelayHours: 24)
    let cn = try await appStore.lookup(.id(414478124), country: StorefrontCountry("cn"))
    let result = try generator.appStore(cn, appStoreConnect: status, minimumSupported: try Version(parsing: "8.0.2"))
    for reason in result.reasons {
        print("minimumSupportedVersion left out:", reason)
    }
    let manifestJSON = try JSONEncoder().encode(result.manifest)
    print(String(decoding: manifestJSON, as: UTF8.self).count > 0 ? "manifest written" : "empty manifest")
}

/// The guide's key, compiled but not run (there is no key file here).
func appStoreConnectKeyExample() throws -> AppStoreConnectClient {
    let key = try AppStoreConnectKey(
        keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a",
        signer: try OpenSSLSigner(keyFile: URL(fileURLWithPath: "AuthKey_2X9R4HXF34.p8")))
    let connect = try AppStoreConnectClient(credentials: .key(key))
    return connect
}
