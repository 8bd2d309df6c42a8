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
}
