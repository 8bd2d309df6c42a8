import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// What a rollout keeps between rounds.
///
/// The version, Play's step and when it began, and whether the phased release's pause is the
/// gate's own.
/// A step first seen (no state yet, another version, or a fraction changed by hand) began when
/// it was seen, so the gate's first round of it holds.
public struct RolloutState: Sendable, Hashable, Codable {
    /// Play's current step: its fraction, and when the rollout reached it.
    public struct Step: Sendable, Hashable, Codable {
        /// Play's `userFraction` (1 when completed).
        public var fraction: Double
        /// When the rollout reached it.
        public var began: Date

        /// Makes a step.
        public init(fraction: Double, began: Date) {
            self.fraction = fraction
            self.began = began
        }

        enum CodingKeys: String, CodingKey {
            case fraction, began
        }

        /// Decodes a fraction in 0–1 and an ISO 8601 time, whatever the decoder's date strategy.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            fraction = try c.decode(Double.self, forKey: .fraction, within: 0...1)
            began = try c.decodeISO8601(forKey: .began)
        }

        /// Encodes the fraction and the time as ISO 8601 text (the same in a watch's state and advance's).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(fraction, forKey: .fraction)
            try c.encode(ISO8601Timestamp.string(from: began), forKey: .began)
        }
    }

    /// The version rolled out.
    public var version: Version
    /// Play's current step, if known.
    public var play: Step?
    /// Whether the phased release's pause is the gate's own (lockstep), so the gate may lift it.
    public var phasedPausedByGate: Bool

    /// Makes a state.
    public init(version: Version, play: Step? = nil, phasedPausedByGate: Bool = false) {
        self.version = version
        self.play = play
        self.phasedPausedByGate = phasedPausedByGate
    }

    /// When the step at `fraction` began: as kept, or `now` when first seen.
    public func stepBegan(_ version: Version, fraction: Double?, now: Date) -> Date {
        guard version == self.version, let play, let fraction, abs(play.fraction - fraction) < 1e-9 else { return now }
        return play.began
    }

    /// Whether the phased release of `version` is paused by the gate.
    ///
    /// A pause recorded for another version is not: that version's phased release is not this
    /// one's, and a person may have paused this one.
    public func pausedByGate(_ version: Version) -> Bool {
        version == self.version && phasedPausedByGate
    }

    /// The state after a round.
    ///
    /// The step Play is at (begun now when it changed or is new), and the gate's pause as the
    /// decision left it.
    public func after(
        _ version: Version, fraction: Double?, decision: RolloutDecision?, applied: Bool, now: Date
    ) -> RolloutState {
        let moved = applied ? (decision?.to ?? fraction) : fraction
        let began = moved.map { stepBegan(version, fraction: $0, now: now) } ?? now
        var paused = pausedByGate(version)
        if applied, let move = decision?.phased { paused = move == .pause }
        return RolloutState(
            version: version, play: moved.map { Step(fraction: $0, began: began) }, phasedPausedByGate: paused)
    }

    enum CodingKeys: String, CodingKey {
        case version, play, phasedPausedByGate
    }
}
