import StoreReleaseKit

/// The guide's halt planned in Swift (compiled; `ReleaseActionTests` reads the fakes with an actor made this way).
func planAHalt(play: PlayDeveloperAPIClient, connect: AppStoreConnectClient) async throws {
    let actor = ReleaseActor(
        play: .live(packageName: "com.example.app", track: "production", client: play),
        appStoreConnect: AppStoreConnectSource(client: connect, app: .id(414_478_124)))
    let version = try Version(parsing: "8.0.10")
    let plan = ActingPlan(.halt, version: version, reading: try await actor.read(for: .halt, version: version))
    print(plan.text)
}
