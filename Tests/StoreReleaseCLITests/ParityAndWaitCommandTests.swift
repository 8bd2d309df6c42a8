import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease parity` and `storerelease wait`, against stored payloads and the loopback server.
@Suite struct ParityAndWaitCommandTests {
    static let fixtures = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures")
    static let wechat = fixtures.appendingPathComponent("appstore/wechat-cn.json").path
    static let production = fixtures.appendingPathComponent("play/production-rollout.json").path
    static let ahead = fixtures.appendingPathComponent("play/tracks-ahead.json").path

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    @Test func storedLookupsThatAgreeExitZero() throws {
        let result = try BuiltProducts.storerelease(
            "parity", "--lookup", Self.wechat, "--play-track", Self.production, "--now", "2021-02-05T00:00:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["agree"] as? Bool == true)
        #expect((object["laggingStorefronts"] as? [String])?.isEmpty == true)
        #expect((object["forceUpdate"] as? [String: Any])?["safe"] as? Bool == true)
    }

    @Test func disagreementExitsOneAndTheTextSaysWhy() throws {
        let result = try BuiltProducts.storerelease(
            "parity", "--lookup", Self.wechat, "--play-track", Self.ahead, "--format", "text")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("The stores do not agree."))
        #expect(result.stdout.contains("live     8.1.0 (versionCode 85)"), "8.1.0 (85) names 8.1.0")
    }

    @Test func looksTheStorefrontsUpThroughTheClient() throws {
        // The rollout scenario serves 8.0.2 first; every storefront agrees with Play's 8.0.2.
        let result = try BuiltProducts.storerelease(
            "parity", "--apple-id", "414478124", "--countries", "us,cn,jp", "--play-track", Self.production,
            "--base-url", server.baseURL("rollout").absoluteString)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(
            (object["storefronts"] as? [[String: Any]])?.compactMap { $0["country"] as? String } == ["us", "cn", "jp"])
    }

    @Test(arguments: [
        (["--lookup", "WECHAT"], "parity: give --play-track FILE or --package PKG (the Play side)"),
        (
            ["--lookup", "WECHAT", "--package", "com..app", "--play-token-file", "PROD"],
            #"parity: --package "com..app" is not an Android package name"#
        ),
        (
            ["--lookup", "WECHAT", "--play-track", "PROD", "--play-token-file", "PROD"],
            "parity: --play-token-file goes with --package, not --play-track"
        ),
        (
            ["--lookup", "WECHAT", "--package", "com.example.app", "--play-base-url", "http://example.com"],
            "must be https (http only on a loopback address"
        ),
        (
            ["--play-track", "PROD"],
            "parity: give --lookup FILE[,FILE…], or one of --id or --bundle-id with --countries"
        ),
        (
            ["--lookup", "WECHAT", "--play-track", "PROD", "--format", "yaml"],
            #"parity: --format "yaml" is not json, text or markdown"#
        ),
        (["--lookup", "WECHAT", "--play-track", "WECHAT"], "parity: --play-track"),
        (["--lookup", "PROD", "--play-track", "PROD"], "parity: --lookup"),
        (
            ["--lookup", "WECHAT", "--play-track", "AHEAD", "--track", "beta"],
            #"has no track "beta" (it has internal, production)"#
        ),
        (
            ["--id", "1", "--countries", "zz", "--play-track", "PROD"],
            #"parity: --countries: "zz" is not an App Store storefront"#
        ),
    ])
    func parityBadInputExitsTwo(_ arguments: [String], _ message: String) throws {
        let resolved = arguments.map {
            ["WECHAT": Self.wechat, "PROD": Self.production, "AHEAD": Self.ahead][$0] ?? $0
        }
        let result = try BuiltProducts.run("storerelease", ["parity"] + resolved)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    /// `--package` beside `--play-track` names the stored track's app, as `snapshot` and `watch`
    /// take it: the same report, not a refusal.
    @Test func parityTakesAStoredTrackWithItsPackageAsSnapshotAndWatchDo() throws {
        let alone = try BuiltProducts.storerelease("parity", "--lookup", Self.wechat, "--play-track", Self.production)
        let named = try BuiltProducts.storerelease(
            "parity", "--lookup", Self.wechat, "--play-track", Self.production, "--package", "com.tencent.mm")
        #expect(named.status == alone.status && named.stdout == alone.stdout, "\(named.stderr)")
        let snapshot = try BuiltProducts.storerelease(
            "snapshot", "--lookup", Self.wechat, "--play-track", Self.production, "--package", "com.tencent.mm")
        #expect(snapshot.status == 0, "snapshot takes the same flags: \(snapshot.stderr)")
    }

    @Test func waitReturnsOnceTheVersionIsLiveInEveryStorefront() throws {
        let result = try BuiltProducts.storerelease(
            "wait", "--id", "414478124", "--version", "9.0", "--countries", "us,cn,jp", "--interval", "0.05",
            "--timeout", "30", "--base-url", server.baseURL("rollout").absoluteString)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "9.0 is live in us, cn, jp\n")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first == "round 1: 9.0 live in none; waiting for us, cn, jp")
        #expect(lines.contains("round 2: 9.0 live in us; waiting for cn, jp"), "us first, the others later")
        #expect(lines.last == "round 4: 9.0 live in us, cn, jp")
    }

    @Test func waitTimesOutNamingTheStorefrontsStillMissingIt() throws {
        let result = try BuiltProducts.storerelease(
            "wait", "--id", "414478124", "--version", "9.0", "--countries", "us,cn", "--interval", "0.05",
            "--timeout", "0.09", "--base-url", server.baseURL("rollout").absoluteString)
        #expect(result.status == 1)
        // cn needs four rounds, more than the timeout allows however fast the machine is; us
        // may or may not have been reached.
        #expect(result.stderr.contains("wait: timed out: 9.0 is not live yet: not live in "))
        #expect(result.stderr.contains("cn\n"))
    }

    /// Runs `wait` with a Play token in the environment.
    func waitForPlay(_ arguments: [String]) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), ["wait"] + arguments,
            environment: ["STORERELEASE_PLAY_TOKEN": "ya29.wait-\(UUID().uuidString)"])
    }

    @Test func aTwentyPercentRolloutIsLiveButNotComplete() throws {
        let play = ["--package", "com.example.rollout", "--version", "8.0.10", "--interval", "0.05"]
        let live = try waitForPlay(
            play + ["--timeout", "30", "--play-base-url", server.baseURL("ok").absoluteString])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout == "8.0.10 is rolling out on Google Play (production): 20% in us, ca\n")

        let token = UUID().uuidString
        let complete = try waitForPlay(
            play + [
                "--until", "complete", "--timeout", "2", "--play-base-url",
                server.baseURL("ok", token: token).absoluteString,
            ])
        #expect(complete.status == 1 && complete.stdout.isEmpty)
        #expect(
            complete.stderr.hasPrefix(
                "round 1: 8.0.10 rolling out on Google Play (production): 20% in us, ca; waiting for Google Play "
                    + "(production)\n"), "\(complete.stderr)")
        #expect(
            complete.stderr.hasSuffix(
                "wait: timed out: 8.0.10 is not complete yet: rolling out on Google Play (production): 20% in us, ca\n")
        )
        let stats = try server.playStats(token: token)
        // How many rounds fit in 2 s depends on the machine's load: that it keeps asking round after
        // round is ReleaseWaiterTests' (a virtual clock); here, every edit it opened was deleted.
        #expect((stats["editsInserted"] as? Int ?? 0) >= 1, "it read the track")
        #expect(stats["editsInserted"] as? Int == stats["editsDeleted"] as? Int && stats["editsCommitted"] as? Int == 0)

        let completed = try waitForPlay([
            "--package", "com.example.newer", "--version", "8.0.10", "--until", "complete", "--play-base-url",
            server.baseURL("ok").absoluteString,
        ])
        #expect(completed.status == 0 && completed.stdout == "8.0.10 is fully rolled out on Google Play (production)\n")
    }

    @Test(arguments: [
        (["--version", "9", "--countries", "us"], "wait: give one of --id ID or --bundle-id ID"),
        (["--id", "1", "--countries", "us"], "wait: --version V is required (or --version-code N for Play alone)"),
        (
            ["--version", "9"],
            "wait: give the App Store side (--id or --bundle-id with --countries), --package, or both"
        ),
        (["--id", "1", "--countries", "us", "--version-code", "80"], "wait: the App Store side needs --version V"),
        (["--version", "9", "--track", "beta"], "wait: --track goes with --package"),
        (["--package", "com.example.app", "--version-code", "8.0"], "wait: --version-code"),
        (["--id", "1", "--version", "9.x", "--countries", "us"], #"wait: --version "9.x""#),
        (["--id", "1", "--version", "9"], "wait: --countries CC[,CC…] is required"),
        (
            ["--id", "1", "--version", "9", "--countries", "us", "--interval", "0"],
            #"wait: --interval "0" is not a number of seconds"#
        ),
        (
            ["--package", "com.example.app", "--version", "9", "--until", "soon"],
            #"wait: --until "soon" is not live or complete"#
        ),
        (
            ["--package", "com.example.app", "--version", "9", "--until", "Complete"],
            #"--until "Complete" is not live"#
        ),
        (
            ["--id", "1", "--version", "9", "--countries", "us", "--until", "complete"],
            "wait: --until goes with --package or App Store Connect credentials"
        ),
    ])
    func waitBadInputExitsTwo(_ arguments: [String], _ message: String) throws {
        let result = try BuiltProducts.run("storerelease", ["wait"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}

/// The release tooling guide's command prints the table the guide shows.
@Suite struct ReleaseToolingGuideTests {
    /// The code block that follows `marker` in the guide.
    static func block(after marker: String, in guide: String) -> String? {
        guide.components(separatedBy: marker + "\n\n```\n").dropFirst().first?.components(separatedBy: "```").first
    }

    @Test func theGuidesParityCommandPrintsTheGuidesTableAndMarkdown() throws {
        let root = LoopbackServer.packageRoot
        let guide = try String(
            contentsOf: root.appendingPathComponent("Docs/StoreReleaseKit.docc/ReleaseTooling.md"), encoding: .utf8)
        let payloads = root.appendingPathComponent("Docs/Examples/payloads").path
        for (format, marker) in [("text", "prints"), ("markdown", "`--format markdown` prints")] {
            let shown = try #require(Self.block(after: marker, in: guide), "no block after \(marker)")
            let result = try BuiltProducts.storerelease(
                "parity", "--lookup", "\(payloads)/appstore-wechat-us.json,\(payloads)/appstore-wechat-cn.json",
                "--play-track", "\(payloads)/play-production.json", "--format", format, "--now", "2021-02-12T00:00:00Z")
            #expect(result.status == 1)
            #expect(result.stdout == shown, "\(format)")
        }
        #expect(guide.contains("storerelease parity --lookup Docs/Examples/payloads/appstore-wechat-us.json,"))
    }
}
