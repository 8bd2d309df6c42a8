import Foundation
import StoreReleaseKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Command {
    /// `storerelease wait [(--id ID | --bundle-id ID) --countries CC,…] [--package PKG [--track NAME]] (--version V | --version-code N) …`.
    static let wait = Command(
        name: "wait",
        synopsis:
            "wait [(--id ID | --bundle-id ID) --countries CC[,CC…] [--base-url URL]] [--package PKG [--track NAME] "
            + "[--play-base-url URL] [--play-token-file FILE]] [(--id ID | --bundle-id ID) ASC] "
            + "(--version V | --version-code N) [--until live|complete] [--interval S] [--timeout S]",
        summary: "Waits until a version is live (or, --until complete, out to every user) in every store asked.",
        discussion: """
            For release pipelines. The App Store side (--id or --bundle-id with --countries) asks
            each storefront still missing the version, with cache-busting lookups within the
            lookup rate limit; with --bundle-id, once the app is found its id is asked too. The
            Play side (--package) reads the track's edit-free release list, and once that shows a
            release carrying the version (in its name) or the versionCode published, the track
            itself through an edit that is deleted, never committed. With App Store Connect
            credentials (and --id or --bundle-id), App Store Connect is asked too.
            --until live (the default): Play serves the release to some users (in progress to a
            fraction, or completed; halted is not live) and App Store Connect has it ready for
            distribution. --until complete: the Play release is completed (every user of the
            track) and the phased release is complete, or there is none (phased-complete, the
            old spelling, still works). Rounds start every interval, growing by half each round
            (at most 10 minutes), until all is done or the timeout passes. Progress goes to
            stderr, saying what each store shows (rolling out on Google Play (production): 20%
            in US, CA): one updating line on a terminal, plain lines otherwise. A storefront that
            does not have the app yet counts as missing.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 done everywhere; 1 timed out (what is still missing is named), or
            stopped early on what waiting cannot fix (a refused token, no permission, an unknown
            package, an app no storefront has three rounds running); 2 bad input.
            """,
        options: [
            AppStoreOptions.id,
            AppStoreOptions.bundleID,
            AppStoreOptions.countries,
            AppStoreOptions.baseURL,
            AppStoreOptions.lookupsPerMinute,
            PlayOptions.package,
            PlayOptions.track,
            PlayOptions.baseURL,
            PlayOptions.tokenFile,
            .value("--version", "V", "The version to wait for; a newer one counts too."),
            .value("--version-code", "N", "The Play versionCode to wait for (a higher one counts too)."),
            .value("--interval", "S", "Seconds between rounds at first (default 60)."),
            .value("--timeout", "S", "Seconds to wait in all (default 3600)."),
            .value(
                "--until", "live|complete",
                "live (default): serving some users; complete: every user (Play completed, phased release complete)."),
        ] + AppStoreConnectOptions.specs + [AppStoreConnectOptions.platformAlias],
        examples: [
            "storerelease wait --id 414478124 --version 8.0.10 --countries us,cn,jp --timeout 7200",
            "storerelease wait --id 414478124 --countries us,cn --package com.example.rollout --version 8.0.10",
            "storerelease wait --package com.example.rollout --version 8.0.10 --until complete --timeout 86400",
        ],
        run: { arguments throws(CLIError) in try await WaitCommand.run(arguments) }
    )
}

enum WaitCommand {
    static let name = "wait"

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let until = try until(arguments)
        let version = try arguments.version("--version", command: name)
        let versionCode = try versionCode(arguments)
        guard version != nil || versionCode != nil else {
            throw .usage("wait: --version V is required (or --version-code N for Play alone)")
        }
        let appStore = try appStoreSide(arguments, version: version)
        let play = try playSide(arguments)
        let connect = try connectSide(arguments, version: version)
        guard appStore != nil || play != nil || connect != nil else {
            throw .usage("wait: give the App Store side (--id or --bundle-id with --countries), --package, or both")
        }
        if until != nil, play == nil, connect == nil {
            throw .usage(
                "wait: --until goes with --package or App Store Connect credentials (a storefront serves a version or not)"
            )
        }
        var waiter = ReleaseWaiter(
            appStore: appStore, play: play, appStoreConnect: connect, version: version, versionCode: versionCode)
        waiter.until = until ?? .live
        waiter.interval = try arguments.seconds("--interval", command: name, default: .seconds(60))
        waiter.timeout = try arguments.seconds("--timeout", command: name, default: .seconds(3600))
        let terminal = isatty(2) == 1
        let last: ReleaseWaiter.Round
        do throws(ReleaseWaiter.Failure) {
            last = try await waiter.run { round in
                StandardStreams.printError(terminal ? "\r\u{1B}[K\(round)" : "\(round)\n")
            }
        } catch {
            if terminal { StandardStreams.printError("\n") }
            if case .appStore(.invalidRequest(let message)) = error { throw .usage("wait: \(message)") }
            if case .play(.invalidRequest(let message)) = error { throw .usage("wait: \(message)") }
            throw .failure("wait: \(error)")
        }
        if terminal { StandardStreams.printError("\n") }
        StandardStreams.print(last.summary + "\n")
        return 0
    }

    /// `--until live|complete` (or `phased-complete`, the old spelling of `complete`), if given.
    static func until(_ arguments: ParsedArguments) throws(CLIError) -> ReleaseWaiter.Until? {
        guard let text = arguments.value("--until") else { return nil }
        guard let until = ReleaseWaiter.Until(argument: text) else {
            throw .usage("wait: --until \(text.debugDescription) is not live or complete")
        }
        return until
    }

    static func versionCode(_ arguments: ParsedArguments) throws(CLIError) -> VersionCode? {
        guard let text = arguments.value("--version-code") else { return nil }
        do throws(VersionError) {
            return try VersionCode(parsing: text)
        } catch {
            throw .badInput("wait: --version-code \(error)")
        }
    }

    static func appStoreSide(_ arguments: ParsedArguments, version: Version?) throws(CLIError)
        -> ReleaseWaiter.AppStoreSide?
    {
        let named = arguments.value("--id") != nil || arguments.value("--bundle-id") != nil
        let selection = try AppStoreOptions.selection(arguments, command: name)
        guard named || selection != nil else { return nil }
        let app = try AppStoreOptions.app(arguments, command: name)
        guard let selection, selection != .listed([]) else {
            if AppStoreConnectOptions.isRequested(arguments) { return nil }
            throw .usage("wait: --countries CC[,CC…] is required")
        }
        guard version != nil else {
            throw .usage("wait: the App Store side needs --version V (the App Store has no versionCode)")
        }
        let client = try AppStoreOptions.client(arguments, command: name, bustsCaches: true)
        switch selection {
        case .listed(let countries):
            return ReleaseWaiter.AppStoreSide(app: app, countries: countries, client: client)
        case .all:
            return ReleaseWaiter.AppStoreSide(
                app: app, countries: AppStoreStorefront.all.map(\.country), client: client)
        case .sold:
            return ReleaseWaiter.AppStoreSide(
                app: app, countries: [], client: client,
                soldIn: try AppStoreConnectOptions.source(arguments, command: name))
        }
    }

    static func connectSide(_ arguments: ParsedArguments, version: Version?) throws(CLIError)
        -> ReleaseWaiter.ConnectSide?
    {
        guard let client = try AppStoreConnectOptions.client(arguments, command: name) else { return nil }
        let app = try AppStoreOptions.app(arguments, command: name)
        guard version != nil else { throw .usage("wait: App Store Connect needs --version V") }
        let platform = try AppStoreConnectOptions.platform(arguments, command: name)
        return ReleaseWaiter.ConnectSide(app: app, platform: platform, client: client)
    }

    static func playSide(_ arguments: ParsedArguments) throws(CLIError) -> ReleaseWaiter.PlaySide? {
        guard let package = try PlayOptions.packageName(arguments, command: name) else {
            for flag in ["--track", PlayOptions.baseURL.name, PlayOptions.tokenFile.name, "--version-code"]
            where arguments.value(flag) != nil {
                throw .usage("wait: \(flag) goes with --package")
            }
            return nil
        }
        let client = try PlayOptions.client(arguments, command: name)
        return ReleaseWaiter.PlaySide(
            packageName: package, track: try PlayOptions.trackName(arguments, command: name) ?? "production",
            client: client)
    }
}
