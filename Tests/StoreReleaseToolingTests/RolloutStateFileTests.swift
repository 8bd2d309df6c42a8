import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// ``RolloutStateFile`` as a Swift user calls it: a file that cannot be the rollout's state is
/// refused by name before anything is written, and what is kept counts only for what it was kept for.
@Suite struct RolloutStateFileTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("rollout-state")
    }

    static let now = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00Z

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What `body` was refused with (a ``RolloutStateFileError``'s words).
    func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "(not refused)"
        } catch let error as RolloutStateFileError {
            return error.description
        } catch {
            return "(another error: \(error))"
        }
    }

    /// The gate's pause kept for 8.0.2 is not its pause of 8.0.10 (whose phased release a person
    /// may have paused): the situation counts it only for the version it was kept for.
    @Test func aPauseKeptForAnotherVersionIsNotTheGates() throws {
        let version = try Version(parsing: "8.0.10")
        let stale = RolloutState(version: try Version(parsing: "8.0.2"), phasedPausedByGate: true)
        let own = RolloutState(version: version, phasedPausedByGate: true)
        #expect(!stale.pausedByGate(version) && own.pausedByGate(version))
        func situation(_ state: RolloutState) -> RolloutGate.Situation {
            RolloutGate.Situation(version, reading: ActingReading(), health: nil, state: state, now: Self.now)
        }
        #expect(!situation(stale).phasedPausedByGate)
        #expect(situation(own).phasedPausedByGate)
    }
}
