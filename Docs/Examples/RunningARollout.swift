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
