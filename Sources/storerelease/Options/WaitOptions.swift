import StoreReleaseKit

/// `wait`'s flags, read once: what to wait for, until when, and the side of each store to ask;
/// the waiter they describe.
struct WaitOptions {
    static let version = Option<Version>("--version", "V", "The version to wait for; a newer one counts too.")
    static let versionCode = Option<VersionCode>(
        "--version-code", "N", "The Play versionCode to wait for (a higher one counts too).")
    static let interval = Option<Seconds>("--interval", "S", "Seconds between rounds at first (default 60).")
    static let timeout = CommonOptions.timeout.help("Seconds to wait in all (default 3600).")
    static let until = Option<ReleaseWaiter.Until>(
        "--until", "live|complete",
        "live (default): serving some users; complete: every user (Play completed, phased release complete).")

    /// `wait`'s table: the storefronts, Play's live app, what to wait for, App Store Connect.
    static let table = OptionTable([
        AppStoreOptions.table(.storefronts), PlayOptions.table(.live), version, versionCode, interval,
        timeout, until, AppStoreConnectOptions.table(.ownAndAlias),
    ])

    private let arguments: ParsedArguments
    private let sources: SourceOptions
    private let until: ReleaseWaiter.Until?
    private let version: Version?
    private let versionCode: VersionCode?
    private let interval: Duration
    private let timeout: Duration

    /// Reads the flags; nothing is opened.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a bad flag, or neither version.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        self.arguments = arguments
        until = try arguments.value(Self.until)
        version = try arguments.value(Self.version)
        versionCode = try arguments.value(Self.versionCode)
        guard version != nil || versionCode != nil else {
            throw .usage(
                "\(arguments.command): \(Self.version.usage) is required (or \(Self.versionCode.usage) for "
                    + "Play alone)")
        }
        sources = try SourceOptions(arguments, platform: .ownAndAlias)
        interval = try arguments.value(Self.interval)?.duration ?? .seconds(60)
        timeout = try arguments.value(Self.timeout)?.duration ?? .seconds(3600)
    }

    /// The waiter the flags describe, its clients built.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a flag that goes with a side not given, a missing
    ///   one, or credentials that are bad.
    func waiter() throws(CLIError) -> ReleaseWaiter {
        let command = arguments.command
        let connect = try Self.connectSource(sources, version: version, command: command)
        let appStore = try Self.appStoreSource(sources, version: version, connect: connect, command: command)
        let play = try Self.playSource(sources, arguments: arguments)
        guard appStore != nil || play != nil || connect != nil else {
            throw .usage(
                "\(command): give the App Store side (\(AppStoreOptions.id) or \(AppStoreOptions.bundleID) with "
                    + "\(AppStoreOptions.countries)), \(PlayOptions.package), or both")
        }
        if until != nil, play == nil, connect == nil {
            throw .usage(
                "\(command): \(Self.until) goes with \(PlayOptions.package) or App Store Connect credentials (a "
                    + "storefront serves a version or not)")
        }
        var waiter = ReleaseWaiter(
            sources: StoreSources(appStore: appStore, play: play, appStoreConnect: connect), version: version,
            versionCode: versionCode)
        waiter.until = until ?? .live
        waiter.interval = interval
        waiter.timeout = timeout
        return waiter
    }

    /// The storefronts to wait on; with App Store Connect and no storefronts, the app alone.
    private static func appStoreSource(
        _ sources: SourceOptions, version: Version?, connect: AppStoreConnectSource?, command: String
    ) throws(CLIError) -> AppStoreSource? {
        let options = sources.appStore
        guard options.namesApp || options.selection != nil else { return nil }
        let app = try options.app()
        guard let selection = options.selection, selection != .listed([]) else {
            guard connect != nil else { throw .usage("\(command): \(AppStoreOptions.countries) CC[,CC…] is required") }
            return .live(app, storefronts: .listed([]), client: try options.client(bustsCaches: true))
        }
        guard version != nil else {
            throw .usage(
                "\(command): the App Store side needs \(Self.version.usage) (the App Store has no versionCode)"
            )
        }
        return .live(app, storefronts: selection, client: try options.client(bustsCaches: true))
    }

    private static func connectSource(_ sources: SourceOptions, version: Version?, command: String) throws(CLIError)
        -> AppStoreConnectSource?
    {
        guard let client = try sources.connect.client() else { return nil }
        _ = try sources.appStore.app()
        guard version != nil else { throw .usage("\(command): App Store Connect needs \(Self.version.usage)") }
        return AppStoreConnectSource(client: client, platform: sources.connect.platform)
    }

    private static func playSource(_ sources: SourceOptions, arguments: ParsedArguments) throws(CLIError)
        -> PlaySource?
    {
        guard let package = sources.play.package else {
            try arguments.refuse(
                PlayOptions.table([.track, .baseURL, .token]), versionCode, goesWith: "\(PlayOptions.package)")
            return nil
        }
        return .live(packageName: package, track: sources.play.track, client: try sources.play.client())
    }
}
