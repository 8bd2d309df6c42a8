import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels

/// The clients' writes against the stateful fakes: a Play change goes through one edit that is
/// committed or deleted (never left open), App Recovery creates and deploys, and the phased
/// release PATCH changes what App Store Connect reads next.
@Suite struct StoreWriteClientTests {
    static let secret = "ya29.a0-write-secret-\(UUID().uuidString)"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func play(_ scenario: String = "ok", token: String) throws -> PlayDeveloperAPIClient {
        try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret),
            configuration: HTTPClientConfiguration(
                baseURL: server.baseURL(scenario, token: token),
                retry: RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(10))))
    }

    func connect(_ scenario: String, token: String) throws -> AppStoreConnectClient {
        try AppStoreConnectClient(
            credentials: .token(try BearerToken(Self.secret)),
            configuration: .init(
                baseURL: server.baseURL(scenario, token: token), retry: RetryPolicy(baseDelay: .milliseconds(10))))
    }

    func stats(_ token: String) throws -> [String: Int] {
        try server.playStats(token: token).compactMapValues { $0 as? Int }
    }

    static let halt = PlayReleaseChange(
        track: "production", versionCodes: [VersionCode(rawValue: 81)].compactMap { $0 }, from: .inProgress, to: .halted
    )

    @Test func aHaltCommitsOneEditKeepingTheFractionAndTheOtherRelease() async throws {
        let token = UUID().uuidString
        let client = try play(token: token)
        let before = try await client.track("production", packageName: "com.example.rollout")
        let committed = try await client.apply(Self.halt, packageName: "com.example.rollout")
        let after = try await client.track("production", packageName: "com.example.rollout")
        #expect(committed == after)
        let halted = try #require(after.haltedReleases.first)
        #expect(halted.userFraction == 0.2 && halted.versionCodes.map(\.rawValue) == [81])
        #expect(halted.countryTargeting == before.rollout?.countryTargeting && halted.name == before.rollout?.name)
        #expect(after.liveRelease == before.liveRelease, "the completed 80 goes back as read")
        let counts = try stats(token)
        #expect(counts["editsCommitted"] == 1 && counts["tracksUpdated"] == 1 && counts["openEdits"] == 0, "\(counts)")
    }

    @Test func haltingTheLastServingReleaseIsRefusedAtCommitAndTheEditDeleted() async throws {
        let token = UUID().uuidString
        let client = try play(token: token)
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.apply(Self.halt, packageName: "com.example.alone")
        }
        #expect(error?.code == .httpStatus && error?.description.contains("500") == true)
        #expect(error?.description.contains(Self.secret) == false)
        let counts = try stats(token)
        #expect(counts["editsCommitted"] == 0 && counts["openEdits"] == 0 && counts["editsDeleted"] == 1, "\(counts)")
        #expect(counts["commitsRefused"] ?? 0 >= 1)
        let track = try await client.track("production", packageName: "com.example.alone")
        #expect(track.rollout?.versionCodes.map(\.rawValue) == [81], "nothing changed")
    }

    @Test func aReleaseThatMovedOnIsNotWrittenAndTheEditIsDeleted() async throws {
        let token = UUID().uuidString
        let client = try play(token: token)
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.apply(Self.halt, packageName: "com.example.halted")
        }
        #expect(error?.code == .conflict)
        #expect(error?.description.contains("is halted now, not inProgress") == true, "\(String(describing: error))")
        let counts = try stats(token)
        #expect(counts["writes"] == 0 && counts["openEdits"] == 0 && counts["editsDeleted"] == 1, "\(counts)")
    }

    @Test func aCommitHeldForReviewIsSentAgainWithChangesNotSentForReview() async throws {
        let token = UUID().uuidString
        let client = try play("reviewheld", token: token)
        _ = try await client.apply(Self.halt, packageName: "com.example.rollout")
        let counts = try stats(token)
        #expect(counts["editsCommitted"] == 1 && counts["commitsRefused"] == 1 && counts["openEdits"] == 0)
        let paths = try server.playStats(token: token)["paths"] as? [String] ?? []
        #expect(paths.contains { $0.hasSuffix(":commit") })
    }

    @Test func aCompletionDropsTheFraction() async throws {
        let token = UUID().uuidString
        let client = try play(token: token)
        let change = PlayReleaseChange(
            track: "production", versionCodes: Self.halt.versionCodes, from: .inProgress, to: .completed)
        let track = try await client.apply(change, packageName: "com.example.rollout")
        #expect(track.liveRelease?.versionCodes.map(\.rawValue) == [81] && track.liveRelease?.userFraction == nil)
    }

    @Test func appRecoveryCreatesDeploysAndListsByVersionCode() async throws {
        let token = UUID().uuidString
        let client = try play(token: token)
        let codes = [VersionCode(rawValue: 81)].compactMap { $0 }
        let request = try PlayDeveloperAPIClient.createRecoveryRequest(
            packageName: "com.example.recall", versionCodes: codes, regions: ["us", "DE"])
        #expect(request.body?["targeting"]?["regions"]?["regionCode"] == .array([.string("US"), .string("DE")]))
        let created = try await client.createRecovery(
            packageName: "com.example.recall", versionCodes: codes, regions: ["us", "DE"])
        #expect(created.status == .draft && created.versionCodes == codes && created.regions == ["US", "DE"])
        try await client.deployRecovery(created.appRecoveryID, packageName: "com.example.recall")
        let listed = try await client.recoveryActions(packageName: "com.example.recall", versionCode: codes[0])
        #expect(listed.map(\.status) == [.active] && listed.first?.appRecoveryID == created.appRecoveryID)
        let old = try await client.recoveryActions(
            packageName: "com.example.recall", versionCode: try VersionCode(parsing: "79"))
        #expect(old.first?.recoveredDevices == 400 && old.first?.totalDevices == 1000 && old.first?.regions == nil)
        let counts = try stats(token)
        #expect(counts["recoveriesCreated"] == 1 && counts["recoveriesDeployed"] == 1 && counts["writes"] == 2)
        let none = try await client.recoveryActions(
            packageName: "com.example.rollout", versionCode: try VersionCode(parsing: "81"))
        #expect(none.isEmpty)
    }

    @Test func aRecoveryCreateIsSentOnceEvenWhenPlayAnswers500() async throws {
        let token = UUID().uuidString
        let client = try play("500once", token: token)
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.createRecovery(
                packageName: "com.example.recall", versionCodes: Self.halt.versionCodes, regions: nil)
        }
        #expect(error?.code == .httpStatus)
        let counts = try stats(token)
        #expect(counts["requests"] == 1 && counts["recoveriesCreated"] ?? 0 == 0, "not sent again: \(counts)")
    }

    @Test func aRegionThatIsNotTwoLettersIsRefusedBeforeAnythingIsSent() async throws {
        let token = UUID().uuidString
        let client = try play(token: token)
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.createRecovery(
                packageName: "com.example.recall", versionCodes: Self.halt.versionCodes, regions: ["USA"])
        }
        #expect(error?.code == .invalidRequest && error?.description.contains("\"USA\"") == true)
        #expect(try stats(token)["requests"] ?? 0 == 0)
    }

    @Test func thePhasedReleasePatchPausesAndTheNextReadSaysSo() async throws {
        let token = UUID().uuidString
        let client = try connect("rolling", token: token)
        let before = try await client.versions(appID: "414478124")
        let phase = try #require(before.first { $0.versionString == "8.0.10" }?.phasedRelease)
        let id = try #require(phase.id)
        let paused = try await client.setPhasedRelease(id: id, to: .paused)
        #expect(paused.state == .paused && paused.id == id)
        let after = try await client.versions(appID: "414478124")
        #expect(after.first { $0.versionString == "8.0.10" }?.phasedRelease?.state == .paused)
        let counts = try server.ascStats(token: token).compactMapValues { $0 as? Int }
        #expect(counts["writes"] == 1 && counts["phasedPatched"] == 1)
    }

    @Test func resumingAPauseOfThirtyDaysIsApplesStateError() async throws {
        let token = UUID().uuidString
        let client = try connect("pausedlong", token: token)
        let versions = try await client.versions(appID: "414478124")
        let id = try #require(versions.first { $0.versionString == "8.0.10" }?.phasedRelease?.id)
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.setPhasedRelease(id: id, to: .active)
        }
        #expect(error?.description.contains("409") == true && error?.description.contains("STATE_ERROR") == true)
        #expect(error?.description.contains(Self.secret) == false)
    }
}
