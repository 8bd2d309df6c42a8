import Foundation
import StoreReleaseKit

/// The examples of "Running a rollout".
func runningARolloutExamples() throws {
    let began = Date(timeIntervalSince1970: 1_764_619_200)  // 2025-12-01T20:00Z
    let release = PlayTrackRelease(
        name: "81 (8.0.10)", versionCodes: [try VersionCode(parsing: "81")], status: .inProgress, userFraction: 0.05)
    let healthy = RolloutGate.Health(verdict: .healthy, through: HealthDate("2025-12-02"))
    let situation = RolloutGate.Situation(
        play: release, health: [.googlePlay: healthy], stepBegan: began, now: began.addingTimeInterval(26 * 3600))
    let decision = RolloutGate().decide(situation)
    switch decision.kind {
    case .advance, .complete: print("raise Play to \(decision.to ?? 1)")  // raise Play to 0.1
    case .hold: print("hold: \(decision.reasons.joined(separator: "; "))")
    case .halt: print("halt: run storerelease halt")
    case .done: print("done")
    }
}

/// The guide's unattended round in Swift (compiled; the tests run the same against the fakes).
func watchARollout(play: PlayDeveloperAPIClient, healthFile: HealthFile, statePath: String) async throws {
    var watcher = ReleaseWatcher(
        state: WatchStateFile(path: statePath), appStore: nil,
        play: .live(packageName: "com.example.app", track: "production", client: play), appStoreConnect: nil,
        health: HealthSources(files: [healthFile], criteria: try HealthCriteria().sequentially()),
        interval: .seconds(600))
    watcher.haltsOnRegression = true
    watcher.rollout = RolloutGate(schedule: .apple)
    let outcome = try await watcher.run(rounds: 1) { progress in
        if case .rolledOut(let plan) = progress, let gate = plan.gate { print(gate.sentence) }
    }
    print("\(outcome.rounds) round(s)")
}
