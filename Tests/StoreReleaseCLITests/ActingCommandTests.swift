import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease halt|resume|complete|recall`, the built binary against the stateful fakes: a dry
/// run writes nothing, an applied plan is verified by a new read, a second run sends nothing,
/// and a confirmation that does not name every app writes nothing.
@Suite struct ActingCommandTests {
    static let secret = "ya29.acting-secret-\(UUID().uuidString)"

    let server: LoopbackServer
    let scratch: ScratchFolder
    let tokenFile: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("acting-token")
        tokenFile = scratch.url.appendingPathComponent("token")
        try Data((Self.secret + "\n").utf8).write(to: tokenFile)
    }

    /// Runs `storerelease ACTION VERSION` on Play's `package` and, with `asc`, that App Store
    /// Connect world, all under one fake token.
    func run(
        _ action: String, _ version: String = "8.0.10", package: String? = "com.example.rollout",
        play: String = "ok", asc: String? = "rolling", token: String, _ arguments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BuiltProducts.Result {
        var flags = [action, version]
        if let package {
            flags += [
                "--package", package, "--play-token-file", tokenFile.path,
                "--play-base-url", server.baseURL(play, token: token).absoluteString,
            ]
        }
        if let asc {
            flags += [
                "--id", "414478124", "--asc-token-file", tokenFile.path,
                "--asc-base-url", server.baseURL(asc, token: token).absoluteString,
            ]
        }
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), flags + arguments,
            environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
        #expect(result.exited, sourceLocation: sourceLocation)
        #expect(
            !result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret), "a token shows",
            sourceLocation: sourceLocation)
        return result
    }

    func plan(_ result: BuiltProducts.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func writes(_ token: String) throws -> (play: Int, asc: Int) {
        (
            try server.playStats(token: token)["writes"] as? Int ?? -1,
            try server.ascStats(token: token)["writes"] as? Int ?? -1
        )
    }

    /// The app's production track as the Play fake now holds it.
    func production(_ token: String, _ package: String = "com.example.rollout") throws -> [[String: Any]] {
        let data = try Data(
            contentsOf: server.baseURL.appendingPathComponent(token).appendingPathComponent("playstate"))
        let apps = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tracks = (apps[package] as? [String: Any])?["tracks"] as? [[String: Any]] ?? []
        return tracks.first { $0["track"] as? String == "production" }?["releases"] as? [[String: Any]] ?? []
    }

    @Test func aDryRunPlansBothStoresAndWritesNothing() throws {
        let token = UUID().uuidString
        let result = try run("halt", token: token)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let plan = try plan(result)
        #expect(plan["action"] as? String == "halt" && plan["apply"] as? Bool == false && plan["verified"] is NSNull)
        let steps = try #require(plan["steps"] as? [[String: Any]])
        #expect(steps.map { $0["store"] as? String } == ["googlePlay", "appStore"])
        #expect(steps.map { "\($0["from"] ?? "")→\($0["to"] ?? "")" } == ["inProgress→halted", "ACTIVE→PAUSED"])
        let patch = try #require(steps.last?["request"] as? [String: Any])
        #expect(
            patch["method"] as? String == "PATCH"
                && patch["path"] as? String == "/v1/appStoreVersionPhasedReleases/p-v4")
        #expect(try writes(token) == (0, 0))
        let stats = try server.playStats(token: token)
        #expect(stats["openEdits"] as? Int == 0 && stats["editsCommitted"] as? Int == 0)
    }

    @Test func anAppliedHaltIsVerifiedAndASecondRunSendsNothing() throws {
        let token = UUID().uuidString
        let result = try run("halt", token: token, ["--apply", "--confirm", "414478124,com.example.rollout"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let plan = try plan(result)
        #expect(plan["apply"] as? Bool == true && plan["verified"] as? Bool == true)
        #expect((plan["steps"] as? [[String: Any]])?.allSatisfy { $0["done"] as? Bool == true } == true)
        let halted = try production(token).first { $0["versionCodes"] as? [String] == ["81"] }
        #expect(halted?["status"] as? String == "halted" && halted?["userFraction"] as? Double == 0.2)
        #expect(
            try production(token).first { $0["versionCodes"] as? [String] == ["80"] }?["status"] as? String
                == "completed")
        let asc = try server.ascStats(token: token)
        #expect(asc["phasedPatched"] as? Int == 1)
        #expect(try writes(token) == (2, 1), "one track update, one commit, one PATCH")

        let again = try run(
            "halt", token: token, ["--apply", "--confirm", "com.example.rollout,414478124", "--format", "text"])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(again.stdout.contains("nothing to do") && again.stdout.contains("PAUSED already"), "\(again.stdout)")
        #expect(try writes(token) == (2, 1), "the second run sent nothing")
    }

    @Test func aStepAStoreRefusesMidPlanIsExitOneWithAnAccountAndTheRetryFinishesIt() throws {
        let token = UUID().uuidString
        // App Store Connect's key may read but not change the phased release: Play's step is done,
        // the PATCH is refused.
        let result = try run(
            "halt", asc: "rollingreadonly", token: token, ["--apply", "--confirm", "414478124,com.example.rollout"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "halt: done: googlePlay 81 (8.0.10) inProgress → halted; not done: appStore ACTIVE → PAUSED ("),
            "\(result.stderr)")
        #expect(result.stderr.contains("The API key in use does not allow this request"), "\(result.stderr)")
        let refused = try plan(result)
        #expect(refused["apply"] as? Bool == true && refused["verified"] as? Bool == false)
        let steps = try #require(refused["steps"] as? [[String: Any]])
        #expect(steps.map { $0["done"] as? Bool } == [true, false])
        #expect(steps[0]["error"] is NSNull && (steps[1]["error"] as? String)?.contains("403") == true, "\(steps)")
        let release = try production(token).first { $0["versionCodes"] as? [String] == ["81"] }
        #expect(release?["status"] as? String == "halted")
        #expect(try server.playStats(token: token)["openEdits"] as? Int == 0, "no edit left open")

        // With a key that may: the same command sends only what is not done yet, and verifies.
        let retry = try run("halt", token: token, ["--apply", "--confirm", "414478124,com.example.rollout"])
        #expect(retry.status == 0, "\(retry.stderr)")
        let finished = try plan(retry)
        let retried = try #require(finished["steps"] as? [[String: Any]])
        #expect(retried.map { $0["store"] as? String } == ["appStore"] && finished["verified"] as? Bool == true)
        #expect(try server.ascStats(token: token)["phasedPatched"] as? Int == 1)
        // The 403 and every other answer are the APIs' own shapes (the contracts under shared/reference/specs).
        let contract = try server.contractChecks(token: token)
        #expect(contract.checked > 0 && contract.violations.isEmpty, "\(contract.violations)")
    }

    @Test func resumeKeepsTheFraction() throws {
        let token = UUID().uuidString
        _ = try run("halt", token: token, ["--apply", "--confirm", "414478124,com.example.rollout"])
        let result = try run("resume", token: token, ["--apply", "--confirm", "414478124,com.example.rollout"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let release = try production(token).first { $0["versionCodes"] as? [String] == ["81"] }
        #expect(release?["status"] as? String == "inProgress" && release?["userFraction"] as? Double == 0.2)
    }

    @Test(arguments: [
        ["--apply"], ["--apply", "--confirm", "com.example.rollout"], ["--apply", "--confirm", "414478124"],
        ["--apply", "--confirm", "com.example.other,414478124"],
    ])
    func aConfirmationNotNamingEveryAppWritesNothing(_ flags: [String]) throws {
        let token = UUID().uuidString
        let result = try run("halt", token: token, flags)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains("--confirm") && result.stderr.contains("nothing was written"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let play = try server.playStats(token: token)["writes"] as? Int ?? 0
        let asc = try server.ascStats(token: token)["writes"] as? Int ?? 0
        #expect(play == 0 && asc == 0)
    }

    @Test(arguments: [
        (["--confirm", "com.example.rollout"], "--confirm goes with --apply"),
        (["--manifest", "m.json"], "--manifest"),
        (["--format", "csv"], "--format"),
    ])
    func badFlagsAreExitTwoBeforeAnythingIsRead(_ flags: [String], _ message: String) throws {
        let token = UUID().uuidString
        let result = try run("halt", token: token, flags)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        #expect(try server.playStats(token: token)["requests"] as? Int ?? 0 == 0)
    }

    @Test func theMarkdownPlanIsATableOfTheSteps() throws {
        let token = UUID().uuidString
        let result = try run("complete", token: token, ["--format", "markdown"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("| googlePlay | inProgress | completed | `PUT /androidpublisher/v3/"),
            "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "| appStore | ACTIVE | COMPLETE | `PATCH /v1/appStoreVersionPhasedReleases/p-v4` | planned |"))
    }

    @Test func haltingACompletedReleaseIsRefusedOnBothStoresSayingWhatPlayAllowsAndWhere() throws {
        let token = UUID().uuidString
        let result = try run(
            "halt", package: "com.example.newer", token: token, ["--apply", "--confirm", "414478124,com.example.newer"])
        #expect(result.status == 1)
        // Play halts a fully rolled-out release since 2025 (Google's help, answer 16285429), from
        // the Console; its Publishing API request is not published, so the refusal says where.
        #expect(!result.stderr.contains("Play cannot halt"), "\(result.stderr)")
        for said in ["answer/16285429", "Manage rollout > Halt rollout", "not a track's first release", "roll forward"]
        {
            #expect(result.stderr.contains(said), "\(said): \(result.stderr)")
        }
        #expect(try writes(token) == (0, 0), "a refusal on Play writes nothing on App Store Connect either")
    }

    /// A store's words reach the terminal as written, never as escapes it obeys (issue 40,
    /// finding 13): a release name that clears the screen and prints a green "applied and
    /// verified" is shown as `\u{1B}[2J…`.
    @Test func aStoresWordsNeverActOnTheTerminal() throws {
        let token = UUID().uuidString
        let result = try run("halt", "9.9.9", package: "com.example.escapes", asc: nil, token: token)
        #expect(result.status == 1)
        #expect(!result.stderr.unicodeScalars.contains("\u{1B}"), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("Spring \\u{1B}[2J\\u{1B}[32mapplied and verified"), "\(result.stderr)")
    }

    /// Play keeps one completed release a track ("Too many completed releases specified",
    /// fastlane #15772): complete writes the new completed release in place of the earlier one.
    @Test func completeReplacesTheEarlierCompletedReleaseAndPlayTakesItOnTheFirstTry() throws {
        let token = UUID().uuidString
        let result = try run("complete", asc: nil, token: token, ["--apply", "--confirm", "com.example.rollout"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try plan(result)["verified"] as? Bool == true)
        let releases = try production(token)
        #expect(releases.map { $0["versionCodes"] as? [String] } == [["81"]], "80 replaced: \(releases)")
        #expect(releases.first?["status"] as? String == "completed" && releases.first?["userFraction"] == nil)
        let stats = try server.playStats(token: token)
        #expect(stats["commitsRefused"] as? Int == 0 && stats["writes"] as? Int == 2, "\(stats)")
        let contract = try server.contractChecks(token: token)
        #expect(contract.checked > 0 && contract.violations.isEmpty, "\(contract.violations)")
    }

    /// A track carrying 8.0.10 twice (81 in progress, a rebuilt draft 82 named alike): the
    /// release acted on is the one serving users, named with its versionCode.
    @Test func aRebuiltDraftOfTheSameVersionIsNeverTheReleaseActedOn() throws {
        let token = UUID().uuidString
        let dry = try run("halt", package: "com.example.rebuilt", asc: nil, token: token, ["--format", "text"])
        #expect(dry.status == 0 && dry.stdout.contains("googlePlay 81 (8.0.10): inProgress → halted"), "\(dry.stdout)")
        let result = try run(
            "halt", package: "com.example.rebuilt", asc: nil, token: token,
            ["--apply", "--confirm", "com.example.rebuilt"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let releases = try production(token, "com.example.rebuilt")
        #expect(releases.first { $0["versionCodes"] as? [String] == ["81"] }?["status"] as? String == "halted")
        #expect(releases.first { $0["versionCodes"] as? [String] == ["82"] }?["status"] as? String == "draft")
        let resumed = try run(
            "resume", package: "com.example.rebuilt", asc: nil, token: token,
            ["--apply", "--confirm", "com.example.rebuilt"])
        #expect(resumed.status == 0, "stderr: \(resumed.stderr)")
        #expect(
            try production(token, "com.example.rebuilt").first { $0["versionCodes"] as? [String] == ["81"] }?["status"]
                as? String == "inProgress")
    }

    /// A commit Play applied but answered with a 500 (or too late) is never sent again: the track
    /// is read back, and the account says what Play shows.
    @Test(arguments: [("commitlost500", "HTTP status 500"), ("commitlostslow", "no complete answer")])
    func aCommitPlayAppliedButDidNotAnswerIsSentOnceAndReadBack(_ scenario: String, _ said: String) throws {
        let token = UUID().uuidString
        var flags = ["--apply", "--confirm", "com.example.rollout", "--format", "text"]
        if scenario == "commitlostslow" { flags += ["--timeout", "1"] }
        let result = try run("halt", play: scenario, asc: nil, token: token, flags)
        #expect(result.status == 0, "stderr: \(result.stderr)\nstdout: \(result.stdout)")
        #expect(result.stdout.contains("applied and verified"), "\(result.stdout)")
        #expect(
            result.stdout.contains("a read afterwards shows it done") && result.stdout.contains(said),
            "\(result.stdout)")
        let stats = try server.playStats(token: token)
        let commits = (stats["methods"] as? [String] ?? []).filter { $0.hasPrefix("POST") && $0.hasSuffix(":commit") }
        #expect(commits.count == 1, "sent once: \(commits)")
        let contract = try server.contractChecks(token: token)
        #expect(contract.checked > 0 && contract.violations.isEmpty, "\(contract.violations)")
        #expect(
            try production(token).first { $0["versionCodes"] as? [String] == ["81"] }?["status"] as? String
                == "halted")
    }

    @Test func aVersionNoStoreCarriesNamesWhatEachHas() throws {
        let token = UUID().uuidString
        let result = try run("halt", "9.9.9", token: token)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Google Play has 8.0.2 (production, completed)"), "\(result.stderr)")
        #expect(result.stderr.contains("App Store Connect has 8.0.10"), "\(result.stderr)")
    }

    @Test func recallWritesTheManifestAndTheRecoveryActionAsPlanned() throws {
        let token = UUID().uuidString
        let manifest = FileManager.default.temporaryDirectory.appendingPathComponent("acting-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: manifest) }
        let original =
            #"{"schemaVersion": 2, "latestVersion": "8.0.11", "storeURL": "https://example.com/app", "blockedVersions": ["8.0.7"], "rollout": {"percent": 50}}"#
        try Data(original.utf8).write(to: manifest)
        let flags = ["--manifest", manifest.path, "--regions", "us,de"]
        let dry = try plan(try run("recall", package: "com.example.recall", asc: nil, token: token, flags))
        let planned = try #require(dry["steps"] as? [[String: Any]])
        #expect(planned.map { $0["store"] as? String } == ["googlePlay", "googlePlay", "manifest"])
        #expect(try writes(token).play == 0)
        #expect(try String(contentsOf: manifest, encoding: .utf8) == original, "a dry run leaves the file")

        let result = try run(
            "recall", package: "com.example.recall", asc: nil, token: token,
            flags + ["--apply", "--confirm", "com.example.recall"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let applied = try plan(result)
        #expect(applied["verified"] as? Bool == true)
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        #expect(written["blockedVersions"] as? [String] == ["8.0.7", "8.0.10"])
        #expect(written["storeURL"] as? String == "https://example.com/app" && written["schemaVersion"] as? Int == 2)
        #expect((written["rollout"] as? [String: Any])?["percent"] as? Int == 50)
        let stats = try server.playStats(token: token)
        #expect(stats["recoveriesCreated"] as? Int == 1 && stats["recoveriesDeployed"] as? Int == 1)
        let create = (planned.first?["request"] as? [String: Any])?["body"] as? [String: Any]
        let targeting = create?["targeting"] as? [String: Any]
        #expect((targeting?["regions"] as? [String: Any])?["regionCode"] as? [String] == ["US", "DE"])
        #expect((targeting?["versionList"] as? [String: Any])?["versionCodes"] as? [String] == ["81"])
    }

    @Test func recallWithoutANewerVersionOnEveryTrackIsRefused() throws {
        let token = UUID().uuidString
        let result = try run("recall", token: token, ["--apply", "--confirm", "com.example.rollout"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no newer version is published there"), "\(result.stderr)")
        #expect(try server.playStats(token: token)["writes"] as? Int == 0)
    }

    @Test func aManifestThatIsNotVersionTwoIsBadInputAndUntouched() throws {
        let token = UUID().uuidString
        let manifest = FileManager.default.temporaryDirectory.appendingPathComponent("acting-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: manifest) }
        let original = #"{"latestVersion": "8.0.11"}"#
        try Data(original.utf8).write(to: manifest)
        let result = try run(
            "recall", package: "com.example.recall", asc: nil, token: token,
            ["--manifest", manifest.path, "--apply", "--confirm", "com.example.recall"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not 2") && result.stderr.contains(manifest.path), "\(result.stderr)")
        #expect(try String(contentsOf: manifest, encoding: .utf8) == original)
        #expect(try server.playStats(token: token)["writes"] as? Int ?? 0 == 0)
    }
}
