import StoreReleaseCore
import StoreReleaseModels

/// What the rollout gate decides for a version now, and why.
///
/// `from` is Play's `userFraction` now (1 for a completed release), `to` the fraction it moves
/// to (1 to complete it); `phased` is what `--lockstep` asks of the App Store's phased release.
/// Made by the gate only (``RolloutGate/decide(_:)``), or read back from a history line, so an
/// advance plan carries out a decision the gate made.
public struct RolloutDecision: Sendable, Hashable {
    /// The decision's name, as the contract writes it.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Raise Play's fraction to the next step.
        case advance
        /// Roll Play out to every user: the next step is 100%.
        case complete
        /// Stay where it is this round; the reasons say why.
        case hold
        /// A store's health of the version regressed: stop it on both stores.
        case halt
        /// Nothing left to roll out.
        case done
    }

    /// What lockstep does to the phased release.
    public enum PhasedMove: String, Sendable, Hashable, Codable {
        /// Pause it: it is more than a step above Play.
        case pause
        /// Resume it: the gate paused it and it is no longer ahead.
        case resume
    }

    /// The decision.
    public let kind: Kind
    /// Why, one sentence each (for advance and complete, what was checked).
    public let reasons: [String]
    /// Play's fraction now (1 when completed); `nil` without a Play release.
    public let from: Double?
    /// The fraction it moves to; `nil` unless advancing or completing.
    public let to: Double?
    /// What lockstep does to the phased release; `nil`: nothing.
    public let phased: PhasedMove?

    /// The decision in a few words: `advance 5% → 10%`, `complete 50% → 100%`, `hold at 5%`.
    public var sentence: String {
        let at = from.map(RolloutSchedule.percent)
        switch kind {
        case .advance, .complete: return "\(kind) \(at ?? "?") → \(to.map(RolloutSchedule.percent) ?? "?")"
        case .hold, .halt, .done: return at.map { "\(kind) at \($0)" } ?? kind.rawValue
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case decision, reasons, from, to
    }
}

extension RolloutDecision: Codable {
    /// Decodes a decision as ``encode(to:)`` writes it (a history line's `rollout`).
    ///
    /// Fractions are checked to lie in 0–1.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .decision)
        reasons = try c.decode([String].self, forKey: .reasons)
        from = try c.decodeIfPresent(Double.self, forKey: .from, within: 0...1)
        to = try c.decodeIfPresent(Double.self, forKey: .to, within: 0...1)
        phased = nil
    }

    /// Encodes the contract's `{"decision", "reasons", "from", "to"}` (`null` for an absent fraction).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .decision)
        try c.encode(reasons, forKey: .reasons)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
    }
}
