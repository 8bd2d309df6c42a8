import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// `replay`: the gate run again over a history that kept its health windows' counts.
@Suite struct RolloutReplayTests {
    static let start = Date(timeIntervalSince1970: 1_764_619_200)  // 2025-12-01T20:00Z

    /// Day `day` of 8.0.10 on Play at `fraction`, its window `users` user-days at `rate`, 8.0.2's
    /// at 0.5% over the same age.
    static func round(
        _ day: Int, fraction: Double, users: Int, rate: Double, status: PlayTrackRelease.Status = .inProgress
    )
        throws -> ReleaseHistoryRound
    {
        let (new, old) = (try Version(parsing: "8.0.10"), try Version(parsing: "8.0.2"))
        let candidate = HealthCounts(
            version: new, versionCode: VersionCode(rawValue: 81), ageDays: day, users: users,
            crashedUsers: Double(users) * rate, anrUsers: Double(users) * 0.001)
        let baseline = HealthCounts(
            version: old, versionCode: VersionCode(rawValue: 80), ageDays: day, users: 50_000 * day,
            crashedUsers: Double(50_000 * day) * 0.005, anrUsers: Double(50_000 * day) * 0.001)
        let play = ReleaseSnapshot.StoreHealthRecord(
            version: new, verdict: .unknown, crashRate: nil, anrRate: nil, candidate: candidate, baseline: baseline)
        return ReleaseHistoryRound(
            takenAt: start.addingTimeInterval(Double(day) * 86_400),
            app: ReleaseSnapshot.App(appStoreID: nil, packageName: "com.example.app"),
            googlePlay: ReleaseSnapshot.GooglePlay(
                track: "production",
                releases: [
                    ReleaseSnapshot.PlayRelease(
                        versionCode: VersionCode(rawValue: 81), version: new, status: status, userFraction: fraction)
                ]),
            appStoreConnect: nil, storefronts: nil,
            health: ReleaseSnapshot.Health(googlePlay: play))
    }

    @Test func aRegressionIsHaltedTheRoundItShowsWithTheExposureThen() throws {
        let history = [
            try Self.round(1, fraction: 0.01, users: 3_000, rate: 0.005),
            try Self.round(2, fraction: 0.02, users: 9_000, rate: 0.012),
            try Self.round(3, fraction: 0.02, users: 20_000, rate: 0.012, status: .halted),
        ]
        let replay = try RolloutReplay(history, gate: RolloutGate(), criteria: try HealthCriteria())
        #expect(replay.version.description == "8.0.10" && replay.rounds == 3)
        #expect(replay.decisions.map(\.decision) == [.hold, .halt, .halt], "\(replay.decisions)")
        #expect(replay.wouldHaltAt == history[1].takenAt && replay.exposedUserDaysBeforeHalt == 9_000)
        #expect(replay.haltedAt == history[2].takenAt, "a person halted it a day later")
    }

    /// 0.8% over 10,000 user-days against 0.5% over 50,000: one look calls it regressed; the
    /// rollout's sequential rule (as `storerelease replay` and `advance` judge) holds it, the
    /// data leaning towards a regression (evidence about 100 to 1; 4,000 halts).
    @Test func theRolloutsRuleHoldsWhereOneLookWouldHalt() throws {
        let history = [try Self.round(1, fraction: 0.01, users: 10_000, rate: 0.008)]
        let oneLook = try RolloutReplay(history, gate: RolloutGate(), criteria: try HealthCriteria())
        #expect(oneLook.decisions.map(\.decision) == [.halt], "\(oneLook.decisions)")
        let rollout = try RolloutReplay(history, gate: RolloutGate(), criteria: try HealthCriteria().sequentially())
        #expect(rollout.decisions.map(\.decision) == [.hold], "\(rollout.decisions)")
        #expect(rollout.decisions.first?.reasons.contains { $0.contains("lean towards a regression") } == true)
        #expect(rollout.wouldHaltAt == nil)
    }

    @Test func aHigherMinimumOfUserDaysHoldsLonger() throws {
        let history = [
            try Self.round(1, fraction: 0.01, users: 3_000, rate: 0.005),
            try Self.round(2, fraction: 0.01, users: 9_000, rate: 0.005),
        ]
        let strict = try HealthCriteria(minimumUserDays: 10_000, maximumCrashRate: 0.0109, maximumANRRate: 0.0047)
        let replayed = try RolloutReplay(history, gate: RolloutGate(), criteria: strict)
        #expect(replayed.decisions.allSatisfy { $0.decision == .hold }, "\(replayed.decisions)")
        #expect(
            replayed.decisions.last?.reasons.contains { $0.contains("insufficientData (9000 user-days of 10000)") }
                == true)
        let usual = try RolloutReplay(history, gate: RolloutGate(), criteria: try HealthCriteria())
        #expect(usual.decisions.last?.decision == .advance && usual.wouldHaltAt == nil)
    }

    /// Counts made in code are not checked as a history line's are: the user-days of both stores
    /// at the halt stay at Int.max rather than overflow.
    @Test func theExposureOfCountsPastAnyCapStaysAtTheLargestInteger() throws {
        var round = try Self.round(1, fraction: 0.01, users: Int.max, rate: 0.05)
        let play = round.health?.googlePlay
        round.health?.appStore = play
        let replay = try RolloutReplay([round], gate: RolloutGate(), criteria: try HealthCriteria())
        #expect(replay.decisions.map(\.decision) == [.halt], "\(replay.decisions)")
        #expect(replay.exposedUserDaysBeforeHalt == Int.max)
    }

    /// A round the watch recorded advancing Play began the step it moved to, whatever the rounds
    /// after it show; a move that did not take (Play still at the old fraction the round after)
    /// leaves the old step's age as it was.
    @Test func aStepBeganAtTheRoundThatMovedItAndAMoveNotTakenLeavesTheStep() throws {
        func round(_ hours: Double, fraction: Double, moved to: Double? = nil) throws -> ReleaseHistoryRound {
            var round = try Self.round(1, fraction: fraction, users: 9_000, rate: 0.005)
            round.takenAt = Self.start.addingTimeInterval(86_400 + hours * 3_600)
            round.rollout = to.map {
                RolloutDecision(kind: .advance, reasons: [], from: fraction, to: $0, phased: nil)
            }
            return round
        }
        let taken = [
            try round(0, fraction: 0.01), try round(24, fraction: 0.01, moved: 0.02), try round(25, fraction: 0.02),
            try round(48, fraction: 0.02),
        ]
        let replay = try RolloutReplay(taken, gate: RolloutGate(), criteria: try HealthCriteria())
        #expect(replay.decisions.map(\.decision) == [.hold, .advance, .hold, .advance], "\(replay.decisions)")
        #expect(replay.decisions[2].reasons.contains("the step began 1 hours ago; a step lasts 24 hours"))
        let notTaken = [
            try round(0, fraction: 0.01), try round(24, fraction: 0.01, moved: 0.02), try round(25, fraction: 0.01),
        ]
        let again = try RolloutReplay(notTaken, gate: RolloutGate(), criteria: try HealthCriteria())
        #expect(again.decisions.map(\.decision) == [.hold, .advance, .advance], "\(again.decisions)")
    }

    @Test func aHistoryRecordedBeforeRoundFiveIsRefusedByName() throws {
        var old = try Self.round(1, fraction: 0.01, users: 3_000, rate: 0.005)
        old.health?.googlePlay?.candidate = nil
        #expect(throws: RolloutReplayError.noCounts(rounds: 1)) {
            _ = try RolloutReplay([old], gate: RolloutGate(), criteria: try HealthCriteria())
        }
    }

    @Test func theCountsTravelThroughAHistoryLine() throws {
        let round = try Self.round(2, fraction: 0.02, users: 9_000, rate: 0.012)
        let line = try JSONEncoder().encode(round)
        let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        let play = (object?["health"] as? [String: Any])?["googlePlay"] as? [String: Any]
        let candidate = try #require(play?["candidate"] as? [String: Any])
        #expect(Set(candidate.keys) == ["version", "versionCode", "ageDays", "users", "crashedUsers", "anrUsers"])
        let decoded = try JSONDecoder().decode(ReleaseHistoryRound.self, from: line)
        #expect(decoded.health?.googlePlay?.candidate == round.health?.googlePlay?.candidate)
        #expect(decoded.health?.googlePlay?.baseline?.users == 100_000)
    }
}
