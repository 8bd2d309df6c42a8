/// What `halt`, `resume`, `complete` and `recall` do to a version on both stores.
///
/// halt: Play `inProgress` → `halted`, the phased release `ACTIVE` → `PAUSED`; resume: the
/// reverse, with the same `userFraction`; complete: Play → `completed`, the phased release →
/// `COMPLETE`; recall: the manifest blocks the version and Play prompts its users to update;
/// advance: Play's `userFraction` to the rollout gate's next step (``ActingPlan/advance(_:reading:decision:)``).
public enum ReleaseAction: String, Sendable, Hashable, CaseIterable, Codable {
    /// Stop the rollout where it is.
    case halt
    /// Go on rolling out from where it stopped.
    case resume
    /// Give it to every user now.
    case complete
    /// Make users on it update.
    case recall
    /// Raise its Play rollout to the rollout gate's next step (``RolloutGate``).
    case advance
}
