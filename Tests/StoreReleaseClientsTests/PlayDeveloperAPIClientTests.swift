import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels

/// The Play Developer API client against the loopback server's Play routes: every path deletes
/// its edit, none commits one, every request carries the token, and no error shows it.
@Suite struct PlayDeveloperAPIClientTests {
    static let secret = "ya29.a0-test-secret-token-\(UUID().uuidString)"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func client(
        _ scenario: String, token: String, timeout: Duration = .seconds(10),
        retry: RetryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10))
    ) throws -> PlayDeveloperAPIClient {
        let configuration = HTTPClientConfiguration(
            baseURL: server.baseURL(scenario, token: token), timeout: timeout, retry: retry)
        return try PlayDeveloperAPIClient(token: try BearerToken(Self.secret), configuration: configuration)
    }

    /// The server's counters for a token.
    func stats(_ token: String) throws -> [String: Int] {
        try server.playStats(token: token).compactMapValues { $0 as? Int }
    }

    /// Every edit opened was deleted, none committed, and every request carried the bearer token.
    func expectEditsCleanedUp(_ token: String, inserted: Int, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let counts = try stats(token)
        #expect(counts["editsInserted"] == inserted, "\(counts)", sourceLocation: sourceLocation)
        #expect(counts["editsDeleted"] == inserted, "\(counts)", sourceLocation: sourceLocation)
        #expect(counts["openEdits"] == 0 && counts["editsCommitted"] == 0, "\(counts)", sourceLocation: sourceLocation)
        #expect(counts["unauthorized"] == 0, sourceLocation: sourceLocation)
        let bearer = try server.playStats(token: token)["bearer"] as? [String]
        #expect(bearer == [Self.secret], "every request authorized with the token", sourceLocation: sourceLocation)
    }

    /// The error `body` throws, checked to hide the token in every rendering.
    func error(
        _ body: () async throws(HTTPClientError) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    )
        async -> HTTPClientError?
    {
        do throws(HTTPClientError) {
            try await body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return nil
        } catch {
            var dumped = ""
            dump(error, to: &dumped)
            for text in [error.description, String(reflecting: error), dumped] {
                #expect(!text.contains(Self.secret), "the token shows in \(text)", sourceLocation: sourceLocation)
            }
            return error
        }
    }

    @Test func readsEveryTrackThroughAnEditItDeletesAndNeverCommits() async throws {
        let token = UUID().uuidString
        let tracks = try await client("ok", token: token).tracks(packageName: "com.example.rollout")
        #expect(tracks.map(\.track) == ["production"])
        let rollout = try #require(tracks.first?.rollout)
        #expect(rollout.version?.description == "8.0.10" && rollout.userFraction == 0.2)
        #expect(rollout.countryTargeting == .init(countries: ["US", "CA"], includeRestOfWorld: false))
        #expect(tracks.first?.liveRelease?.version?.description == "8.0.2", "80 (8.0.2) names 8.0.2")
        try expectEditsCleanedUp(token, inserted: 1)
    }

    @Test func anEmptyTrackIsATrackWithoutReleases() async throws {
        let token = UUID().uuidString
        let client = try client("ok", token: token)
        let beta = try await client.track("beta", packageName: "com.example.completed")
        #expect(beta == PlayTrack(track: "beta", releases: []), "v3 answers {\"track\": \"beta\"}, no releases key")
        let old = try await self.client("trackEmptyV2", token: token).track(
            "beta", packageName: "com.example.completed")
        #expect(old == PlayTrack(track: "beta", releases: []), "v2's 404 trackEmpty is an empty track too")
        #expect(try await client.releases(packageName: "com.example.completed", track: "beta").isEmpty)
        try expectEditsCleanedUp(token, inserted: 2)
    }

    @Test func aTrackTheAppDoesNotHaveIsAnErrorNamingTheTracksItHas() async throws {
        let token = UUID().uuidString
        let client = try client("ok", token: token)
        let missing = await error { () throws(HTTPClientError) in
            _ = try await client.track("prodution", packageName: "com.example.completed")
        }
        #expect(
            missing
                == .play(
                    .trackNotFound("prodution", available: ["production", "internal", "beta", "Pre-release testing"])))
        #expect(missing?.isPermanent == true, "polling cannot make a track appear")
        try expectEditsCleanedUp(token, inserted: 1)

        let editFree = await error { () throws(HTTPClientError) in
            _ = try await client.releases(packageName: "com.example.completed", track: "prodution")
        }
        #expect(
            editFree == .play(.trackNotFound("prodution", available: nil)),
            "the edit-free list opens no edit to name them")
        #expect(
            editFree?.description.contains("PlayDeveloperAPIClient.tracks(packageName:) lists the tracks it has")
                == true)
    }

    @Test func aCustomTrackNameGoesPercentEncoded() async throws {
        let token = UUID().uuidString
        let client = try client("ok", token: token)
        let custom = try await client.track("Pre-release testing", packageName: "com.example.completed")
        #expect(custom.track == "Pre-release testing" && custom.liveRelease?.version?.description == "8.0.4")
        let summaries = try await client.releases(packageName: "com.example.completed", track: "Pre-release testing")
        #expect(summaries.map(\.releaseName) == ["8.0.4 (83)"])
        try expectEditsCleanedUp(token, inserted: 1)
    }

    @Test func aPermissionDenied401SaysToInviteTheAccountNotToMakeAToken() async throws {
        let notInvited = try client("401permission", token: UUID().uuidString)
        let denied = await error { () throws(HTTPClientError) in
            _ = try await notInvited.tracks(packageName: "com.example.completed")
        }
        guard case .play(.notInvited(let message)) = denied?.reason else {
            Issue.record("expected notInvited, got \(String(describing: denied))")
            return
        }
        #expect(message.contains("insufficient permissions"))
        #expect(denied?.description.contains("Play Console") == true && denied?.description.contains("Invite") == true)
        #expect(denied?.description.contains("gcloud auth") == false, "not told to make a fresh token")
        let refused = try client("401", token: UUID().uuidString)
        let expired = await error { () throws(HTTPClientError) in
            _ = try await refused.tracks(packageName: "com.example.completed")
        }
        #expect(expired?.description.contains("make a fresh one") == true, "other 401s keep their message")
    }

    @Test func anEditDeletedUnderUsIsOpenedAgainOnce() async throws {
        let token = UUID().uuidString
        let track = try await client("editDeleted", token: token).track("production", packageName: "com.example.halted")
        #expect(track.haltedReleases.map(\.version?.description) == ["8.0.10"])
        try expectEditsCleanedUp(token, inserted: 2)

        let again = UUID().uuidString
        let deleting = try client("editDeleted400", token: again)
        let failure = await error { () throws(HTTPClientError) in
            _ = try await deleting.tracks(packageName: "com.example.halted")
        }
        guard case .play(.editDeleted(let message)) = failure?.reason else {
            Issue.record("expected editDeleted, got \(String(describing: failure))")
            return
        }
        #expect(message == "This Edit has been deleted.")
        try expectEditsCleanedUp(again, inserted: 2)
    }

    @Test(arguments: [
        ("401", "Google refused the token (HTTP 401"),
        ("403scope", "the token lacks the androidpublisher scope"),
        ("403disabled", "the Google Play Android Developer API is not enabled"),
        ("403permission", "the token's account may not read this app"),
    ])
    func refusalsAreTypedPermanentAndSayWhatToDo(_ scenario: String, _ message: String) async throws {
        let token = UUID().uuidString
        let refusing = try client(scenario, token: token)
        let failure = await error { () throws(HTTPClientError) in
            _ = try await refusing.track("production", packageName: "com.example.completed")
        }
        #expect(failure?.description.contains(message) == true, "\(String(describing: failure))")
        #expect(failure?.isPermanent == true)
        if scenario == "403scope" {
            #expect(
                failure
                    == .play(.forbidden(.scopeInsufficient, message: "Request had insufficient authentication scopes."))
            )
        }
        #expect(try stats(token)["requests"] == 1, "no retry on a refusal")
        try expectEditsCleanedUp(token, inserted: 0)
    }

    @Test func anUnknownPackageIsNamed() async throws {
        let token = UUID().uuidString
        let client = try client("ok", token: token)
        let failure = await error { () throws(HTTPClientError) in
            _ = try await client.tracks(packageName: "com.example.nothing")
        }
        #expect(failure == .play(.packageNotFound("com.example.nothing")) && failure?.isPermanent == true)
        let listing = await error { () throws(HTTPClientError) in
            _ = try await client.releases(packageName: "com.example.nothing", track: "production")
        }
        #expect(listing == .play(.packageNotFound("com.example.nothing")))
        try expectEditsCleanedUp(token, inserted: 0)
    }

    @Test(arguments: ["429once", "500once", "409once"])
    func aThrottleAConflictOrAServerErrorIsRetried(_ scenario: String) async throws {
        let token = UUID().uuidString
        let track = try await client(scenario, token: token).track("production", packageName: "com.example.completed")
        #expect(track.liveRelease?.highestVersionCode?.rawValue == 80)
        #expect(try stats(token)["requests"] == 4, "one failed attempt, then insert, read, delete")
        try expectEditsCleanedUp(token, inserted: 1)
    }

    @Test func theEditIsDeletedWhenTheReadFails() async throws {
        let cases: [(String, (HTTPClientError) -> Bool)] = [
            ("500tracks", { $0 == .play(.httpStatus(500, message: "Internal error encountered.")) }),
            (
                "badjson",
                {
                    if case .play(.exchange(.invalidPayload(let m))) = $0.reason {
                        m.contains("userFraction")
                    } else {
                        false
                    }
                }
            ),
            (
                "html",
                { if case .play(.exchange(.notJSON(let type, _))) = $0.reason { type == "text/html" } else { false } }
            ),
        ]
        for (scenario, expected) in cases {
            let token = UUID().uuidString
            let failing = try client(scenario, token: token)
            let failure = await error { () throws(HTTPClientError) in
                _ = try await failing.track("production", packageName: "com.example.completed")
            }
            #expect(failure.map(expected) == true, "\(scenario): \(String(describing: failure))")
            try expectEditsCleanedUp(token, inserted: 1)
        }
    }

    @Test func theEditIsDeletedOnATimeoutAndOnCancellation() async throws {
        let timedOut = UUID().uuidString
        let slow = try client("slow", token: timedOut, timeout: .seconds(2), retry: .none)
        let failure = await error { () throws(HTTPClientError) in
            _ = try await slow.track("production", packageName: "com.example.completed")
        }
        #expect(failure == .play(.exchange(.timedOut(after: .seconds(2)))))
        try expectEditsCleanedUp(timedOut, inserted: 1)

        let cancelled = UUID().uuidString
        let client = try client("slow", token: cancelled)
        let task = Task { () throws(HTTPClientError) -> PlayTrack in
            try await client.track("production", packageName: "com.example.completed")
        }
        // Cancel once the edit is open and the server holds its read.
        try await until("the server holds the read") { (try? stats(cancelled)["trackReads"]) == 1 }
        task.cancel()
        let result = await task.result
        #expect(throws: HTTPClientError.play(.exchange(.cancelled))) { try result.get() }
        try expectEditsCleanedUp(cancelled, inserted: 1)
    }

    @Test func theReleasesListOpensNoEdit() async throws {
        let token = UUID().uuidString
        let client = try client("publishing", token: token)
        let first = try await client.releases(packageName: "com.example.rollout", track: "production")
        #expect(first.map(\.lifecycleState) == [.inReview, .inReview])
        _ = try await client.releases(packageName: "com.example.rollout", track: "production")
        let third = try await client.releases(packageName: "com.example.rollout", track: "production")
        #expect(third.map(\.releaseName) == ["80 (8.0.2)", "81 (8.0.10)"])
        #expect(third.map { $0.versionCodes.map(\.rawValue) } == [[80], [81]])
        #expect(third[1].isPublished(version: try Version(parsing: "8.0.10"), versionCode: nil))
        #expect(!third[1].isPublished(version: try Version(parsing: "8.1"), versionCode: nil))
        #expect(third[1].isPublished(version: nil, versionCode: VersionCode(rawValue: 81)))
        let empty = try await client.releases(packageName: "com.example.completed", track: "beta")
        #expect(empty.isEmpty)
        let counts = try stats(token)
        #expect(counts["editRequests"] == 0 && counts["releasesRequests"] == 4)
    }

    @Test func anUnknownLifecycleStateIsKept() throws {
        let json =
            #"{"releaseName":"9","activeArtifacts":[{"versionCode":9}],"releaseLifecycleState":"RELEASE_LIFECYCLE_STATE_NEW"}"#
        let summary = try JSONDecoder().decode(PlayReleaseSummary.self, from: Data(json.utf8))
        #expect(summary.lifecycleState.rawValue == "RELEASE_LIFECYCLE_STATE_NEW")
        #expect(!summary.isPublished(version: nil, versionCode: VersionCode(rawValue: 9)))
        #expect(summary.version == nil, "a name that is its versionCode names no version")
    }

    @Test func badNamesAndBaseURLsAreRefusedBeforeAnythingIsSent() async throws {
        #expect(throws: HTTPClientError.self) {
            try PlayDeveloperAPIClient(
                token: try BearerToken("t"),
                configuration: .init(baseURL: try #require(URL(string: "http://example.com"))))
        }
        let client = try client("ok", token: UUID().uuidString)
        for package in ["app", "com..app", "1com.app", "com.app-x", ""] {
            let failure = await error { () throws(HTTPClientError) in
                _ = try await client.tracks(packageName: package)
            }
            guard case .play(.invalidRequest(let message)) = failure?.reason else {
                Issue.record("\(package): \(String(describing: failure))")
                continue
            }
            #expect(message.contains(package.debugDescription) && message.contains("not an Android package name"))
        }
        for (track, message) in [
            ("", "is empty"), (String(repeating: "x", count: 101), "over 100 characters"),
            ("beta\n", "control character"),
        ] {
            let badTrack = await error { () throws(HTTPClientError) in
                _ = try await client.track(track, packageName: "com.example.app")
            }
            #expect(badTrack?.description.contains(message) == true, "\(String(describing: badTrack))")
        }
    }

    @Test func theTokenNeverShows() throws {
        let token = try BearerToken("  \(Self.secret)\n")
        var dumped = ""
        dump(token, to: &dumped)
        let client = try PlayDeveloperAPIClient(token: token)
        var dumpedClient = ""
        dump(client, to: &dumpedClient)
        let request = HTTPRequest(
            url: PlayDeveloperAPIClient.defaultBaseURL, headers: ["Authorization": token.authorizationHeader])
        var dumpedRequest = ""
        dump(request, to: &dumpedRequest)
        for text in [
            token.description, String(reflecting: token), dumped, dumpedClient, "\(client)", request.description,
            dumpedRequest,
        ] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
        #expect(token.authorizationHeader == "Bearer \(Self.secret)", "white space around a token is dropped")
        #expect(Redactor(tokens: [token])("echo \(Self.secret)!") == "echo <redacted>!")
        #expect(throws: BearerTokenError.empty) { try BearerToken(" \n") }
        #expect(throws: BearerTokenError.whitespaceInside) { try BearerToken("ya29 abc") }
    }
}
