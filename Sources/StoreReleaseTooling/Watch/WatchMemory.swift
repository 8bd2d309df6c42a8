import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// What `watch --halt-on` remembers between rounds and runs: halts owed, verdicts judged.
///
/// It is kept in the state file beside the snapshot (its `watch` key).
///
/// - The halts it owes: a halt tried and not verified (a store refused a step, or could not be
///   read) is tried again each round, and by the next watch of the file, while the version stays
///   `regressed`; the watch exits 1 while one is owed.
/// - Each store's last *judged* verdict (any but `unknown`, which is not a judgement) and the
///   version it is of. A halt is due the round a store's verdict of a version turns `regressed`
///   from a judged verdict that was not, so a version the watch halted and a person resumed is
///   not halted again while its verdict stays `regressed`, through any number of `unknown`
///   rounds: only a judged verdict other than `regressed` ends the person's say.
///
/// Written only when there is something to remember, so a watch without `--halt-on` writes the
/// state file as before; a file written before this key existed reads as nothing owed, with each
/// store's judged verdict taken from the snapshot's health.
public struct WatchMemory: Sendable, Hashable, Codable {
    /// One store's judged verdict of one version.
    public struct Judgement: Sendable, Hashable, Codable {
        /// The version judged.
        public var version: Version
        /// The verdict: `healthy`, `regressed` or `insufficientData`, never `unknown`.
        public var verdict: HealthVerdict.Kind

        /// A verdict of a version.
        public init(version: Version, verdict: HealthVerdict.Kind) {
            self.version = version
            self.verdict = verdict
        }
    }

    /// The versions whose halt is owed: tried and not verified.
    public var haltsOwed: Set<Version>
    /// The App Store's last judged verdict, if any.
    public var appStore: Judgement?
    /// Google Play's last judged verdict, if any.
    public var googlePlay: Judgement?
    /// The rollout's state (`watch --rollout`): Play's step, when it began, the gate's pause.
    ///
    /// Kept as the state file's `rollout` key, the one `advance --state` reads and writes, so a
    /// person may run `advance` against the same file while no watch holds it.
    public var rollout: RolloutState?
    /// The last hold the rollout told: its reasons, numbers left out.
    ///
    /// A hold is told once, until its reasons change.
    public var rolloutHeld: String?
    /// The acts a run could not deliver, which the next run delivers first (``ReleaseEvent/Owed``).
    ///
    /// Written `owedEvents` only when there is one.
    public var owedEvents: [ReleaseEvent.Owed] = []

    /// A memory of these halts owed and judged verdicts (nothing, by default).
    public init(
        haltsOwed: Set<Version> = [], appStore: Judgement? = nil, googlePlay: Judgement? = nil,
        rollout: RolloutState? = nil
    ) {
        self.haltsOwed = haltsOwed
        self.appStore = appStore
        self.googlePlay = googlePlay
        self.rollout = rollout
    }

    /// What a state file written without this key says: the snapshot's judged verdicts.
    ///
    /// Each store's verdict recorded in `snapshot`, when it was a judgement; nothing owed.
    public init(recordedIn snapshot: ReleaseSnapshot?) {
        self.init()
        remember(snapshot?.health)
    }

    /// Whether there is nothing to remember (nothing is written then).
    public var isEmpty: Bool {
        haltsOwed.isEmpty && appStore == nil && googlePlay == nil && rolloutHeld == nil && owedEvents.isEmpty
    }

    /// `store`'s last judged verdict.
    public func judgement(of store: Store) -> Judgement? {
        store == .appStore ? appStore : googlePlay
    }

    /// Keeps each store's verdict in `health` that is a judgement of a version.
    ///
    /// An `unknown` verdict, or a store not judged, leaves what was remembered; a halt owed of
    /// a version now judged other than `regressed` is no longer owed.
    public mutating func remember(_ health: ReleaseSnapshot.Health?) {
        for (store, record) in health?.stores ?? [] where record.verdict != .unknown {
            guard let version = record.version else { continue }
            let judgement = Judgement(version: version, verdict: record.verdict)
            if store == .appStore { appStore = judgement } else { googlePlay = judgement }
        }
        // A halt is owed only while its version is judged regressed somewhere (or not judged).
        haltsOwed = haltsOwed.filter { version in
            ![appStore, googlePlay].contains { $0?.version == version && $0?.verdict != .regressed }
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case haltsOwed, appStore, googlePlay, rolloutHeld, owedEvents
    }

    /// Encodes the halts owed (versions, lowest first), both stores' judgements and the last hold told.
    ///
    /// `null` for a store not judged; the hold and the acts owed only when there are some
    /// (``rollout`` is the file's own key).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(haltsOwed.sorted(), forKey: .haltsOwed)
        try c.encode(appStore, forKey: .appStore)
        try c.encode(googlePlay, forKey: .googlePlay)
        try c.encodeIfPresent(rolloutHeld, forKey: .rolloutHeld)
        if !owedEvents.isEmpty { try c.encode(owedEvents, forKey: .owedEvents) }
    }

    /// Decodes what ``encode(to:)`` writes; a missing key is nothing remembered.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        haltsOwed = Set(try c.decodeIfPresent([Version].self, forKey: .haltsOwed) ?? [])
        appStore = try c.decodeIfPresent(Judgement.self, forKey: .appStore)
        googlePlay = try c.decodeIfPresent(Judgement.self, forKey: .googlePlay)
        rolloutHeld = try c.decodeIfPresent(String.self, forKey: .rolloutHeld)
        owedEvents = try c.decodeIfPresent([ReleaseEvent.Owed].self, forKey: .owedEvents) ?? []
        rollout = nil
        for (key, judgement) in [(CodingKeys.appStore, appStore), (.googlePlay, googlePlay)]
        where judgement?.verdict == .unknown {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "unknown is not a judgement: a verdict is kept only when judged")
        }
    }
}
