import Foundation
import StoreReleaseTestSupport
import Testing

/// What an attacker tried on the network edges, as the built binary meets it: a token echoed in
/// part, the `openssl` child's environment and path, and loopback written oddly.
@Suite struct NetworkSafetyCommandTests {
    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("netsafety")
    }

    func storerelease(_ arguments: [String], environment: [String: String] = [:]) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), arguments,
            environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""].merging(environment) { $1 })
        #expect(result.exited)
        return result
    }

    /// A file holding `text`.
    func file(_ name: String, _ text: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// An executable shell script.
    func script(_ name: String, _ body: String) throws -> URL {
        let url = try file(name, "#!/bin/sh\n" + body)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url
    }

    /// A P-256 key made with the system's openssl.
    func key() throws -> URL {
        let key = folder.appendingPathComponent("AuthKey_NETKEY.p8")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return key
    }

    @Test(arguments: ["echostart", "echomiddle", "echoprefix", "echoerror"])
    func aLongTokenEchoedByTheServerShowsNoPieceOnStderr(_ scenario: String) throws {
        let secret = LongSecret.make()
        let tokenFile = try file("token-\(scenario)", secret + "\n")
        let play = try storerelease([
            "tracks", "--package", "com.example.completed", "--play-token-file", tokenFile.path, "--play-base-url",
            server.baseURL(scenario).absoluteString,
        ])
        #expect(play.status == 1, "\(play.stderr)")
        let asc = try storerelease([
            "status", "--id", "414478124", "--asc-token-file", tokenFile.path, "--asc-base-url",
            server.baseURL(scenario).absoluteString,
        ])
        #expect(asc.status == 1, "\(asc.stderr)")
        for result in [play, asc] {
            let piece = LongSecret.firstPiece(of: secret, in: result.stdout + result.stderr)
            #expect(piece == nil, "\(scenario): \(piece ?? "") shows in \(result.stderr.prefix(300))")
            #expect(result.stderr.contains("<redacted>"), "\(result.stderr.prefix(300))")
        }
    }

    @Test func anOpenSSLEarlyInPathIsNotRun() throws {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let marker = folder.appendingPathComponent("fake-openssl-ran")
        _ = try script("bin/openssl", "touch '\(marker.path)'\ncat > /dev/null\nexit 1\n")
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try storerelease(
            [
                "status", "--id", "414478124", "--asc-key-file", try key().path, "--asc-key-id", "NETKEY",
                "--asc-issuer-id", "issuer", "--asc-base-url", server.baseURL("complete").absoluteString,
            ], environment: ["PATH": path, "STORERELEASE_OPENSSL": ""])
        #expect(result.status == 0, "signed with /usr/bin/openssl: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the openssl found through PATH ran")
    }

    @Test func theOpenSSLChildSeesNoneOfTheEnvironment() throws {
        let dump = folder.appendingPathComponent("environment")
        let fake = try script("dump-env", "env > '\(dump.path)'\ncat > /dev/null\nexit 3\n")
        let secret = "ya29.env-secret-\(UUID().uuidString)"
        let result = try storerelease(
            [
                "status", "--id", "414478124", "--asc-key-file", try key().path, "--asc-key-id", "NETKEY",
                "--asc-issuer-id", "issuer", "--asc-base-url", server.baseURL("complete").absoluteString,
            ], environment: ["STORERELEASE_OPENSSL": fake.path, "STORERELEASE_PLAY_TOKEN": secret])
        #expect(result.status == 1 && result.stderr.contains("could not sign"), "\(result.stderr)")
        let seen = try String(contentsOf: dump, encoding: .utf8)
        #expect(!seen.contains(secret) && !seen.contains("STORERELEASE_"), "\(seen)")
        let relative = try storerelease(
            [
                "status", "--id", "414478124", "--asc-key-file", try key().path, "--asc-key-id", "NETKEY",
                "--asc-issuer-id", "issuer",
            ], environment: ["STORERELEASE_OPENSSL": "openssl"])
        #expect(
            relative.status == 2 && relative.stderr.contains("STORERELEASE_OPENSSL \"openssl\" is not an absolute path")
        )
    }

    /// A base URL with a user name or password in it is refused before anything is sent, for
    /// every store's flag, and the password is never shown (before, the user information was
    /// dropped without a word, and a URL refused for another reason was echoed whole).
    @Test func aBaseURLCarryingAPasswordIsRefusedWithoutShowingIt() throws {
        let port = server.baseURL.port ?? 0
        let secret = "hunter2secretpw"
        for (arguments, flag) in [
            (["lookup", "--id", "414478124", "--country", "cn", "--base-url"], "--base-url"),
            (
                [
                    "tracks", "--package", "com.example.completed", "--play-token-file", try file("t", "x").path,
                    "--play-base-url",
                ], "--play-base-url"
            ),
            (
                ["status", "--id", "414478124", "--asc-token-file", try file("a", "x").path, "--asc-base-url"],
                "--asc-base-url"
            ),
        ] {
            for url in ["http://alice:\(secret)@127.0.0.1:\(port)/t/ok", "http://alice:\(secret)@example.com/"] {
                let result = try storerelease(arguments + [url])
                #expect(result.status == 2, "\(url): \(result.stderr)")
                #expect(
                    result.stderr.contains(flag) && result.stderr.contains("carries a user name or password"),
                    "\(result.stderr)")
                #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret), "\(result.stderr)")
            }
        }
    }

    @Test func loopbackWrittenOddlyConnectsOrIsRefusedNamingTheFlag() throws {
        let port = server.baseURL.port ?? 0
        let upper = try storerelease([
            "lookup", "--id", "414478124", "--country", "cn", "--base-url", "HTTP://127.0.0.1:\(port)/t/ok",
        ])
        #expect(upper.status == 0, "HTTP:// is http://: \(upper.stderr)")
        let zeros = try storerelease([
            "tracks", "--package", "com.example.completed", "--play-token-file", try file("t", "x").path,
            "--play-base-url", "http://127.000.000.001:\(port)/t/ok",
        ])
        #expect(zeros.status == 2 && zeros.stderr.contains("--play-base-url"), "\(zeros.stderr)")
        #expect(zeros.stderr.contains("127.000.000.001 is not an IPv4 address as it is written"), "\(zeros.stderr)")
        #if canImport(FoundationNetworking)
            let six = try storerelease([
                "status", "--id", "414478124", "--asc-token-file", try file("a", "x").path, "--asc-base-url",
                "http://[::1]:\(port)/t/complete",
            ])
            #expect(six.status == 2 && six.stderr.contains("--asc-base-url"), "\(six.stderr)")
            #expect(six.stderr.contains("IPv6 address, which URLSession on this platform cannot connect to"))
        #endif
    }
}
