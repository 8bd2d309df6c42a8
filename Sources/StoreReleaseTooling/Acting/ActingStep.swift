import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// One write of a plan: the store, the state it moves from and to, and the exact request.
///
/// `done` and `error` say what happened when the plan was applied (`false` and `nil` before).
/// Steps are made by the planner only (``ActingPlan``), from what the stores said.
public struct ActingStep: Sendable, Hashable {
    /// What the step does, with what the write needs.
    public enum Operation: Sendable, Hashable {
        /// A Play release's status changed through one edit.
        case playRelease(PlayReleaseChange)
        /// A phased release moved to a state.
        case phasedRelease(id: String, state: PhasedRelease.State)
        /// An App Recovery action created for these versionCodes (all users when `regions` is `nil`).
        case createRecovery(versionCodes: [VersionCode], regions: [String]?)
        /// An App Recovery action deployed; `nil` is the one the step before created.
        case deployRecovery(appRecoveryID: String?)
        /// The manifest file replaced whole by `manifest`, if it still holds `read`.
        ///
        /// `read` is what the plan was made from.
        case writeManifest(path: String, manifest: JSONValue, read: JSONValue)
    }

    /// Where the step writes: `googlePlay`, `appStore` or `manifest`.
    public let store: Store
    /// The state before.
    public let from: String
    /// The state after.
    public let to: String
    /// What is sent (for the manifest: `WRITE` of the file with its new content).
    public var request: StoreRequest
    /// Whether it was applied.
    public var done = false
    /// Why it failed, if it did: the store's answer (or the exchange's failure).
    public var error: String? = nil
    /// What a read of the store after the step failed showed; `nil` when it did not fail.
    public var readBack: ReadBack? = nil

    /// What the store shows after a write that failed.
    ///
    /// A write is never sent twice: a commit answered with a 500, or not answered in time, may
    /// have been applied all the same. The store is read again instead, and the step says what
    /// it shows.
    public enum ReadBack: Sendable, Hashable {
        /// The store shows the step's state: the write took (its answer was lost).
        case done
        /// The store shows the state before: the write did not take.
        case notDone
        /// The read failed, or shows neither state: whether the write took is not known.
        case unknown(String)

        /// The sentence added to the step's error.
        public var description: String {
            switch self {
            case .done: "a read afterwards shows it done"
            case .notDone: "a read afterwards shows it not done"
            case .unknown(let why): "whether it took is unknown: \(why)"
            }
        }
    }

    /// The step's failure for people: the store's error and what a read afterwards showed.
    public var failure: String? {
        guard let error else { return nil }
        return readBack.map { "\(error); \($0.description)" } ?? error
    }
    /// What the step does.
    public let operation: Operation

    /// What the step moves, for people.
    ///
    /// The Play release `81 (8.0.10)`, an App Recovery action, or `nil` when the store says it
    /// (a phased release, the manifest).
    public var subject: String? {
        switch operation {
        case .playRelease(let change): change.label
        case .deployRecovery(let id?): "App Recovery action \(id)"
        case .createRecovery, .deployRecovery(nil): "App Recovery action"
        case .phasedRelease, .writeManifest: nil
        }
    }

    /// The step's move in a few words, the one phrase every output of a step is built from.
    ///
    /// `googlePlay 81 (8.0.10) inProgress → halted`: the store by its JSON name unless `store`
    /// names it otherwise (a sentence for people: `Google Play …`), `separator` before the move
    /// (a plan's text: `googlePlay 81 (8.0.10): inProgress → halted`).
    public func move(store name: String? = nil, separator: String = " ") -> String {
        "\(name ?? store.description)\(subject.map { " " + $0 } ?? "")\(separator)\(from) → \(to)"
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case store, from, to, request, done, error
    }
}

extension ActingStep: Encodable {
    /// Encodes `{"store", "from", "to", "request", "done", "error"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(store, forKey: .store)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(request, forKey: .request)
        try c.encode(done, forKey: .done)
        try c.encode(failure, forKey: .error)
    }
}
