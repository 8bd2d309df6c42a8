import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The rollout gate, pure: each rule of the contract (DESIGN round 5, "A rollout that runs
/// itself") a row, the first that matches winning.
@Suite struct RolloutGateTests {
    static let now = Date(timeIntervalSince1970: 1_733_500_800)  // 2024-12-06T16:00Z
    static let dayAgo = now.addingTimeInterval(-30 * 3600)

    /// A row: what changes from the healthy base, and what the gate must say.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let change: @Sendable (inout RolloutGate.Situation) -> Void
        var lockstep = false
        let decision: RolloutDecision.Kind
        var to: Double? = nil
        var phased: RolloutDecision.PhasedMove? = nil
        var reason: String? = nil
        var testDescription: String { name }
    }

    static func release(_ status: PlayTrackRelease.Status, _ fraction: Double?) -> PlayTrackRelease {
        PlayTrackRelease(
            name: "81 (8.0.10)", versionCodes: [VersionCode(rawValue: 81)].compactMap { $0 }, status: status,
            userFraction: fraction)
    }

    static func health(_ verdict: HealthVerdict, through: Date = now) -> RolloutGate.Health {
        RolloutGate.Health(verdict: verdict, through: HealthDate(of: through, countedBy: .googlePlay))
    }

    /// Play at 5%, the phased release on day 3 (5%), both healthy with data through today, the
    /// step begun 30 hours ago.
    static func base() -> RolloutGate.Situation {
        RolloutGate.Situation(
            play: release(.inProgress, 0.05), phased: PhasedRelease(state: .active, currentDayNumber: 3),
            health: [.googlePlay: health(.healthy), .appStore: health(.healthy)], stepBegan: dayAgo, now: now)
    }

    static let regression = HealthVerdict.regressed([])

    static let rows: [Row] = [
        Row(name: "healthy: the next step", change: { _ in }, decision: .advance, to: 0.1),
        Row(name: "Play regressed: halt", change: { $0.health[.googlePlay] = health(regression) }, decision: .halt),
        Row(
            name: "the App Store regressed holds Android too: halt",
            change: { $0.health[.appStore] = health(regression) }, decision: .halt, reason: "App Store: regressed"),
        Row(
            name: "regressed wins over completed",
            change: {
                $0.play = release(.completed, nil)
                $0.health[.appStore] = health(regression)
            }, decision: .halt),
        Row(
            name: "insufficientData: hold",
            change: { $0.health[.googlePlay] = health(.insufficientData(userDays: 90, minimum: 1000)) },
            decision: .hold, reason: "insufficientData (90 user-days of 1000)"),
        Row(
            name: "unknown: hold", change: { $0.health[.appStore] = health(.unknown(reason: "ANR data unread")) },
            decision: .hold, reason: "App Store: unknown (ANR data unread)"),
        Row(
            name: "no App Store health while it phases: hold", change: { $0.health[.appStore] = nil }, decision: .hold,
            reason: "App Store: no health read"),
        Row(
            name: "the step is younger than its hours: hold",
            change: { $0.stepBegan = now.addingTimeInterval(-10 * 3600) }, decision: .hold,
            reason: "the step began 10 hours ago; a step lasts 24 hours"),
        Row(
            name: "Play's data do not yet include the day the step began: hold",
            change: { $0.health[.googlePlay] = health(.healthy, through: dayAgo.addingTimeInterval(-86_400)) },
            decision: .hold, reason: "Google Play: its data reach"),
        Row(
            name: "a person's halt on Play: hold", change: { $0.play = release(.halted, 0.05) }, decision: .hold,
            reason: "is halted"),
        Row(
            name: "a person's pause on the App Store: hold",
            change: { $0.phased = PhasedRelease(state: .paused, currentDayNumber: 3) }, decision: .hold,
            reason: "PAUSED (a person's pause"),
        Row(
            name: "the gate's own pause is not a hold",
            change: {
                $0.phased = PhasedRelease(state: .paused, currentDayNumber: 3)
                $0.phasedPausedByGate = true
            }, decision: .advance, to: 0.1),
        Row(
            name: "changes in review: hold", change: { $0.playChangesInReview = true }, decision: .hold,
            reason: "changes in review"),
        Row(name: "50%: complete", change: { $0.play = release(.inProgress, 0.5) }, decision: .complete, to: 1),
        Row(
            name: "50%, Play's data not ruling out a 1.5x regression: hold",
            change: {
                $0.play = release(.inProgress, 0.5)
                $0.health[.googlePlay]?.clearsMargin = false
            }, decision: .hold, reason: "Google Play: its data do not yet rule out a regression of 1.5x"),
        Row(
            name: "5%, the margin not ruled out yet: the steps below 100% do not wait for it",
            change: { $0.health[.googlePlay]?.clearsMargin = false }, decision: .advance, to: 0.1),
        Row(
            name: "insufficientData while the data lean towards a regression: hold, saying so",
            change: { $0.health[.googlePlay] = health(.insufficientData(userDays: 12_000, minimum: 1000)) },
            decision: .hold, reason: "Google Play: insufficientData (its data lean towards a regression"),
        Row(name: "completed: done", change: { $0.play = release(.completed, nil) }, decision: .done),
        Row(
            name: "no state: advance, saying the step's age was not judged", change: { $0.stepBegan = nil },
            decision: .advance, to: 0.1, reason: "is not known (no state)"),
        Row(
            name: "lockstep: Play never more than a step above the phased release",
            change: { $0.phased = PhasedRelease(state: .active, currentDayNumber: 1) }, lockstep: true,
            decision: .hold, reason: "lockstep: Play at 10% would be more than a step above the phased release's 1%"),
        Row(
            name: "lockstep: the phased release more than a step ahead is paused",
            change: {
                $0.play = release(.inProgress, 0.02)
                $0.phased = PhasedRelease(state: .active, currentDayNumber: 5)
            }, lockstep: true, decision: .advance, to: 0.05, phased: .pause),
        Row(
            name: "lockstep: the gate's pause is lifted once Play caught up",
            change: {
                $0.play = release(.inProgress, 0.1)
                $0.phased = PhasedRelease(state: .paused, currentDayNumber: 5)
                $0.phasedPausedByGate = true
            }, lockstep: true, decision: .advance, to: 0.2, phased: .resume),
        Row(
            name:
                "lockstep: a step that brings Play within one of the phased release lifts the gate's pause that round",
            change: {
                $0.play = release(.inProgress, 0.01)
                $0.phased = PhasedRelease(state: .paused, currentDayNumber: 3)
                $0.phasedPausedByGate = true
            }, lockstep: true, decision: .advance, to: 0.02, phased: .resume),
        Row(
            name: "lockstep: no pause when this round's step brings Play within one of the phased release",
            change: {
                $0.play = release(.inProgress, 0.01)
                $0.phased = PhasedRelease(state: .active, currentDayNumber: 3)
            }, lockstep: true, decision: .advance, to: 0.02, phased: nil),
        Row(
            name: "lockstep never lifts a person's pause",
            change: {
                $0.play = release(.inProgress, 0.1)
                $0.phased = PhasedRelease(state: .paused, currentDayNumber: 5)
            }, lockstep: true, decision: .hold, phased: nil),
    ]

    @Test(arguments: rows) func eachRuleIsARow(_ row: Row) {
        var situation = Self.base()
        row.change(&situation)
        let decision = RolloutGate(lockstep: row.lockstep).decide(situation)
        #expect(decision.kind == row.decision, "\(decision.reasons)")
        #expect(decision.to == row.to)
        #expect(decision.phased == row.phased)
        if let reason = row.reason {
            #expect(decision.reasons.contains { $0.contains(reason) }, "\(decision.reasons)")
        }
    }

    @Test func theDecisionIsTheContractsJSON() throws {
        let decision = RolloutGate().decide(Self.base())
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(decision)) as? [String: Any]
        #expect(object?["decision"] as? String == "advance" && object?["from"] as? Double == 0.05)
        #expect(object?["to"] as? Double == 0.1 && (object?["reasons"] as? [String])?.isEmpty == false)
    }

    /// A kept step or a history line's decision that is not one is refused naming the key and the value.
    @Test(arguments: [
        (#"{"fraction": 1.5, "began": "2026-12-01T00:00:00Z"}"#, "fraction 1.5 is outside 0.0...1.0"),
        (#"{"fraction": 0.05, "began": "yesterday"}"#, #"began is not an ISO 8601 date: "yesterday""#),
        (#"{"decision": "advance", "reasons": [], "from": 0.05, "to": 2}"#, "to 2.0 is outside 0.0...1.0"),
        (#"{"decision": "hold", "reasons": [], "from": -0.5, "to": null}"#, "from -0.5 is outside 0.0...1.0"),
    ])
    func aKeptStepOrDecisionOutOfRangeIsRefusedByName(_ json: String, _ message: String) {
        let data = Data(json.utf8)
        let error: (any Error)?
        do {
            if json.contains("began") {
                _ = try JSONDecoder().decode(RolloutState.Step.self, from: data)
            } else {
                _ = try JSONDecoder().decode(RolloutDecision.self, from: data)
            }
            error = nil
        } catch let caught {
            error = caught
        }
        #expect("\(error.map(String.init(describing:)) ?? "decoded")".contains(message), "\(String(describing: error))")
    }

    /// A well-formed step decodes whatever the decoder's date strategy.
    @Test func aKeptStepDecodesItsTimeAsISO8601() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let step = try decoder.decode(
            RolloutState.Step.self, from: Data(#"{"fraction": 0.05, "began": "2026-12-01T00:00:00Z"}"#.utf8))
        #expect(step == RolloutState.Step(fraction: 0.05, began: Date(timeIntervalSince1970: 1_796_083_200)))
    }

    @Test(arguments: [
        ([1.0, 2, 50], 24.0, "does not end at 100"),
        ([1.0, 5, 2, 100], 24, "does not increase"),
        ([0.0, 100], 24, "0 is not a percentage"),
        ([1.0, 100], 0, "a step of 0 hours"),
        ([1.0, 100], -2, "a step of -2 hours"),
        ([], 24, "(empty) does not end at 100"),
    ])
    func aScheduleThatDoesNotClimbTo100IsRefusedByName(_ steps: [Double], _ hours: Double, _ message: String) {
        #expect {
            _ = try RolloutSchedule(percentages: steps, stepHours: hours)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func theDefaultScheduleIsApplesPhasedOne() throws {
        #expect(
            RolloutSchedule.apple.percentages == [1, 2, 5, 10, 20, 50, 100] && RolloutSchedule.apple.stepHours == 24)
        #expect(RolloutSchedule.apple.next(after: 0) == 0.01 && RolloutSchedule.apple.next(after: 0.03) == 0.05)
        #expect(RolloutSchedule.apple.next(after: 1) == nil)
    }
}
