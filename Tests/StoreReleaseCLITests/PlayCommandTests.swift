import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease tracks`, `parity --package` and `wait --package` as a backend runs them, against
/// the loopback server's Play Developer API; the token never shows.
@Suite struct PlayCommandTests {
    static let secret = "ya29.cli-secret-\(UUID().uuidString)"

    let server: LoopbackServer
    let scratch: ScratchFolder
    let tokenFile: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("play-token")
        tokenFile = scratch.url.appendingPathComponent("token")
        try Data((Self.secret + "\n").utf8).write(to: tokenFile)
    }

    /// Runs `storerelease` with the token in a file (or, with `useEnvironment`, in the variable;
    /// without `withToken`, nowhere).
    func run(
        _ arguments: [String], useEnvironment: Bool = false, withToken: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BuiltProducts.Result {
        let token = useEnvironment || !withToken ? [] : ["--play-token-file", tokenFile.path]
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), arguments + token,
            environment: useEnvironment ? ["STORERELEASE_PLAY_TOKEN": Self.secret] : ["STORERELEASE_PLAY_TOKEN": ""])
        #expect(result.exited, sourceLocation: sourceLocation)
        #expect(
            !result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret), sourceLocation: sourceLocation
        )
        return result
    }

    func play(_ scenario: String, token: String = UUID().uuidString) -> String {
        server.baseURL(scenario, token: token).absoluteString
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func tracksPrintsTheAPIsShapeAndParityReadsItBack() throws {
        let token = UUID().uuidString
        let one = try run([
            "tracks", "--package", "com.example.rollout", "--track", "production", "--play-base-url",
            play("ok", token: token),
        ])
        #expect(one.status == 0, "\(one.stderr)")
        let track = try json(one.stdout)
        #expect(track["track"] as? String == "production")
        let releases = try #require(track["releases"] as? [[String: Any]])
        #expect(releases.map { $0["name"] as? String } == ["80 (8.0.2)", "81 (8.0.10)"])
        #expect(releases.last?["versionCodes"] as? [String] == ["81"])
        #expect((releases.last?["countryTargeting"] as? [String: Any])?["countries"] as? [String] == ["US", "CA"])

        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("track-\(UUID().uuidString).json")
        try Data(one.stdout.utf8).write(to: saved)
        defer { try? FileManager.default.removeItem(at: saved) }
        let stored = try run(
            [
                "parity", "--lookup", ParityAndWaitCommandTests.wechat, "--play-track", saved.path, "--now",
                "2030-01-01T00:00:00Z",
            ], withToken: false)
        let live = try run([
            "parity", "--lookup", ParityAndWaitCommandTests.wechat, "--package", "com.example.rollout",
            "--play-base-url",
            play("ok", token: token), "--now", "2030-01-01T00:00:00Z",
        ])
        // The live track answers as the stored one, and says too that Play has no App Recovery
        // action for its versionCodes (a stored track cannot say: it has no such key).
        var answer = try json(live.stdout)
        #expect(answer.removeValue(forKey: "playRecoveryActions") as? [Any] != nil)
        #expect(answer.keys.sorted() == (try json(stored.stdout)).keys.sorted())
        #expect(stored.status == 0 && live.status == 0)
        #expect(
            stored.stdout
                == live.stdout.replacingOccurrences(of: "  \"playRecoveryActions\" : [\n\n  ],\n", with: ""),
            "the stored track answers as the live one")

        let all = try run(
            ["tracks", "--package", "com.example.completed", "--play-base-url", play("ok", token: token)],
            useEnvironment: true)
        #expect(all.status == 0)
        let list = try #require(try json(all.stdout)["tracks"] as? [[String: Any]])
        #expect(list.map { $0["track"] as? String } == ["production", "internal", "beta", "Pre-release testing"])
        let stats = try server.playStats(token: token)
        #expect(stats["editsInserted"] as? Int == 3 && stats["editsDeleted"] as? Int == 3)
        #expect(stats["editsCommitted"] as? Int == 0 && stats["unauthorized"] as? Int == 0)
    }

    @Test func anEmptyTrackPrintsNoReleasesAndExitsZero() throws {
        let result = try run([
            "tracks", "--package", "com.example.completed", "--track", "beta", "--play-base-url", play("ok"),
        ])
        #expect(result.status == 0)
        let object = try json(result.stdout)
        #expect(object["track"] as? String == "beta" && (object["releases"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        ("com.example.completed", 0, "Forcing 8.0.2: safe now."),
        ("com.example.rollout", 0, "rollout  8.0.10 (versionCode 81) to 20% of users in us, ca only, priority 3"),
        ("com.example.halted", 0, "halted   8.0.10 (versionCode 81) at 5% of users"),
        ("com.example.named", 1, #"is named "80", which carries no version"#),
        ("com.example.newer", 1, "Google Play is ahead (patch)."),
        (
            "com.example.recovering", 1,
            "  recovery prompting users of 79 to update (all users, action 900): 400 of 1,000 devices recovered (40%)\n"
                + "  recovery canceled for 79 (in DE, AT, action 901): 5 of 20 devices recovered (25%)\n"
        ),
    ])
    func parityAgainstBothStoresLive(_ package: String, _ status: Int32, _ expected: String) throws {
        let token = UUID().uuidString
        let result = try run([
            "parity", "--id", "414478124", "--countries", "cn", "--base-url", server.baseURL("ok").absoluteString,
            "--package", package, "--play-base-url", play("ok", token: token), "--format", "text", "--now",
            "2030-01-01T00:00:00Z",
        ])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stdout.contains(expected), "\(result.stdout)")
        let stats = try server.playStats(token: token)
        #expect(stats["editsInserted"] as? Int == 1 && stats["openEdits"] as? Int == 0)
        #expect(stats["writes"] as? Int == 0, "reading App Recovery writes nothing")
    }

    @Test func parityReadsWhomPlayIsPromptingToUpdate() throws {
        let token = UUID().uuidString
        let result = try run([
            "parity", "--lookup", ParityAndWaitCommandTests.wechat, "--package", "com.example.recovering",
            "--play-base-url", play("ok", token: token), "--now", "2030-01-01T00:00:00Z",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let actions = try #require(try json(result.stdout)["playRecoveryActions"] as? [[String: Any]])
        #expect(actions.map { $0["appRecoveryId"] as? String } == ["900", "901"], "each action once")
        #expect(actions.first?["status"] as? String == "RECOVERY_STATUS_ACTIVE")
        #expect(actions.first?["versionCodes"] as? [Int] == [79])
        #expect(actions.first?.keys.contains("regions") == true && actions.first?["regions"] is NSNull)
        #expect(actions.first?["recoveredDevices"] as? Int == 400 && actions.first?["totalDevices"] as? Int == 1000)
        #expect(actions.last?["regions"] as? [String] == ["DE", "AT"])
        let stats = try server.playStats(token: token)
        // One list a versionCode of the track (79 and 80), beside the edit's three requests.
        let paths = try #require(stats["paths"] as? [String])
        #expect(paths.filter { $0.hasSuffix("/appRecoveries") }.count == 2, "\(paths)")
        #expect(stats["writes"] as? Int == 0)
        let contract = try server.contractChecks(token: token)
        #expect(contract.checked > 0 && contract.violations.isEmpty, "\(contract.violations)")

        let markdown = try run([
            "parity", "--lookup", ParityAndWaitCommandTests.wechat, "--package", "com.example.recovering",
            "--play-base-url", play("ok"), "--format", "markdown",
        ])
        #expect(
            markdown.stdout.contains(
                "- Play App Recovery: prompting users of 79 to update (all users, action 900): 400 of 1,000 devices "
                    + "recovered (40%)\n"), "\(markdown.stdout)")
    }

    @Test func forcingWaitsForHaltedAndTargetedReleases() throws {
        let us = LoopbackServer.packageRoot.appendingPathComponent("Docs/Examples/payloads/appstore-wechat-us.json")
            .path
        for (package, reason) in [
            ("com.example.halted", "8.0.10 is halted on Play (production) at 5% (versionCode 81): nobody new gets it"),
            (
                "com.example.rollout",
                "not fully rolled out on Play (production): 20% of users in us, ca only; forcing waits until the release is completed"
            ),
        ] {
            let result = try run([
                "parity", "--lookup", us, "--package", package, "--play-base-url", play("ok"), "--now",
                "2030-01-01T00:00:00Z",
            ])
            #expect(result.status == 1)
            let force = try #require(try json(result.stdout)["forceUpdate"] as? [String: Any])
            #expect(force["safe"] as? Bool == false && force["reasons"] as? [String] == [reason], "\(package)")
        }
        let markdown = try run([
            "parity", "--lookup", us, "--package", "com.example.rollout", "--play-base-url", play("ok"), "--format",
            "markdown",
            "--now", "2030-01-01T00:00:00Z",
        ])
        #expect(markdown.stdout.hasPrefix("### The stores do not agree\n"))
        #expect(
            markdown.stdout.contains(
                "| Google Play | production | 8.0.10 | 81 | in progress to 20% of users in us, ca only, priority 3 |"))
        #expect(markdown.stdout.contains("**Forcing 8.0.10: not yet.**\n- not fully rolled out on Play"))
    }

    @Test(arguments: [
        ("401", "Google refused the token (HTTP 401"),
        ("403scope", "the token lacks the androidpublisher scope"),
        ("403disabled", "is not enabled in the token's Cloud project"),
        ("403permission", "may not read this app"),
        ("500tracks", "HTTP status 500 from the Play Developer API"),
        ("html", "the answer from the Play Developer API is not JSON"),
    ])
    func everyFailureExitsOneNamingItsCauseWithoutTheToken(_ scenario: String, _ message: String) throws {
        for command in [["tracks"], ["parity", "--lookup", ParityAndWaitCommandTests.wechat]] {
            let token = UUID().uuidString
            let result = try run(
                command + ["--package", "com.example.completed", "--play-base-url", play(scenario, token: token)])
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(try server.playStats(token: token)["openEdits"] as? Int == 0)
        }
        let unknown = try run(
            ["tracks", "--package", "com.example.nothing", "--play-base-url", play("ok")], useEnvironment: true)
        #expect(unknown.status == 1 && unknown.stderr.contains("Google Play has no app com.example.nothing"))
    }

    @Test func aMissingOrBadTokenIsBadInputThatNeverShowsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tok-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty")
        try Data("\n".utf8).write(to: empty)
        let two = folder.appendingPathComponent("two")
        try Data("\(Self.secret) \(Self.secret)\n".utf8).write(to: two)
        let cases: [([String], String)] = [
            ([], "tracks: no Play access token: give --play-token-file FILE or set STORERELEASE_PLAY_TOKEN"),
            (["--play-token-file", folder.appendingPathComponent("absent").path], "cannot read"),
            (["--play-token-file", folder.path], "it is a folder"),
            (["--play-token-file", empty.path], "the token is empty"),
            (["--play-token-file", two.path], "the token has white space or a control character inside it"),
        ]
        for (flags, message) in cases {
            let result = try BuiltProducts.run(
                executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
                ["tracks", "--package", "com.example.app", "--play-base-url", play("ok")] + flags,
                environment: ["STORERELEASE_PLAY_TOKEN": ""])
            #expect(result.status == 2, "\(flags)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains(Self.secret) && result.stdout.isEmpty)
        }
        let badPackage = try run(["tracks", "--package", "com.example..app"])
        #expect(
            badPackage.status == 2
                && badPackage.stderr.contains(#"--package "com.example..app" is not an Android package name"#))
        let badURL = try run(["tracks", "--package", "com.example.app", "--play-base-url", "http://example.com"])
        #expect(badURL.status == 2 && badURL.stderr.contains("must be https"))
    }

    @Test func aMissingTrackExitsOneNamingItAndTheTracksTheAppHas() throws {
        let token = UUID().uuidString
        let missing = try run([
            "tracks", "--package", "com.example.completed", "--track", "prodution", "--play-base-url",
            play("ok", token: token),
        ])
        #expect(missing.status == 1 && missing.stdout.isEmpty, "never a silent empty answer")
        #expect(
            missing.stderr.contains(
                #"the app has no Play track "prodution" (HTTP 404); it has "production", "internal", "beta", "Pre-release testing""#
            ), "\(missing.stderr)")
        let stats = try server.playStats(token: token)
        #expect(
            stats["editsInserted"] as? Int == 1 && stats["openEdits"] as? Int == 0, "read through one edit, deleted")

        let empty = try run([
            "tracks", "--package", "com.example.completed", "--track", "beta", "--play-base-url", play("ok"),
        ])
        let emptyTrack = try json(empty.stdout)
        #expect(empty.status == 0 && emptyTrack["releases"] as? [Any] != nil, "an empty track is still one")

        let custom = try run([
            "tracks", "--package", "com.example.completed", "--track", "Pre-release testing", "--play-base-url",
            play("ok"),
        ])
        #expect(custom.status == 0, "\(custom.stderr)")
        #expect((try json(custom.stdout))["track"] as? String == "Pre-release testing")

        let waiting = UUID().uuidString
        let wait = try run([
            "wait", "--package", "com.example.completed", "--track", "prodution", "--version", "8.0.2",
            "--interval", "60", "--timeout", "3600", "--play-base-url", play("ok", token: waiting),
        ])
        #expect(wait.status == 1 && wait.stderr.contains(#"no Play track "prodution""#), "\(wait.stderr)")
        #expect(try server.playStats(token: waiting)["releasesRequests"] as? Int == 1, "wait stops at once")
    }

    @Test(arguments: [
        (["--track", ""], "--track: the track name is empty"),
        (["--track", String(repeating: "t", count: 101)], "--track: the track name"),
        (
            ["--play-base-url", "http://127.example.com"],
            "--play-base-url: base URL \"http://127.example.com\" must be https"
        ),
    ])
    func aBadTrackOrBaseURLExitsTwoNamingTheFlag(_ flags: [String], _ message: String) throws {
        let result = try run(["tracks", "--package", "com.example.completed"] + flags)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aPermissionDenied401SaysHowToGrantAccess() throws {
        let result = try run(["tracks", "--package", "com.example.completed", "--play-base-url", play("401permission")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no access to this app in Play Console"), "\(result.stderr)")
        #expect(result.stderr.contains("Users and permissions"))
    }

    @Test func aRedirectToAnotherHostExitsOneNamingItAndSendsNothingThere() throws {
        let token = UUID().uuidString
        let result = try run([
            "tracks", "--package", "com.example.completed", "--play-base-url", play("redirect", token: token),
        ])
        #expect(result.status == 1 && result.stderr.contains("redirect to http://127.0.0.2:"), "\(result.stderr)")
        #expect(try server.elsewhere(token: token).authorization == 0)
    }

    @Test func waitForPlayOpensOneEditOncePublishedAndStopsEarlyOnWhatPollingCannotFix() throws {
        let token = UUID().uuidString
        let live = try run([
            "wait", "--package", "com.example.completed", "--version", "8.0.2", "--play-base-url",
            play("publishing", token: token),
            "--interval", "0.05", "--timeout", "30",
        ])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout == "8.0.2 is fully rolled out on Google Play (production)\n")
        #expect(
            live.stderr.split(separator: "\n").last == "round 3: 8.0.2 fully rolled out on Google Play (production)")
        let stats = try server.playStats(token: token)
        #expect(stats["releasesRequests"] as? Int == 3, "the edit-free list each round")
        #expect(
            stats["editsInserted"] as? Int == 1 && stats["editsDeleted"] as? Int == 1
                && stats["editsCommitted"] as? Int == 0, "one edit, once the list shows it published, deleted")

        let both = try run([
            "wait", "--id", "414478124", "--countries", "cn", "--base-url", server.baseURL("ok").absoluteString,
            "--package",
            "com.example.completed", "--version", "8.0.2", "--play-base-url", play("ok"), "--interval", "0.05",
        ])
        #expect(both.stderr == "round 1: 8.0.2 live in cn; fully rolled out on Google Play (production)\n")
        #expect(
            both.status == 0 && both.stdout == "8.0.2 is live in cn; fully rolled out on Google Play (production)\n")

        let refused = try run([
            "wait", "--package", "com.example.completed", "--version-code", "80", "--play-base-url", play("401"),
            "--interval",
            "0.05", "--timeout", "3600",
        ])
        #expect(refused.status == 1 && refused.stderr.contains("wait: Google Play: Google refused the token"))
        let unknown = try run(
            [
                "wait", "--id", "1", "--countries", "us,cn", "--base-url", server.baseURL("ok").absoluteString,
                "--version", "8.0.2",
                "--interval", "0.05", "--timeout", "3600",
            ], withToken: false)
        #expect(
            unknown.status == 1
                && unknown.stderr.contains("no storefront asked (us, cn) has App Store id 1, 3 rounds running"))
    }
}
