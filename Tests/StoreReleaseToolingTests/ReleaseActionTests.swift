import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The plans of halt, resume, complete and recall, pure: which steps each store's state gives,
/// and what is refused before anything is written.
@Suite struct ReleaseActionTests {
    static func code(_ value: Int) throws -> VersionCode { try VersionCode(parsing: String(value)) }
    static func v(_ text: String) throws -> Version { try Version(parsing: text) }

    static func release(_ name: String, _ code: Int, _ status: PlayTrackRelease.Status, _ fraction: Double? = nil)
        throws -> PlayTrackRelease
    {
        PlayTrackRelease(name: name, versionCodes: [try Self.code(code)], status: status, userFraction: fraction)
    }

    static func reading(
        _ releases: [PlayTrackRelease], phased: PhasedRelease.State? = nil, paused: Int = 0,
        manifest: ReleaseManifest? = nil
    ) throws -> ActingReading {
        let phase = phased.map { PhasedRelease(state: $0, currentDayNumber: 3, totalPauseDuration: paused, id: "p-v4") }
        let version = AppStoreVersion(
            id: "v4", versionString: "8.0.10", state: .readyForDistribution, phasedRelease: phase)
        return ActingReading(
            googlePlay: .init(
                track: PlayTrack(track: "production", releases: releases), packageName: "com.example.app",
                tracks: [PlayTrack(track: "production", releases: releases)]),
            appStoreConnect: .init(
                status: AppStoreConnectStatus(appID: "414478124", versions: [version]), versions: [version]),
            manifest: manifest.map {
                .init(path: "m.json", json: (try? JSONValue(encoding: $0)) ?? .null, manifest: $0)
            })
    }

    static func live() throws -> PlayTrackRelease { try release("80 (8.0.2)", 80, .completed) }
    static func version() throws -> Version { try v("8.0.10") }

    struct Case: Sendable, CustomTestStringConvertible {
        let action: ReleaseAction
        let play: PlayTrackRelease.Status
        let phased: PhasedRelease.State?
        let paused: Int
        let steps: [String]
        let refused: String?
        var testDescription: String { "\(action) \(play)/\(phased?.rawValue ?? "none") paused \(paused)" }
    }

    static let cases: [Case] = [
        Case(
            action: .halt, play: .inProgress, phased: .active, paused: 0,
            steps: ["inProgress→halted", "ACTIVE→PAUSED"], refused: nil),
        Case(action: .halt, play: .halted, phased: .paused, paused: 0, steps: [], refused: nil),
        Case(action: .halt, play: .halted, phased: .active, paused: 0, steps: ["ACTIVE→PAUSED"], refused: nil),
        Case(
            action: .halt, play: .completed, phased: .active, paused: 0, steps: ["ACTIVE→PAUSED"],
            refused: "roll forward"),
        Case(action: .halt, play: .inProgress, phased: nil, paused: 0, steps: ["inProgress→halted"], refused: nil),
        Case(
            action: .resume, play: .halted, phased: .paused, paused: 4, steps: ["halted→inProgress", "PAUSED→ACTIVE"],
            refused: nil),
        Case(action: .resume, play: .halted, phased: .paused, paused: 30, steps: ["halted→inProgress"], refused: "30"),
        Case(action: .resume, play: .inProgress, phased: .active, paused: 0, steps: [], refused: nil),
        Case(
            action: .complete, play: .inProgress, phased: .paused, paused: 0,
            steps: ["inProgress→completed", "PAUSED→COMPLETE"], refused: nil),
        Case(action: .complete, play: .completed, phased: .complete, paused: 0, steps: [], refused: nil),
    ]

    @Test(arguments: cases) func planTable(_ row: Case) throws {
        let fraction: Double? = row.play == .completed ? nil : 0.2
        let plan = ActingPlan(
            row.action, version: try Self.version(),
            reading: try Self.reading(
                [try Self.live(), try Self.release("81 (8.0.10)", 81, row.play, fraction)], phased: row.phased,
                paused: row.paused))
        #expect(plan.steps.map { "\($0.from)→\($0.to)" } == row.steps)
        if let refused = row.refused {
            #expect(plan.refusals.contains { $0.contains(refused) }, "\(plan.refusals)")
        } else {
            #expect(plan.refusals.isEmpty, "\(plan.refusals)")
        }
    }

    @Test func haltingTheOnlyReleaseServingIsRefused() throws {
        let plan = ActingPlan(
            .halt, version: try Self.version(),
            reading: try Self.reading([try Self.release("81 (8.0.10)", 81, .inProgress, 0.2)]))
        #expect(plan.refusals.contains { $0.contains("no release serving") }, "\(plan.refusals)")
    }

    @Test func theHaltRequestKeepsEveryOtherReleaseAndTheFraction() throws {
        let plan = ActingPlan(
            .halt, version: try Self.version(),
            reading: try Self.reading(
                [try Self.live(), try Self.release("81 (8.0.10)", 81, .inProgress, 0.2)], phased: .active))
        let put = try #require(plan.steps.first?.request)
        #expect(put.method == "PUT" && put.path.hasSuffix("/edits/{editId}/tracks/production"))
        guard case .array(let releases)? = put.body?["releases"] else {
            Issue.record("no releases")
            return
        }
        #expect(releases.count == 2)
        #expect(releases.first?["status"] == .string("completed") && releases.first?["userFraction"] == nil)
        #expect(releases.last?["status"] == .string("halted") && releases.last?["userFraction"] == .number(0.2))
        let patch = try #require(plan.steps.last?.request)
        #expect(patch.body?["data"]?["attributes"]?["phasedReleaseState"] == .string("PAUSED"))
    }

    /// One completed release a track (fastlane #15772): the completion's request carries the
    /// new completed release in place of the earlier one, every other release as read.
    @Test func theCompleteRequestReplacesTheEarlierCompletedRelease() throws {
        let halted = try Self.release("79 (8.0.1)", 79, .halted, 0.1)
        let plan = ActingPlan(
            .complete, version: try Self.version(),
            reading: try Self.reading([try Self.live(), halted, try Self.release("81 (8.0.10)", 81, .inProgress, 0.2)]))
        guard case .array(let releases)? = plan.steps.first?.request.body?["releases"] else {
            Issue.record("no releases: \(plan)")
            return
        }
        #expect(releases.map { $0["versionCodes"] } == [.array([.string("79")]), .array([.string("81")])])
        #expect(releases.last?["status"] == .string("completed") && releases.last?["userFraction"] == nil)
    }

    /// A version carried by a serving release and a rebuilt draft of the same name: the plan acts
    /// on the serving one and names it `81 (8.0.10)`.
    @Test(arguments: [
        (ReleaseAction.halt, PlayTrackRelease.Status.inProgress), (.resume, .halted), (.complete, .inProgress),
    ])
    func theReleaseServingUsersIsActedOnNotADraftOfTheSameName(
        _ action: ReleaseAction, _ status: PlayTrackRelease.Status
    )
        throws
    {
        let serving = try Self.release("81 (8.0.10)", 81, status, 0.2)
        let draft = try Self.release("82 (8.0.10)", 82, .draft)
        let plan = ActingPlan(
            action, version: try Self.version(), reading: try Self.reading([try Self.live(), serving, draft]))
        #expect(plan.refusals.isEmpty && plan.steps.count == 1, "\(plan.refusals) \(plan.notes)")
        #expect(plan.steps.first?.subject == "81 (8.0.10)")
        guard case .playRelease(let change)? = plan.steps.first?.operation else {
            Issue.record("no Play step")
            return
        }
        #expect(change.versionCodes.map(\.rawValue) == [81] && change.from == status)
    }

    /// One staged release a track ("Too many staged releases specified", fastlane PR #29134):
    /// resuming beside another one is refused before anything is written.
    @Test func resumingBesideAnotherStagedReleaseIsRefused() throws {
        let plan = ActingPlan(
            .resume, version: try Self.version(),
            reading: try Self.reading([
                try Self.live(), try Self.release("81 (8.0.10)", 81, .halted, 0.2),
                try Self.release("83 (8.0.11)", 83, .inProgress, 0.05),
            ]))
        #expect(plan.steps.isEmpty)
        #expect(plan.refusals.contains { $0.contains("83 (8.0.11) is inProgress") && $0.contains("one staged") })
    }

    @Test func recallNeedsANewerVersionOnTheTrackAndInTheManifest() throws {
        let newer = try Self.release("82 (8.0.11)", 82, .completed)
        let bad = try Self.release("81 (8.0.10)", 81, .halted, 0.2)
        let manifest = ReleaseManifest(latestVersion: try Self.v("8.0.11"), blockedVersions: [try Self.v("8.0.7")])
        let ok = ActingPlan(
            .recall, version: try Self.version(), reading: try Self.reading([newer, bad], manifest: manifest))
        #expect(ok.refusals.isEmpty, "\(ok.refusals)")
        #expect(ok.steps.map(\.store) == [.googlePlay, .googlePlay, .manifest])
        #expect(ok.steps.last?.request.body?["blockedVersions"] == .array([.string("8.0.7"), .string("8.0.10")]))
        let noNewer = ActingPlan(
            .recall, version: try Self.version(), reading: try Self.reading([try Self.live(), bad], manifest: manifest))
        #expect(noNewer.refusals.contains { $0.contains("no newer version") })
        let old = ReleaseManifest(latestVersion: try Self.v("8.0.10"), blockedVersions: [try Self.v("8.0.7")])
        let stale = ActingPlan(
            .recall, version: try Self.version(), reading: try Self.reading([newer, bad], manifest: old))
        #expect(stale.refusals.contains { $0.contains("latestVersion 8.0.10 is not newer") })
    }

    @Test func aVersionNoStoreCarriesIsNamedWithWhatEachHas() throws {
        let reading = try Self.reading([try Self.live()])
        let missing = ActingPlan.whereMissing(try Self.v("9.9.9"), in: reading)
        #expect(missing?.contains("Google Play has 8.0.2 (production, completed)") == true, "\(missing ?? "")")
        #expect(ActingPlan.whereMissing(try Self.version(), in: reading) == nil, "App Store Connect has 8.0.10")
    }

    /// The actor of a watch's own sources acts through their clients, on the apps they read: Play's
    /// live track, App Store Connect about the app the App Store source names; so a round plans
    /// on its own read. A stored Play track is read, never written: it is not acted on.
    @Test func anActorOfTheSourcesReadActsOnWhatTheyRead() throws {
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.actor-sources"),
            configuration: .init(baseURL: try #require(URL(string: "http://127.0.0.1:9/"))))
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken("asc.actor-sources")),
            configuration: .init(baseURL: try #require(URL(string: "http://127.0.0.1:9/"))))
        let lookup = try AppStoreLookupClient(
            configuration: .init(baseURL: try #require(URL(string: "http://127.0.0.1:9/"))))
        var sources = StoreSources(
            appStore: .live(.id(414_478_124), storefronts: .listed([try StorefrontCountry("cn")]), client: lookup),
            play: .live(packageName: "com.example.app", track: "production", client: play),
            appStoreConnect: AppStoreConnectSource(client: connect))
        let actor = ReleaseActor(acting: sources)
        #expect(actor.stores == [.googlePlay, .appStore])
        #expect(actor.play?.packageName == "com.example.app" && actor.appStoreConnect?.app == .id(414_478_124))
        let acting = try Self.reading([try Self.live(), try Self.release("81 (8.0.10)", 81, .inProgress, 0.1)])
        var read = StoreReading()
        read.googlePlay = acting.googlePlay
        read.appStoreConnect = acting.appStoreConnect
        #expect(
            actor.reading(from: read, platform: sources.appStoreConnect?.platform) == acting,
            "planned on the round's read")
        sources.play = .stored(PlayTrack(track: "production", releases: []), packageName: "com.example.app")
        #expect(ReleaseActor(acting: sources).stores == [.appStore], "a stored track is not acted on")
    }

    /// An actor on a track the app lacks reads the tracks listed in one edit and notes where the
    /// version is; it does not read the missing track again (as a watch's read does, for its error).
    @Test func aTrackTheAppLacksIsNotedFromOneEdit() async throws {
        let server = try LoopbackServer.shared.get()
        let token = UUID().uuidString
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.actor-\(UUID().uuidString)"),
            configuration: .init(baseURL: server.baseURL("ok", token: token)))
        let actor = ReleaseActor(play: .live(packageName: "com.example.rollout", track: "beta", client: play))
        let reading = try await actor.read(for: .halt, version: try Self.version())
        #expect(reading.googlePlay?.track == PlayTrack(track: "beta", releases: []))
        #expect(reading.googlePlay?.tracks?.map(\.track) == ["production"])
        let plan = ActingPlan(.halt, version: try Self.version(), reading: reading)
        #expect(
            plan.steps.isEmpty
                && plan.notes == ["Google Play: 8.0.10 is not on beta (only on production); name the track it is on"],
            "\(plan.notes)")
        #expect(try server.playStats(token: token)["editsInserted"] as? Int == 1)
    }

    /// A commit Play refuses half-way through an applied plan: the edit is deleted, the next
    /// step is not sent, and the plan says which step failed and which were not done.
    @Test func aCommitRefusedMidPlanLeavesNoOpenEditAndAnExactAccount() async throws {
        let server = try LoopbackServer.shared.get()
        let token = UUID().uuidString
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.actor-\(UUID().uuidString)"),
            configuration: .init(
                baseURL: server.baseURL("ok", token: token),
                retry: RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(10))))
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken("asc-actor-token")),
            configuration: .init(baseURL: server.baseURL("rolling", token: token)))
        let actor = ReleaseActor(
            play: .live(packageName: "com.example.alone", track: "production", client: play),
            appStoreConnect: AppStoreConnectSource(client: connect, app: .id(414_478_124)))
        let change = PlayReleaseChange(
            track: "production", versionCodes: [try Self.code(81)], from: .inProgress, to: .halted)
        let plan = ActingPlan(
            action: .halt, version: try Self.version(),
            steps: [
                ActingStep(
                    store: .googlePlay, from: "inProgress", to: "halted",
                    request: StoreRequest(method: "PUT", path: "/", body: nil), operation: .playRelease(change)),
                ActingStep(
                    store: .appStore, from: "ACTIVE", to: "PAUSED",
                    request: try AppStoreConnectClient.phasedReleaseRequest(id: "p-v4", state: .paused),
                    operation: .phasedRelease(id: "p-v4", state: .paused)),
            ])
        let applied = await actor.apply(plan)
        #expect(applied.apply && applied.verified == false)
        #expect(applied.steps.map(\.done) == [false, false])
        #expect(applied.steps[0].error?.contains("500") == true, "\(applied.steps[0].error ?? "")")
        #expect(applied.steps[1].error == nil, "not sent")
        let stats = try server.playStats(token: token)
        #expect(stats["openEdits"] as? Int == 0 && stats["editsCommitted"] as? Int == 0)
        #expect(try server.ascStats(token: token)["writes"] as? Int ?? 0 == 0)
        #expect(applied.text.contains("stopped: a store refused a step") && applied.text.contains("[not done]"))
    }
}
