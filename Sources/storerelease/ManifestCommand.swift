import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease manifest --platform appStore|googlePlay (App Store source | Play source) [ASC] [--minimum-supported V]`.
    static let manifest = Command(
        name: "manifest",
        synopsis:
            "manifest --platform appStore|googlePlay ((--lookup FILE | (--id ID | --bundle-id ID) "
            + "(--country CC | --countries CC,…|all|sold) "
            + "[--base-url URL]) [ASC] | --play-track FILE | --package PKG [--play-base-url URL] [--play-token-file FILE]) "
            + "[--track NAME] [--minimum-supported V] [--now ISO8601] [--release-delay-hours H]",
        summary: "Writes the self-hosted release manifest the apps read, from what a store serves now.",
        discussion: """
            --platform appStore: from one storefront's lookup (stored with --lookup, or now with
            --id or --bundle-id and --country), or from a sweep (--countries: a list, all, or
            sold with App Store Connect), whose latestVersion is the one every storefront serves;
            with App Store Connect's status when its flags are given. --platform googlePlay: from the track's completed release (stored with
            --play-track, or read now with --package). latestVersion is what users can download
            there, with the store's release notes (per language on Play), storeURL and
            minimumOSVersion. --minimum-supported V is written only when forcing V is safe
            (live in the storefront, completed on Play, no phased release under way, older than
            the release delay); otherwise it is left out and the reasons go to stderr (exit 0).
            The output is valid 'storerelease decide --manifest' input.
            \(AppStoreConnectOptions.help)
            \(PlayOptions.tokenHelp)
            Exit status: 0 written; 1 a store failed or serves nothing to write; 2 bad input.
            """,
        options: [
            ManifestCommand.platform, ManifestCommand.appStoreTable, ManifestCommand.playTable,
            ManifestCommand.minimumSupported, ParityCommand.now, CommonOptions.releaseDelayHours,
            AppStoreConnectOptions.table(),
        ],
        examples: [
            "storerelease manifest --platform appStore --lookup Docs/Examples/payloads/appstore-wechat-cn.json "
                + "--minimum-supported 8.0.2 --now 2021-02-05T00:00:00Z  # latestVersion, minimumSupportedVersion",
            "storerelease manifest --platform googlePlay --play-track Docs/Examples/payloads/play-production.json  # 8.0.2",
        ],
        run: { arguments throws(CLIError) in try await ManifestCommand.run(arguments) }
    )
}

enum ManifestCommand {
    static let platform = Option<ManifestPlatform>("--platform", "Which store the manifest is for.")
    static let minimumSupported = Option<Version>(
        "--minimum-supported", "V", "Require this version, if forcing it is safe now.")

    /// The App Store side: one storefront's lookup or a sweep's.
    static let appStoreTable = AppStoreOptions.table([.lookup, .id, .bundleID, .country, .countries, .client])
    /// The Play side: a stored track or the live app, `--track` last.
    static let playTable = PlayOptions.table(
        .storedOrLive,
        storedTrack: PlayOptions.storedTrackFile.help("A stored Play track (as storerelease tracks prints it)…"),
        trackLast: true)

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let minimum = try arguments.value(minimumSupported)
        let generator = ManifestGenerator(
            releaseDelayHours: try arguments.value(CommonOptions.releaseDelayHours)?.hours ?? 24,
            now: try arguments.value(ParityCommand.now) ?? Date())
        let platform = try arguments.required(platform)
        let sources = try SourceOptions(arguments)
        let make: () async throws(ReleaseSourceError) -> ManifestGenerator.Result
        var connect: AppStoreConnectSource?
        switch platform {
        case .appStore:
            try arguments.refuse(
                PlayOptions.table([.storedTrack, .package, .track]), goesWith: "\(Self.platform) googlePlay")
            connect = try sources.connect.source()
            let source = try sources.appStore.source(storefronts: sources.appStore.selection == nil ? .one : .many)
            make = { [connect] () async throws(ReleaseSourceError) in
                try await generator.appStore(from: source, appStoreConnect: connect, minimumSupported: minimum)
            }
        case .googlePlay:
            try arguments.refuse(
                AppStoreOptions.table([.lookup, .id, .bundleID, .country]), AppStoreConnectOptions.keyFile,
                AppStoreConnectOptions.tokenFile, goesWith: "\(Self.platform) appStore")
            let source = try sources.play.source(packageNamesStored: true)
            make = { () async throws(ReleaseSourceError) in
                try await generator.googlePlay(
                    from: source, packageName: sources.play.package, minimumSupported: minimum)
            }
        }
        let result: ManifestGenerator.Result
        do throws(ReleaseSourceError) {
            result = try await make()
        } catch {
            throw CLIError(error, arguments.command)
        }
        if let connect { AppStoreConnectOptions.warnIfLow(connect.client, command: arguments.command) }
        if let minimum, !result.reasons.isEmpty {
            StandardStreams.printError(
                "manifest: minimumSupportedVersion \(minimum) left out: \(result.reasons.joined(separator: "; "))\n")
        }
        try JSONOutput.print(result.manifest)
        return 0
    }
}
