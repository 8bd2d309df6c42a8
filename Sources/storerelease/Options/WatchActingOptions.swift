import StoreReleaseKit

/// What `watch` does besides reporting, read once: `--halt-on` (who halts a regressed release),
/// `--rollout` with the gate's flags, and the `--confirm` both need.
struct WatchActingOptions {
    static let haltOn = Option<HaltTrigger>(
        "--halt-on", "regressed",
        "Halt the version being released on every store given when a store's health of it turns regressed "
            + "(needs --confirm and health sources).")
    static let rollout = Switch(
        "--rollout",
        "Run the version's rollout each round through the gate of 'advance' (needs --confirm and health sources; "
            + "implies --halt-on regressed).")

    /// The flags, for watch's table: `--halt-on`, `--rollout` and the gate's, `--confirm`.
    static let table = OptionTable([haltOn, rollout, RolloutOptions.table, ActingOptions.confirm])

    private let command: String
    /// The apps `--confirm` names, when the watch halts.
    private let confirmed: [String]?
    /// Whether the watch halts a regressed release (`--halt-on`, or `--rollout`).
    private let halts: Bool
    /// The rollout gate, with `--rollout`: its schedule, step hours and lockstep.
    let gate: RolloutGate?

    /// Whether `--rollout` was given, so that health is judged by the rollout's sequential rule.
    static func rollsOut(_ arguments: ParsedArguments) -> Bool { arguments.has(rollout) }

    /// Reads the flags; nothing is opened.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for `--halt-on` or `--rollout` without health sources or
    ///   without `--confirm`, `--confirm` without either, a bad schedule, and the gate's flags
    ///   without `--rollout`.
    init(_ arguments: ParsedArguments, health: HealthSourceOptions) throws(CLIError) {
        command = arguments.command
        let confirmed = try arguments.value(ActingOptions.confirm)?.names
        let rolls = Self.rollsOut(arguments)
        halts = try arguments.value(Self.haltOn) != nil || rolls
        self.confirmed = confirmed
        if !halts, confirmed != nil {
            throw .usage("\(command): \(ActingOptions.confirm.name) goes with \(Self.haltOn.name)")
        }
        if halts {
            let flag = rolls ? Self.rollout.name : Self.haltOn.name
            guard health.isGiven else {
                throw .usage(
                    "\(command): \(rolls ? flag : "\(flag) regressed") needs health sources "
                        + "(\(HealthSourceOptions.live) or \(HealthOptions.healthFile))")
            }
            guard confirmed != nil else {
                throw .usage(
                    "\(command): \(flag) writes to the stores: add \(ActingOptions.confirm.usage) naming every app "
                        + "it would \(rolls ? "act on" : "halt") (its package name, its App Store id)")
            }
        }
        guard rolls else {
            if let flag = arguments.firstGiven(RolloutOptions.table) {
                throw .usage("\(command): \(flag.name) goes with \(Self.rollout.name)")
            }
            gate = nil
            return
        }
        gate = try RolloutOptions.gate(arguments)
    }

    /// Whether the watch halts a regressed release (`--halt-on`, or `--rollout`), once the stores
    /// it would act on, those `sources` read (``ReleaseActor/init(acting:)``), are each confirmed.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for a store that cannot be acted on (a stored Play track
    ///   named by `--package`, an App Store app not named by one id or bundle id), or a
    ///   `--confirm` that does not name every store it would act on.
    func halts(on sources: StoreSources, options: SourceOptions) throws(CLIError) -> Bool {
        guard halts else { return false }
        if let package = options.play.package, case .stored? = sources.play {
            throw .usage(
                "\(command): \(gate == nil ? Self.haltOn.name : Self.rollout.name) acts on the Play track it reads, and "
                    + "\(PlayOptions.storedTrackFile) is read, never written: give \(PlayOptions.package) \(package) "
                    + "without it")
        }
        // The App Store Connect source names no app yet: the App Store's flags name it, one app.
        if sources.appStoreConnect != nil { _ = try options.appStore.app() }
        let actor = ReleaseActor(acting: sources)
        try options.requireStores(of: actor, command: command)
        if gate != nil {
            // The contract: a rollout needs health sources on every store it acts on (halting
            // included), else it would hold every round on "no health read" and never say why at start.
            let judged = sources.health?.stores ?? []
            for store in actor.stores where !judged.contains(store) {
                throw .usage(
                    "\(command): \(Self.rollout.name) acts on \(store.displayName) and needs its health: give "
                        + "\(HealthSourceOptions.live) or a \(HealthOptions.healthFile) of \(store.displayName) "
                        + "(nothing was read or written)")
            }
        }
        try ActingOptions.requireConfirmation(
            of: actor.stores, actor: actor, appID: nil, confirmed: confirmed, command: command)
        return true
    }
}
