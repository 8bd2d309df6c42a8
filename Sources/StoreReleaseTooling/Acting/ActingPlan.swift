import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// What `halt`, `resume`, `complete` or `recall` will do (or did) to a version.
///
/// Its steps are computed from a fresh read of the stores, with what stops it.
/// `refusals` are the reasons nothing may be written (a refusal on one store writes nothing on
/// either); `notes` say why a store given has no step (already there, nothing to act on).
public struct ActingPlan: Sendable, Hashable {
    /// The action.
    public let action: ReleaseAction
    /// The version acted on.
    public let version: Version
    /// Whether the plan was applied (else nothing was written).
    public var apply = false
    /// The writes, in the order they are sent.
    public var steps: [ActingStep]
    /// Whether a read after applying shows every store as asked; `nil` before.
    public var verified: Bool? = nil
    /// Why the plan may not be applied; empty when it may.
    public let refusals: [String]
    /// Why a store has no step.
    public let notes: [String]
    /// The rollout gate's decision the plan carries out (advance); `nil` for the other actions.
    public var gate: RolloutDecision? = nil

    /// Makes a plan of given steps: the planner's (``init(_:version:reading:regions:)``), so a plan
    /// a store is written by was computed from what the stores said.
    init(
        action: ReleaseAction, version: Version, steps: [ActingStep], refusals: [String] = [], notes: [String] = []
    ) {
        self.action = action
        self.version = version
        self.steps = steps
        self.refusals = refusals
        self.notes = notes
    }

    /// The stores the plan writes to (the manifest, a local file, is not one).
    public var storesActedOn: [Store] {
        [Store.googlePlay, .appStore].filter { store in steps.contains { $0.store == store } }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action, version, apply, steps, verified
    }
}

extension ActingPlan: Encodable {
    /// Encodes the contract's `{"action", "version", "apply", "steps", "verified"}` (and `"gate"`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(action, forKey: .action)
        try c.encode(version.description, forKey: .version)
        try c.encode(apply, forKey: .apply)
        try c.encode(steps, forKey: .steps)
        try c.encode(verified, forKey: .verified)
        if let gate {
            var extra = encoder.container(keyedBy: GateKey.self)
            try extra.encode(gate, forKey: .gate)
        }
    }

    private enum GateKey: String, CodingKey {
        case gate
    }
}
