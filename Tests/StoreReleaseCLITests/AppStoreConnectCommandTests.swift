import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease status`, and App Store Connect in `parity`, `wait` and `manifest`, as built
/// binaries against the loopback server; keys and tokens never show.
@Suite struct AppStoreConnectCommandTests {
    static let token = "asc-cli-secret-\(UUID().uuidString)"

    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }
    let tokenFile: URL
    let keyFile: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("asc-cli")
        tokenFile = scratch.url.appendingPathComponent("token")
        try Data((Self.token + "\n").utf8).write(to: tokenFile)
        keyFile = scratch.url.appendingPathComponent("AuthKey_CLIKEY.p8")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile.path,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    /// Everything secret: the token, and each line of the key's PEM.
    var secrets: [String] {
        let key = (try? String(contentsOf: keyFile, encoding: .utf8)) ?? ""
        return [Self.token] + key.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), arguments,
            environment: ["STORERELEASE_ASC_TOKEN": ""])
        #expect(result.exited, sourceLocation: sourceLocation)
        for secret in secrets {
            #expect(
                !result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret shows",
                sourceLocation: sourceLocation)
        }
        return result
    }

    func asc(_ scenario: String, token: String = UUID().uuidString) -> [String] {
        ["--asc-base-url", server.baseURL(scenario, token: token).absoluteString]
    }

    var tokenFlags: [String] { ["--asc-token-file", tokenFile.path] }
    var keyFlags: [String] {
        ["--asc-key-file", keyFile.path, "--asc-key-id", "CLIKEY", "--asc-issuer-id", "issuer-1"]
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func statusPrintsLivePendingAndPhasedThroughABundleIDWithAKey() throws {
        let token = UUID().uuidString
        let result = try run(["status", "--bundle-id", "com.tencent.xin"] + keyFlags + asc("phased", token: token))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try json(result.stdout)
        #expect(Set(object.keys) == ["appID", "live", "pending", "draft"])
        #expect(object["appID"] as? String == "414478124" && object["pending"] is NSNull)
        let live = try #require(object["live"] as? [String: Any])
        #expect(live["version"] as? String == "8.0.2" && live["state"] as? String == "READY_FOR_DISTRIBUTION")
        let phase = try #require(live["phasedRelease"] as? [String: Any])
        #expect(phase["state"] as? String == "ACTIVE" && phase["day"] as? Int == 3 && phase["percent"] as? Int == 5)
        let stats = try server.ascStats(token: token)
        #expect(
            stats["jwts"] as? Int == 3 && stats["malformed"] as? Int == 0 && stats["kids"] as? [String] == ["CLIKEY"])

        let text = try run(["status", "--id", "414478124", "--format", "text"] + tokenFlags + asc("approved"))
        #expect(
            text.stdout
                == "App Store Connect, app 414478124\n  live     8.0.2 (READY_FOR_DISTRIBUTION)\n  pending  8.0.10 (PENDING_DEVELOPER_RELEASE)\n"
        )
        let low = try run(["status", "--id", "414478124"] + tokenFlags + asc("ratelow"))
        #expect(
            low.status == 0 && low.stderr == "status: warning: 100 of 3600 App Store Connect requests left this hour\n")
    }

    @Test func aTokenFromTheEnvironmentWorksAndNeverShows() throws {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            ["status", "--id", "414478124"] + asc("complete"), environment: ["STORERELEASE_ASC_TOKEN": Self.token])
        #expect(result.status == 0 && result.stdout.contains(#""appID" : "414478124""#), "\(result.stderr)")
        #expect(!result.stdout.contains(Self.token) && !result.stderr.contains(Self.token))
        let refused = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            ["status", "--id", "414478124"] + asc("401"), environment: ["STORERELEASE_ASC_TOKEN": Self.token])
        #expect(refused.status == 1 && !refused.stderr.contains(Self.token))
    }

    @Test(arguments: [
        ("401", "refused the token (HTTP 401: Provide a properly configured and signed bearer token"),
        ("403", "forbids this (HTTP 403 FORBIDDEN_ERROR: The API key in use does not allow this request)"),
    ])
    func refusalsExitOneWithApplesDetail(_ scenario: String, _ message: String) throws {
        for credentials in [tokenFlags, keyFlags] {
            let result = try run(["status", "--id", "414478124"] + credentials + asc(scenario))
            #expect(result.status == 1 && result.stderr.contains(message), "\(result.stderr)")
        }
        let unknown = try run(["status", "--id", "1"] + tokenFlags + asc("complete"))
        #expect(unknown.status == 1 && unknown.stderr.contains("App Store Connect has no app 1"))
    }

    @Test func badKeysAndFlagsExitTwoNamingThem() throws {
        let rsa = folder.appendingPathComponent("rsa.p8")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsa.path,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let cases: [([String], String)] = [
            (["--id", "1"], "status: no App Store Connect credentials"),
            (
                ["--id", "1", "--asc-key-file", keyFile.path],
                "--asc-key-file needs --asc-key-id and --asc-issuer-id too"
            ),
            (
                ["--id", "1", "--asc-key-file", rsa.path, "--asc-key-id", "K", "--asc-issuer-id", "I"],
                "is a private key, but not an elliptic-curve key on P-256"
            ),
            (
                ["--id", "1", "--asc-key-file", tokenFile.path, "--asc-key-id", "K", "--asc-issuer-id", "I"],
                "is not a PKCS#8 private key"
            ),
            (
                ["--id", "1", "--asc-key-file", keyFile.path, "--asc-key-id", "", "--asc-issuer-id", "I"],
                #"--asc-key-id: the key id "" is empty"#
            ),
            (
                ["--id", "1", "--asc-key-file", keyFile.path, "--asc-key-id", "K", "--asc-issuer-id", " "],
                "--asc-issuer-id: the issuer id"
            ),
            (
                ["--id", "1", "--platform", "watchos"] + tokenFlags,
                #"--platform "watchos" is not ios, macos, tvos or visionos"#
            ),
            (["--id", "1", "--asc-platform", "watchos"] + tokenFlags, #"--asc-platform "watchos" is not ios"#),
            (["--id", "1", "--asc-token-file", folder.appendingPathComponent("none").path], "cannot read"),
            (
                ["--id", "1"] + tokenFlags + keyFlags,
                "give an API key (--asc-key-file …) or --asc-token-file, not both"
            ),
            (["--id", "1", "--asc-base-url", "http://example.com"] + tokenFlags, "must be https"),
        ]
        for (arguments, message) in cases {
            let result = try run(["status"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test func parityWithholdsSafeDuringAPhasedRelease() throws {
        let play = LoopbackServer.packageRoot.appendingPathComponent(
            "Tests/Fixtures/play-api/com.example.completed.json"
        ).path
        let lookup = ["--id", "414478124", "--countries", "cn", "--base-url", server.baseURL("ok").absoluteString]
        let phased = try run(
            ["parity"] + lookup + ["--play-track", play, "--now", "2030-01-01T00:00:00Z"] + tokenFlags + asc("phased"))
        #expect(phased.status == 0, "the stores agree; forcing is what waits")
        let object = try json(phased.stdout)
        let force = try #require(object["forceUpdate"] as? [String: Any])
        #expect(force["safe"] as? Bool == false)
        #expect(
            force["reasons"] as? [String] == [
                "8.0.2 is in a phased release on the App Store (ACTIVE, day 3, 5% of automatic updates); forcing waits until it is complete"
            ])
        #expect((object["appStoreConnect"] as? [String: Any])?["appID"] as? String == "414478124")
        let complete = try run(
            ["parity"] + lookup + ["--play-track", play, "--now", "2030-01-01T00:00:00Z"] + tokenFlags + asc("complete")
        )
        #expect(((try json(complete.stdout))["forceUpdate"] as? [String: Any])?["safe"] as? Bool == true)
        let stored = try run(
            [
                "parity", "--lookup", ParityAndWaitCommandTests.wechat, "--play-track", play, "--format", "text",
                "--now",
                "2030-01-01T00:00:00Z",
            ] + tokenFlags + asc("ahead"))
        #expect(stored.stdout.contains("the lookup shows 8.0.2 but App Store Connect's live version is 8.0.10"))
        #expect(stored.stdout.contains("App Store Connect, app 414478124\n  live     8.0.10 (READY_FOR_DISTRIBUTION)"))
    }

    @Test func waitUntilLiveOrUntilThePhasedReleaseCompletes() throws {
        let live = try run(
            ["wait", "--id", "414478124", "--version", "8.0.2", "--interval", "0.05", "--timeout", "30"] + tokenFlags
                + asc("phased"))
        let phase =
            "ready for distribution on App Store Connect, in a phased release (ACTIVE, day 3, 5% of automatic "
            + "updates)"
        #expect(live.status == 0 && live.stdout == "8.0.2 is \(phase)\n", "\(live.stderr)")
        for spelling in ["complete", "phased-complete"] {
            let complete = try run(
                [
                    "wait", "--id", "414478124", "--version", "8.0.2", "--until", spelling, "--interval", "0.05",
                    "--timeout", "0.2",
                ] + tokenFlags + asc("phased"))
            #expect(complete.status == 1)
            #expect(complete.stderr.contains("wait: timed out: 8.0.2 is not complete yet: \(phase)\n"), "\(spelling)")
        }
        let refused = try run(
            ["wait", "--id", "414478124", "--version", "8.0.2", "--interval", "0.05", "--timeout", "3600"] + tokenFlags
                + asc("401"))
        #expect(refused.status == 1 && refused.stderr.contains("wait: App Store Connect refused the token"))
        let badUntil = try run(["wait", "--id", "1", "--version", "1", "--until", "soon"] + tokenFlags)
        #expect(badUntil.status == 2 && badUntil.stderr.contains(#"--until "soon" is not live or complete"#))
    }

    @Test func statusSaysRemovedFromSaleDraftAndEachPlatform() throws {
        let removed = try run(["status", "--id", "414478124"] + tokenFlags + asc("removed"))
        #expect(removed.status == 0, "\(removed.stderr)")
        let live = try #require(try json(removed.stdout)["live"] as? [String: Any])
        #expect(live["removedFromSale"] as? Bool == true)
        let drafts = try json(try run(["status", "--id", "414478124"] + tokenFlags + asc("draftandpending")).stdout)
        #expect((drafts["pending"] as? [String: Any])?["state"] as? String == "WAITING_FOR_EXPORT_COMPLIANCE")
        #expect((drafts["draft"] as? [String: Any])?["state"] as? String == "METADATA_REJECTED")
        for (flag, name, version) in [("--asc-platform", "visionos", "1.5"), ("--platform", "macos", "3.1")] {
            let result = try run(["status", "--id", "414478124", flag, name] + tokenFlags + asc("platforms"))
            #expect(
                (try json(result.stdout)["live"] as? [String: Any])?["version"] as? String == version,
                "\(result.stderr)")
        }
    }

    @Test func theManifestAsksTheASCPlatformItIsGivenAndNeverForcesAnAppRemovedFromSale() throws {
        let lookup = ["--id", "414478124", "--country", "cn", "--base-url", server.baseURL("ok").absoluteString]
        let token = UUID().uuidString
        let mac = try run(
            ["manifest", "--platform", "appStore", "--asc-platform", "macos", "--minimum-supported", "8.0.2"] + lookup
                + tokenFlags + asc("platforms", token: token))
        #expect(mac.status == 0, "\(mac.stderr)")
        #expect(try server.ascStats(token: token)["platforms"] as? [String] == ["MAC_OS"], "not iOS")
        #expect(mac.stderr.contains("App Store Connect's live version is 3.1"), "\(mac.stderr)")

        let removed = try run(
            ["manifest", "--platform", "appStore", "--minimum-supported", "8.0.2", "--now", "2030-01-01T00:00:00Z"]
                + lookup + tokenFlags + asc("removed"))
        #expect(removed.status == 0)
        #expect((try json(removed.stdout))["minimumSupportedVersion"] == nil)
        #expect(removed.stderr.contains("removed from sale"), "\(removed.stderr)")
    }

    @Test func theManifestCarriesTheMinimumOnlyWhenSafeAndDecideReadsIt() throws {
        let lookup = ["--id", "414478124", "--country", "cn", "--base-url", server.baseURL("ok").absoluteString]
        for (world, expected) in [("complete", true), ("phased", false)] {
            let result = try run(
                ["manifest", "--platform", "appStore", "--minimum-supported", "8.0.2", "--now", "2030-01-01T00:00:00Z"]
                    + lookup + tokenFlags + asc(world))
            #expect(result.status == 0, "\(result.stderr)")
            let manifest = try json(result.stdout)
            #expect(manifest["latestVersion"] as? String == "8.0.2")
            #expect((manifest["minimumSupportedVersion"] as? String == "8.0.2") == expected, "\(world)")
            #expect(result.stderr.contains("phased release") == !expected)
            let file = folder.appendingPathComponent("manifest-\(world).json")
            try Data(result.stdout.utf8).write(to: file)
            let decision = try run([
                "decide", "--installed", "8.0.1", "--manifest", file.path, "--now", "2030-01-01T00:00:00Z",
            ])
            #expect(decision.status == 0)
            #expect((try json(decision.stdout))["action"] as? String == (expected ? "immediate" : "flexible"))
        }
        let play = try run([
            "manifest", "--platform", "googlePlay", "--play-track",
            LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/play-api/com.example.rollout.json").path,
            "--package", "com.example.rollout", "--minimum-supported", "8.0.10",
        ])
        #expect(play.status == 0)
        #expect((try json(play.stdout))["minimumSupportedVersion"] == nil)
        #expect(
            play.stderr.contains("minimumSupportedVersion 8.0.10 left out: 8.0.10 is above the latest version, 8.0.2"))
        let bad = try run(["manifest", "--platform", "windowsStore"])
        #expect(bad.status == 2 && bad.stderr.contains(#"--platform "windowsStore" is not appStore or googlePlay"#))
    }
}
