import Foundation
import StoreReleaseTestSupport
import Testing

/// `advance --state FILE`: a file that cannot be this rollout's state is refused (exit 2) before
/// anything is read or written, and what is kept counts only for what it was kept for.
extension AdvanceCommandTests {
    /// App Store Connect's flags for the `world` of its fake (`rollingpaused`: 8.0.10's phased
    /// release PAUSED on day 3).
    func connect(_ world: String, _ token: String) -> [String] {
        [
            "--id", "414478124", "--asc-token-file", folder.appendingPathComponent("token").path,
            "--asc-base-url", server.baseURL(world, token: token).absoluteString,
        ]
    }

    func requests(_ token: String) throws -> Int { try server.playStats(token: token)["requests"] as? Int ?? 0 }

    func write(_ text: String, _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A pause the gate made of 8.0.2's phased release is not a pause of 8.0.10's: a person's
    /// pause of 8.0.10 holds the rollout and `--lockstep --apply` does not resume it.
    @Test func aGatesPauseKeptForAnotherVersionResumesNoPersonsPause() throws {
        let token = UUID().uuidString
        let state = try write(#"{"rollout": {"version": "8.0.2", "phasedPausedByGate": true}}"#, "stale-pause.json")
        let result = try run(
            token,
            connect("rollingpaused", token) + [
                "--lockstep", "--health-file", try healthFile(rate: 0.005), "--state", state, "--now",
                "2026-12-02T21:00:00Z", "--apply", "--confirm", "com.example.rollout,414478124",
            ])
        #expect(result.status == 1, "\(result.stderr)")
        let gate = try gate(result)
        #expect(gate["decision"] as? String == "hold", "\(result.stdout)")
        #expect(
            (gate["reasons"] as? [String] ?? []).contains { $0.contains("PAUSED (a person's pause: resume lifts it)") },
            "\(result.stdout)")
        #expect(try server.ascStats(token: token)["phasedPatched"] as? Int ?? 0 == 0, "the person's pause stands")
        #expect(try writes(token) == 0)
    }

    /// A watch's state of com.tencent.mm (the bundled example) is not com.example.rollout's:
    /// refused as `watch` refuses it, nothing read, the file as it was.
    @Test func anotherAppsWatchStateIsRefusedBeforeAnythingIsRead() throws {
        let example = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/watch-state.json")
        let text = try String(contentsOf: example, encoding: .utf8)
        let state = try write(text, "other-app.json")
        let result = try run(
            UUID().uuidString,
            [
                "--health-file", try healthFile(rate: 0.005), "--state", state, "--now", "2026-12-02T21:00:00Z",
                "--apply", "--confirm", "com.example.rollout",
            ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                #"is a snapshot of another app: its package is "com.tencent.mm", not "com.example.rollout""#),
            "\(result.stderr)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == text)
    }

    /// A state named through a link: refused (the write would replace the link by a file), the
    /// link and its target as they were.
    @Test func aStateThatIsALinkIsRefusedAndStaysALink() throws {
        let text = #"{"rollout": {"version": "8.0.10", "phasedPausedByGate": false}}"#
        let target = try write(text, "target.json")
        let link = folder.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try run(
            UUID().uuidString,
            [
                "--health-file", try healthFile(rate: 0.005), "--state", link, "--now", "2026-12-02T21:00:00Z",
                "--apply", "--confirm", "com.example.rollout",
            ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("it is a symbolic link"), "\(result.stderr)")
        #expect(result.stderr.contains("name the file itself"), "\(result.stderr)")
        let type = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
        #expect(type == .typeSymbolicLink)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == text)
    }

    /// A link planted at FILE.tmp is refused before anything is read or written (as FILE.lock's
    /// is), not found after the store's step was taken.
    @Test func aLinkAtTheTemporaryFileIsRefusedBeforeTheStoreIsWritten() throws {
        let token = UUID().uuidString
        let state = folder.appendingPathComponent("tmp-link.json").path
        let victim = try write("not advance's", "victim")
        try FileManager.default.createSymbolicLink(atPath: state + ".tmp", withDestinationPath: victim)
        let result = try run(
            token,
            [
                "--health-file", try healthFile(rate: 0.005), "--state", state, "--now", "2026-12-02T21:00:00Z",
                "--apply", "--confirm", "com.example.rollout",
            ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("\((state + ".tmp").debugDescription) cannot be used for the state"),
            "\(result.stderr)")
        #expect(try requests(token) == 0, "nothing read")
        #expect(try writes(token) == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "not advance's")
    }

    /// A step that began in 2030 (kept by `advance --now 2030-…` or a wrong clock) would hold the
    /// rollout forever: refused naming it. And `--now` ahead of the clock keeps the step begun at
    /// the real time, never later.
    @Test func aStepBegunInTheFutureIsRefusedAndNeverKept() throws {
        let token = UUID().uuidString
        let future = try write(
            #"{"rollout": {"version": "8.0.10", "play": {"fraction": 0.2, "began": "2030-01-01T00:00:00Z"}, "phasedPausedByGate": false}}"#,
            "future.json")
        let refused = try run(
            token, ["--health-file", try healthFile(rate: 0.005), "--state", future, "--now", "2026-12-02T21:00:00Z"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("future.json"), "\(refused.stderr)")
        #expect(refused.stderr.contains("began at 2030-01-01T00:00:00Z, after now"), "\(refused.stderr)")
        #expect(try requests(token) == 0, "nothing read")

        let state = folder.appendingPathComponent("ahead.json").path
        let ahead = try run(
            token,
            [
                "--health-file", try healthFile(rate: 0.005), "--state", state, "--now", "2030-01-01T00:00:00Z",
                "--apply", "--confirm", "com.example.rollout",
            ])
        #expect(ahead.status == 1, "the step is first seen: \(ahead.stderr)")
        let kept =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
        let began = ((kept?["rollout"] as? [String: Any])?["play"] as? [String: Any])?["began"] as? String
        let date = try #require(began.flatMap { ISO8601DateFormatter().date(from: $0) }, "\(kept ?? [:])")
        #expect(date <= Date(), "kept as begun \(began ?? ""), after the real time")
    }

    /// A state that is not one says what a state file is (no Swift internals); a state in a
    /// folder that does not exist is bad input naming the folder, with or without --apply.
    @Test(arguments: [false, true])
    func aStateFileThatCannotBeOneSaysWhy(_ apply: Bool) throws {
        let token = UUID().uuidString
        let confirm = apply ? ["--apply", "--confirm", "com.example.rollout"] : []
        let readme = BuiltProducts.packageRoot.appendingPathComponent("README.md").path
        let prose = try run(token, ["--state", readme] + confirm)
        #expect(prose.status == 2, "\(prose.stderr)")
        #expect(prose.stderr.contains("is not a state file: it is not JSON"), "\(prose.stderr)")
        #expect(prose.stderr.contains("a state file is a JSON object"), "\(prose.stderr)")
        #expect(!prose.stderr.contains("DecodingError"), "\(prose.stderr)")
        let nowhere = try run(token, ["--state", "/no/such/dir/s.json"] + confirm)
        #expect(nowhere.status == 2, "\(nowhere.stderr)")
        #expect(nowhere.stderr.contains(#"its folder "/no/such/dir" does not exist"#), "\(nowhere.stderr)")
        #expect(try requests(token) == 0, "nothing read")
    }
}
