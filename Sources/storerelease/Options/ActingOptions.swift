import StoreReleaseKit

/// The flags of `halt`, `resume`, `complete` and `recall`, read once: the version, whether to
/// apply and who confirms it, recall's manifest and regions, the format.
struct ActingOptions {
    static let apply = Switch(
        "--apply", "Write the plan to the stores (needs --confirm); without it nothing is written.")
    static let confirm = Option<ConfirmedApps>(
        "--confirm", "APP[,APP]",
        "The package name and the App Store id of every store acted on, in any order (com.example.app,414478124).")
    static let manifest = Option<String>(
        "--manifest", "FILE",
        "recall: the v2 manifest whose blockedVersions gains VERSION (written atomically, through a link).")
    static let regions = Option<RegionCodes>(
        "--regions", "CC,…", "recall: the regions Play's App Recovery prompts (ISO 3166: US,DE); default all users.")
    static let format: Option<ReportFormat> = CommonOptions.format(
        "json (default): the plan; text: a line a step; markdown: a table.")
    static let timeout = CommonOptions.timeout.help(
        "Seconds each Google Play request may take (default 30); a write not answered in time is never sent "
            + "again: the store is read back.")

    /// What is applied and how: `--apply`, `--confirm`, `--format`, `--timeout`.
    static let table = OptionTable([apply, confirm, format, timeout])

    /// recall's own flags: the manifest, the regions.
    static let recallTable = OptionTable([manifest, regions])

    /// The stores acted on: Play's live app, the App Store app (App Store Connect's credentials follow in
    /// each command's table).
    static let storesTable = OptionTable([PlayOptions.table(.live), AppStoreOptions.table(.app)])

    let version: Version
    let apply: Bool
    let confirmed: [String]?
    let manifestPath: String?
    let regions: [String]?
    let format: ReportFormat
    let timeout: Duration

    /// Reads the flags and the one argument, VERSION.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for a missing or bad VERSION, `--apply` without
    ///   `--confirm` (or `--confirm` without `--apply`), and recall's flags on another command.
    init(_ arguments: ParsedArguments, action: ReleaseAction) throws(CLIError) {
        let command = arguments.command
        guard arguments.positionals.count == 1, let text = arguments.positionals.first else {
            throw .usage("\(command): give one VERSION (such as 8.0.10), then the store flags")
        }
        do throws(VersionError) {
            version = try Version(parsing: text)
        } catch {
            throw .usage("\(command): VERSION: \(error)")
        }
        apply = arguments.has(Self.apply)
        confirmed = try arguments.value(Self.confirm)?.names
        manifestPath = try arguments.value(Self.manifest)
        regions = try arguments.value(Self.regions)?.codes
        format = try arguments.value(Self.format) ?? .json
        timeout = try arguments.value(Self.timeout)?.duration ?? .seconds(30)
        if apply, confirmed == nil {
            throw .usage(
                "\(command): \(Self.apply) writes to the stores: add \(Self.confirm.usage) naming every app acted "
                    + "on (its package name, its App Store id); nothing was written")
        }
        if !apply, confirmed != nil { throw .usage("\(command): \(Self.confirm.name) goes with \(Self.apply)") }
        if action != .recall {
            try arguments.refuse(Self.recallTable, goesWith: "recall")
        }
    }
}

extension ActingOptions {
    /// Refuses a `--confirm` that does not name every store acted on (exit 2, nothing written).
    ///
    /// Google Play is confirmed by its package name; the App Store by its id (`appID`, or the
    /// `--id` given) or the bundle id given.
    static func requireConfirmation(
        of stores: [Store], actor: ReleaseActor, appID: String?, confirmed: [String]?, command: String
    ) throws(CLIError) {
        let named = Set(confirmed ?? [])
        for store in stores {
            var names: [String] = []
            if store == .googlePlay {
                names = [actor.play?.packageName].compactMap { $0 }
            } else {
                switch actor.appStoreConnect?.app {
                case .id(let id)?: names = [String(id)]
                case .bundleID(let bundleID)?: names = [appID, bundleID].compactMap { $0 }
                case nil: break
                }
                if let appID, !names.contains(appID) { names.insert(appID, at: 0) }
            }
            guard let first = names.first, named.isDisjoint(with: names) else { continue }
            throw .usage(
                "\(command): \(confirm.name) must name every app acted on: \(first) is not named "
                    + "(got \(confirmed?.joined(separator: ",") ?? "none")); nothing was written")
        }
    }
}

extension ActingPlan {
    /// The stderr line of a plan applied but not verified: the steps done and not done, nothing in
    /// it acting on the terminal.
    func account(command: String) -> String {
        let done = steps.filter(\.done).map(\.account)
        let notDone = steps.filter { !$0.done }.map(\.account)
        return OutsideText.terminal(
            "\(command): done: \(done.isEmpty ? "none" : done.joined(separator: "; ")); not done: "
                + (notDone.isEmpty ? "none (but a new read does not show it yet)" : notDone.joined(separator: "; ")))
            + "\n"
    }
}

extension ActingStep {
    /// The step for people: `googlePlay 81 (8.0.10) inProgress → halted`, and the store's error
    /// when it failed.
    var account: String {
        move() + (failure.map { " (\($0))" } ?? "")
    }
}

extension SourceOptions {
    /// The stores the flags name to act on: Google Play for `--package`, App Store Connect for
    /// `--id` or `--bundle-id` with its credentials.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an App Store id without credentials, or neither store.
    func releaseActor(manifestPath: String? = nil, timeout: Duration = .seconds(30), command: String) throws(CLIError)
        -> ReleaseActor
    {
        var actor = ReleaseActor(manifestPath: manifestPath)
        if let package = play.package {
            actor.play = .live(packageName: package, track: play.track, client: try play.client(timeout: timeout))
        }
        if var connect = try connect.source() {
            connect.app = try appStore.app()
            actor.appStoreConnect = connect
        }
        try requireStores(of: actor, command: command)
        return actor
    }

    /// Refuses an actor with no store, or an App Store id given without App Store Connect's
    /// credentials to act on it.
    func requireStores(of actor: ReleaseActor, command: String) throws(CLIError) {
        if actor.appStoreConnect == nil, appStore.ids != nil || appStore.bundleID != nil {
            throw .usage(
                "\(command): \(AppStoreOptions.id) needs App Store Connect credentials to act on the App Store")
        }
        guard !actor.stores.isEmpty else {
            throw .usage(
                "\(command): give Google Play (\(PlayOptions.package.usage)), App Store Connect (\(AppStoreOptions.id.usage) "
                    + "with its credentials), or both")
        }
    }
}

/// `--confirm com.example.app,414478124`: the apps a person confirms, in any order.
struct ConfirmedApps: ArgumentValue {
    let names: [String]

    init(argument: String) throws(ArgumentProblem) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 4, parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 255 }) else {
            throw .detail("give the package name and/or App Store id, comma-separated (com.example.app,414478124)")
        }
        names = parts
    }
}

/// `--regions US,DE`: ISO 3166 alpha-2 codes.
struct RegionCodes: ArgumentValue {
    let codes: [String]

    init(argument: String) throws(ArgumentProblem) {
        var codes: [String] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard part.utf8.count == 2, part.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .detail("\(String(part).debugDescription) is not a region code (two letters: US, DE)")
            }
            codes.append(part.uppercased())
        }
        guard codes.count <= 250 else { throw .detail("more than 250 regions") }
        codes = codes.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        self.codes = codes
    }
}
