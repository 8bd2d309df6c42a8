import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension ReleaseTimeline {
    /// The rollout gate's decision in a round of `watch --rollout`, and whether the picture marks it.
    public struct GateRound: Sendable, Hashable {
        /// When the round was taken.
        public var at: Date
        /// What the gate decided, and why.
        public var decision: RolloutDecision
        /// Whether the picture marks it: every advance and complete, and a hold with a new reason.
        ///
        /// A hold is new when it gives a reason the round before did not (numbers aside: a step a
        /// round older, a few more user-days are the same reason), so a week of holds is a mark a
        /// new reason, not a mark a round.
        public var isMarked: Bool
        /// The Play series' percentage the mark sits on; `nil`: not drawn.
        ///
        /// The version's release in that round, else the decision's `from`; `nil` when neither is
        /// known.
        public var percent: Double?
    }

    /// The gate's decisions of the rounds that recorded one, in time order, each marked or not.
    static func gate(_ rounds: [ReleaseHistoryRound], version: Version) -> [GateRound] {
        var gate: [GateRound] = []
        var previous: RolloutDecision?
        for round in rounds {
            guard let decision = round.rollout else { continue }
            let isMarked: Bool
            switch decision.kind {
            case .advance, .complete: isMarked = true
            case .hold:
                let before = previous?.kind == .hold ? Set(Self.shape(previous?.reasons ?? [])) : []
                isMarked = previous?.kind != .hold || !before.isSuperset(of: Self.shape(decision.reasons))
            case .halt, .done: isMarked = false
            }
            let own = round.googlePlay?.releases.first { $0.version == version && $0.versionCode != nil }
            let percent: Double? =
                switch own?.status {
                case .completed?: 100
                case .inProgress?, .halted?: (own?.userFraction ?? 1) * 100
                default: decision.from.map { $0 * 100 }
                }
            gate.append(GateRound(at: round.takenAt, decision: decision, isMarked: isMarked, percent: percent))
            previous = decision
        }
        return gate
    }

    /// Reasons with their numbers left out, one by one (`the step began # hours ago…`): how the
    /// watch tells whether a hold's reasons changed (``WatchRound/reasonKey(_:)``), a reason at a time.
    static func shape(_ reasons: [String]) -> [String] {
        reasons.map { WatchRound.reasonKey([$0]) }
    }
}
