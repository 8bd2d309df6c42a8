import Foundation
import StoreReleaseKit

/// The examples in the library's doc comments, which the docs test finds here line for line.
func docCommentExamples() throws {
    let installed = try Version(parsing: "8.0.2")
    let store = try Version(parsing: "8.0.10")
    print(installed < store)  // true: 10 > 2 as numbers, whatever string comparison says

    let input = Array("8.0.10\n8.0.2\n1.2\n".utf8)
    let output = try VersionLines.sorted(input)
    print(String(decoding: output, as: UTF8.self))  // 1.2, 8.0.2, 8.0.10, a line each

    var sort = VersionRunSort(store: TemporaryRunFile(directory: TemporaryRunFile.defaultDirectory))
    try sort.add(Array("8.0.10\n1.2\n".utf8))
    try sort.add(Array("8.0.2\n".utf8))
    var merged: [UInt8] = []
    _ = try sort.merge {
        merged += $0
        return true
    }  // 1.2, 8.0.2, 8.0.10, a line each
    print(merged == output)  // true

    let decoder = JSONDecoder()
    decoder.userInfo[.versionScheme] = VersionScheme.semver
    print(try decoder.decode([Version].self, from: Data(#"["1.0.0-rc.1"]"#.utf8)))

    let request = try AppStoreLookupRequest(ids: [414478124], country: StorefrontCountry("cn"))
    print(request.url())  // https://itunes.apple.com/lookup?id=414478124&country=cn

    var fake = UpdateFlowSimulator()
    try fake.setUpdateAvailable(2)
    try fake.startUpdateFlow(.flexible)
    try fake.userAcceptsUpdate()

    let graph = UpdateFlowGraph(store: .googlePlay)
    print(graph.mermaid)  // a stateDiagram-v2 GitHub draws

    let schedule = try RolloutSchedule(percentages: [1, 5, 20, 100], stepHours: 12)
    print(schedule.next(after: 0.05) ?? 1)  // 0.2
}

/// The doc comments' network examples: compiled, not run (they would reach Apple and Google).
func docCommentNetworkExamples(token: String) async throws {
    let client = try AppStoreLookupClient()
    let wechat = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
    print(wechat.version?.description ?? "no version")  // 8.0.2

    let play = try PlayDeveloperAPIClient(token: try BearerToken(token))
    let production = try await play.track("production", packageName: "com.example.app")
    print(production.liveRelease?.version ?? "no version")

    var configuration = HTTPClientConfiguration.playDeveloperAPI
    configuration.timeout = .seconds(10)
    configuration.retry = .none
    let impatient = try PlayDeveloperAPIClient(token: try BearerToken(token), configuration: configuration)
    print(impatient.configuration.timeout)  // 10 seconds

    let cn = try StorefrontCountry("cn")
    let appStore = AppStoreSource.live(.id(414478124), storefronts: .listed([cn]), client: client)
    let android = PlaySource.live(packageName: "com.example.app", track: "production", client: play)
    let report = try await CrossStoreReport.gather(appStore: appStore, play: android)
    print(report.agree ? "the stores agree" : "lagging: \(report.laggingStorefronts)")

    let sources = StoreSources(appStore: appStore, play: android)
    let reading = try await sources.read()
    print(reading.appStore?.releases.count ?? 0, reading.googlePlay?.track.liveRelease?.version ?? "none")

    let key = try AppStoreConnectKey(
        keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a",
        signer: try OpenSSLSigner(keyFile: URL(fileURLWithPath: "AuthKey_2X9R4HXF34.p8")))
    let connect = try AppStoreConnectClient(credentials: .key(key))
    let status = try await connect.status(of: .bundleID("com.example.app"), platform: .iOS)
    print(status.live?.phasedRelease?.percent ?? 100)
}
