import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The rollout gate run again over a recorded history, with other parameters if given.
///
/// Each round of a `watch --history` that kept its health windows' counts (written by a
/// StoreRelease of round 5 of its design on, with health sources) is judged
/// again: each store's verdict from its candidate and baseline counts by ``HealthRule`` with the
/// criteria given, then the gate with the schedule given, Play's release and the phased release
/// as the round recorded them. What it says beside what happened: when the rule would have
/// halted, when the release was halted, and how many user-days were exposed before the rule's
/// halt — so a team tunes `--min-users` on its own past releases.
///
/// What a history does not record is taken as follows: a step began at the round whose recorded
/// decision (`watch --rollout`) moved Play to it, else at the first round that shows Play's
/// fraction; each store's data reach the day before the round (Play's daily data lag a day);
/// Play had changes in review only where the round's recorded decision held for them.
public struct RolloutReplay: Sendable, Hashable {
    /// One round judged again.
    public struct Decision: Sendable, Hashable {
        /// When the round was taken.
        public let at: Date
        /// What the gate decides.
        public let decision: RolloutDecision.Kind
        /// Why.
        public let reasons: [String]
    }

    /// The version replayed: the one the history's health judged last.
    public let version: Version
    /// The rounds that judged it.
    public let rounds: Int
    /// The gate's decision each round.
    public let decisions: [Decision]
    /// The first round the rule would have halted at, if any.
    public let wouldHaltAt: Date?
    /// The first round that shows the release halted (Play) or paused (the App Store), if any.
    public let haltedAt: Date?
    /// The candidate's user-days on both stores at the rule's halt; `nil` when it never halts.
    public let exposedUserDaysBeforeHalt: Int?

    /// Replays the rounds `written` through `gate`, judging health by `criteria`.
    ///
    /// `storerelease replay` gives ``HealthCriteria/sequentially()`` criteria, as `advance` judges
    /// a rollout (``SequentialHealthRule``); criteria of one look replay the general rule.
    ///
    /// Rounds are judged in time order (those taken at the same time as written).
    ///
    /// - Throws: ``RolloutReplayError`` for a history with no round that kept its counts
    ///   (recorded by a StoreRelease before round 5 of its design), or none that judged a version; for rounds that span more
    ///   than ``ReleaseTimeline/maximumSpan`` (a clock that was wrong), as a timeline refuses them.
    public init(_ written: [ReleaseHistoryRound], gate: RolloutGate, criteria: HealthCriteria)
        throws(RolloutReplayError)
    {
        let history: [ReleaseHistoryRound]
        switch ReleaseHistory.inTimeOrder(written, within: ReleaseTimeline.maximumSpan) {
        case .success(let ordered): history = ordered
        case .failure(let span): throw .spanTooLong(first: span.first, last: span.last)
        }
        let judged = history.filter { round in
            [round.health?.googlePlay, round.health?.appStore].contains { $0?.candidate != nil }
        }
        guard !judged.isEmpty else { throw .noCounts(rounds: history.count) }
        guard
            let version = judged.last.flatMap({
                $0.health?.googlePlay?.candidate?.version ?? $0.health?.appStore?.candidate?.version
            })
        else { throw .noCounts(rounds: history.count) }
        var decisions: [Decision] = []
        var steps = RecordedSteps()
        var wouldHaltAt: Date?
        var exposed: Int?
        var haltedAt: Date?
        for round in history {
            let play = round.googlePlay?.playTrack.release(of: version)
            let phased = Self.phased(of: version, in: round)
            if haltedAt == nil, play?.status == .halted || phased?.state == .paused { haltedAt = round.takenAt }
            let stepBegan = steps.began(at: play.map(\.rolloutFraction), in: round)
            var health: [Store: RolloutGate.Health] = [:]
            var users = 0
            for (store, kept) in [(Store.googlePlay, round.health?.googlePlay), (.appStore, round.health?.appStore)] {
                guard let kept, let counts = kept.candidate, counts.version == version else { continue }
                let candidate = HealthWindow(counts)
                let baseline = kept.baseline.map(HealthWindow.init)
                let verdict = HealthRule.verdict(
                    candidate: candidate, baseline: baseline, criteria: criteria,
                    metrics: HealthMetric.reported(by: store))
                let day = HealthDate(of: round.takenAt.addingTimeInterval(-86_400), countedBy: store)
                health[store] = RolloutGate.Health(
                    verdict: verdict, through: day, reasons: [],
                    clearsMargin: SequentialHealthRule.clearsMargin(candidate: candidate, baseline: baseline))
                // A history line's counts are at most HealthDay.maximumCount; counts made in code
                // may be anything, and the sum stays at Int.max rather than trap.
                let (sum, overflow) = users.addingReportingOverflow(counts.users)
                users = overflow ? Int.max : sum
            }
            guard !health.isEmpty else { continue }
            let situation = RolloutGate.Situation(
                play: play, playChangesInReview: round.rollout?.heldForChangesInReview ?? false, phased: phased,
                health: health, stepBegan: stepBegan, now: round.takenAt)
            let decision = gate.decide(situation)
            decisions.append(Decision(at: round.takenAt, decision: decision.kind, reasons: decision.reasons))
            if wouldHaltAt == nil, decision.kind == .halt { (wouldHaltAt, exposed) = (round.takenAt, users) }
        }
        self.version = version
        self.rounds = decisions.count
        self.decisions = decisions
        self.wouldHaltAt = wouldHaltAt
        self.haltedAt = haltedAt
        self.exposedUserDaysBeforeHalt = exposed
    }

    /// When each step of Play's rollout began, as the rounds show it.
    ///
    /// A watch records the round before it acts: the round whose `rollout` advanced (or completed)
    /// Play began the step it moved to, and the next round is the first to show it. A fraction no
    /// recorded decision moved to (a person's change, a history without decisions) began at the
    /// first round that shows it; a move that did not take (Play still at the old fraction) leaves
    /// the step as it was.
    struct RecordedSteps {
        /// The step Play is at, and when it began.
        var current: (fraction: Double, began: Date)?
        /// The step the last round's recorded decision moved Play to, and when.
        var moved: (fraction: Double, at: Date)?

        /// When the step at `fraction`, shown by `round`, began; then notes the round's own move.
        mutating func began(at fraction: Double?, in round: ReleaseHistoryRound) -> Date? {
            if let fraction, current.map({ !Self.same($0.fraction, fraction) }) ?? true {
                let began = moved.flatMap { Self.same($0.fraction, fraction) ? $0.at : nil } ?? round.takenAt
                current = (fraction, began)
            }
            let began = current?.began
            if let decision = round.rollout, decision.kind == .advance || decision.kind == .complete,
                let to = decision.to
            {
                moved = (to, round.takenAt)
            } else if fraction != nil {
                moved = nil
            }
            return began
        }

        static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
    }

    /// The phased release of `version` in a round, as App Store Connect showed it.
    static func phased(of version: Version, in round: ReleaseHistoryRound) -> PhasedRelease? {
        guard let phase = round.appStoreConnect?.first(where: { $0.version.parsed == version })?.phasedRelease else {
            return nil
        }
        return PhasedRelease(state: phase.state, currentDayNumber: phase.day)
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case version, rounds, decisions, wouldHaltAt, haltedAt, exposedUserDaysBeforeHalt
    }
}

extension RolloutDecision {
    /// Whether this recorded decision held for Play's changes in review.
    var heldForChangesInReview: Bool {
        kind == .hold && reasons.contains(RolloutGate.changesInReview)
    }
}

extension RolloutReplay: EveryKeyEncodable {}

extension RolloutReplay.Decision: Encodable, EveryKeyEncodable {
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case at, decision, reasons
    }
}

/// Why a history cannot be replayed.
public enum RolloutReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No round kept its health windows' counts.
    ///
    /// The history was recorded by a StoreRelease before round 5 of its design (whose history
    /// lines keep none), or without health sources.
    case noCounts(rounds: Int)
    /// The rounds span more than ``ReleaseTimeline/maximumSpan``: the earliest and the latest.
    case spanTooLong(first: ReleaseTimelineError.Round, last: ReleaseTimelineError.Round)

    /// What is wrong, and what to do.
    public var description: String {
        switch self {
        case .noCounts(let rounds):
            "none of its \(rounds) rounds kept its health windows' counts: it was recorded by a StoreRelease before "
                + "round 5 of its design, whose history lines keep no window counts, or without health sources; "
                + FailureHint.watchWithHealth.words
        case .spanTooLong(let first, let last):
            "\(ReleaseHistorySpan(first: first, last: last)); a replay judges at most "
                + "\(Int(ReleaseTimeline.maximumSpan / 86400)) days: was a clock wrong for one of them?"
        }
    }
}
