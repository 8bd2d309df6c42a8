import Foundation
import StoreReleaseTestSupport
import Testing

/// `watch --rollout`, the built binary against the stateful Play fake and a health file: a round
/// holds a step first seen, says so once, records the decision on its history line and keeps the
/// step in the state's `rollout` key (the one `advance --state` reads); flags that do not fit are
/// exit 2 before anything is read.
@Suite struct WatchRolloutCommandTests {
    static let secret = "ya29.watch-rollout-secret-\(UUID().uuidString)"

    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("watch-rollout")
        try Data((Self.secret + "\n").utf8).write(to: scratch.url.appendingPathComponent("token"))
    }

    /// com.example.walk's Play health: 8.0.2 (80) through November, 8.0.10 (81) from 1 December,
    /// `crashed` of its 6,000 users a day (30: 0.5%, as 8.0.2's).
    func healthFile(crashed: Int = 30) throws -> String {
        var days: [String] = []
        for day in 1...30 {
            days.append(
                #"{"date": "2026-11-\#(String(format: "%02d", day))", "version": "8.0.2", "versionCode": 80, "users": 8000, "crashedUsers": 40, "anrUsers": 8}"#
            )
        }
        for day in 1...5 {
            days.append(
                #"{"date": "2026-12-0\#(day)", "version": "8.0.10", "versionCode": 81, "users": 6000, "crashedUsers": \#(crashed), "anrUsers": 6}"#
            )
        }
        let file = folder.appendingPathComponent("health.json")
        try Data(
            (#"{"store": "googlePlay", "app": "com.example.walk", "days": ["# + days.joined(separator: ",\n") + "]}")
                .utf8
        ).write(to: file)
        return file.path
    }

    func storerelease(_ arguments: [String]) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), arguments,
            environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
        #expect(result.exited)
        #expect(!result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret), "a token shows")
        return result
    }

    func play(_ token: String) -> [String] {
        [
            "--package", "com.example.walk", "--play-token-file", folder.appendingPathComponent("token").path,
            "--play-base-url", server.baseURL("ok", token: token).absoluteString,
        ]
    }

    /// 0.7% over 8.0.10's 30,000 user-days against 8.0.2's 0.5% over 40,000: one look calls it
    /// regressed; `watch --rollout` (which implies `--halt-on regressed`) judges by the rollout's
    /// sequential rule, where that is evidence of about 70 to 1 (4,000 halts): it holds, saying the
    /// data lean towards a regression, and halts nothing.
    @Test func whatOneLookCallsRegressedTheRolloutHoldsWhileTheDataLean() throws {
        let token = UUID().uuidString
        let watch = [
            "watch", "--state", folder.appendingPathComponent("leaning.json").path, "--rounds", "1", "--interval",
            "0", "--health-file", try healthFile(crashed: 42), "--rollout", "--confirm", "com.example.walk",
        ]
        let result = try storerelease(watch + play(token))
        #expect(result.status == 0, "\(result.stderr)")
        let held = result.stdout.split(separator: "\n").filter { $0.contains(#""type":"rolloutHeld""#) }
        #expect(held.first?.contains("lean towards a regression") == true, "\(result.stdout)")
        #expect(!result.stdout.contains(#""type":"halted""#), "\(result.stdout)")
        #expect(try server.playStats(token: token)["writes"] as? Int ?? -1 == 0, "nothing halted")
    }

    @Test func aRoundHoldsAStepFirstSeenRecordsItAndKeepsItForAdvance() throws {
        let token = UUID().uuidString
        let state = folder.appendingPathComponent("state.json").path
        let history = folder.appendingPathComponent("history.jsonl").path
        let watch = [
            "watch", "--state", state, "--history", history, "--rounds", "2", "--interval", "0", "--health-file",
            try healthFile(), "--rollout", "--confirm", "com.example.walk",
        ]
        let result = try storerelease(watch + play(token))
        #expect(result.status == 0, "\(result.stderr)")
        let held = result.stdout.split(separator: "\n").filter { $0.contains(#""type":"rolloutHeld""#) }
        #expect(held.count == 1, "one hold, told once over two rounds: \(result.stdout)")
        #expect(held.first?.contains("the step began 0 hours ago") == true)
        #expect(result.stderr.contains("watch: the rollout of 8.0.10: hold at 1%"), "\(result.stderr)")
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""rollout":{"decision":"hold""#) }, "\(lines)")
        let kept =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
        let rollout = kept?["rollout"] as? [String: Any]
        #expect(rollout?["version"] as? String == "8.0.10")
        #expect((rollout?["play"] as? [String: Any])?["fraction"] as? Double == 0.01)
        #expect(try server.playStats(token: token)["writes"] as? Int ?? -1 == 0, "a hold writes nothing")
        // advance reads the step the watch kept: begun when the watch first saw it.
        let advance = try storerelease(
            ["advance", "8.0.10", "--state", state, "--health-file", try healthFile(), "--format", "text"]
                + play(token))
        #expect(advance.status == 1 && advance.stderr.contains("the step began 0 hours ago"), "\(advance.stderr)")
    }

    @Test(arguments: [
        (["--rollout", "--confirm", "com.example.walk"], "--rollout needs health sources"),
        (["--rollout", "--health-file", "HEALTH"], "--rollout writes to the stores: add --confirm"),
        (["--schedule", "1,10,100", "--health-file", "HEALTH"], "--schedule goes with --rollout"),
        (["--lockstep", "--health-file", "HEALTH"], "--lockstep goes with --rollout"),
        (
            ["--rollout", "--schedule", "5,2,100", "--health-file", "HEALTH", "--confirm", "com.example.walk"],
            "--schedule"
        ),
        (
            ["--rollout", "--step-hours", "0", "--health-file", "HEALTH", "--confirm", "com.example.walk"],
            "--step-hours"
        ),
        (["--rollout", "--health-file", "HEALTH", "--confirm", "com.example.other"], "com.example.walk"),
        (
            ["--rollout", "--health-file", "APPSTOREHEALTH", "--confirm", "com.example.walk"],
            "--rollout acts on Google Play and needs its health"
        ),
    ])
    func flagsThatDoNotFitAreRefusedBeforeAnythingIsRead(_ extra: [String], _ named: String) throws {
        let token = UUID().uuidString
        let health = try healthFile()
        let appStoreHealth = BuiltProducts.packageRoot.appendingPathComponent(
            "Docs/Examples/payloads/health-appstore.json"
        ).path
        let flags = extra.map { $0 == "HEALTH" ? health : $0 == "APPSTOREHEALTH" ? appStoreHealth : $0 }
        let result = try storerelease(
            ["watch", "--state", folder.appendingPathComponent("s.json").path, "--rounds", "1"] + flags + play(token))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(named), "\(result.stderr)")
        #expect(try server.playStats(token: token)["requests"] as? Int ?? 0 == 0, "nothing read")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.json").path))
    }
}
