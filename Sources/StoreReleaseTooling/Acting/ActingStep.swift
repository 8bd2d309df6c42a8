import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// One write of a plan: the store, the state it moves from and to, and the exact request.
///
/// `done` and `error` say what happened when the plan was applied (`false` and `nil` before).
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
        /// The manifest file replaced whole by `manifest`.
        case writeManifest(path: String, manifest: JSONValue)
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
    public var done: Bool
    /// Why it failed, if it did.
    public var error: String?
    /// What the step does.
    public let operation: Operation

    /// Makes a step, not yet done.
    public init(store: Store, from: String, to: String, request: StoreRequest, operation: Operation) {
        self.store = store
        self.from = from
        self.to = to
        self.request = request
        self.operation = operation
        done = false
        error = nil
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
        try c.encode(error, forKey: .error)
    }
}
