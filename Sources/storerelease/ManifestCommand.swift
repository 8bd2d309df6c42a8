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
            .value("--platform", "appStore|googlePlay", "Which store the manifest is for."),
            AppStoreOptions.lookup,
            AppStoreOptions.id,
            AppStoreOptions.bundleID,
            AppStoreOptions.country,
            AppStoreOptions.countries,
            AppStoreOptions.baseURL,
            AppStoreOptions.lookupsPerMinute,
            .value("--play-track", "FILE", "A stored Play track (as storerelease tracks prints it)…"),
            PlayOptions.package,
            PlayOptions.baseURL,
            PlayOptions.tokenFile,
            PlayOptions.track,
            .value("--minimum-supported", "V", "Require this version, if forcing it is safe now."),
            .value("--now", "ISO8601", "The time to judge the release delay against (default: now)."),
            .value("--release-delay-hours", "H", "How old a release must be before forcing it (default 24)."),
        ] + AppStoreConnectOptions.specs,
        examples: [
            "storerelease manifest --platform appStore --lookup Docs/Examples/payloads/appstore-wechat-cn.json "
                + "--minimum-supported 8.0.2 --now 2021-02-05T00:00:00Z  # latestVersion, minimumSupportedVersion",
            "storerelease manifest --platform googlePlay --play-track Docs/Examples/payloads/play-production.json  # 8.0.2",
        ],
        run: { arguments throws(CLIError) in try await ManifestCommand.run(arguments) }
    )
}

enum ManifestCommand {
    static let name = "manifest"

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let minimum = try arguments.version("--minimum-supported", command: name)
        let generator = ManifestGenerator(
            releaseDelayHours: try arguments.hours("--release-delay-hours", command: name, default: 24),
            now: try arguments.date("--now", command: name) ?? Date())
        let make: () async throws(ReleaseSourceError) -> ManifestGenerator.Result
        var connect: AppStoreConnectSource?
        switch arguments.value("--platform") {
        case "appStore":
            for flag in [PlayOptions.storedTrackFile.name, PlayOptions.package.name, PlayOptions.track.name]
            where arguments.value(flag) != nil {
                throw .usage("manifest: \(flag) goes with --platform googlePlay")
            }
            connect = try AppStoreConnectOptions.source(arguments, command: name, aliased: false)
            let many = arguments.value(AppStoreOptions.countries.name) != nil
            let source = try AppStoreOptions.source(arguments, command: name, storefronts: many ? .many : .one)
            make = { [connect] () async throws(ReleaseSourceError) in
                try await generator.appStore(from: source, appStoreConnect: connect, minimumSupported: minimum)
            }
        case "googlePlay":
            for flag in [
                AppStoreOptions.lookup.name, AppStoreOptions.id.name, AppStoreOptions.bundleID.name,
                AppStoreOptions.country.name, "--asc-key-file", "--asc-token-file",
            ] where arguments.value(flag) != nil {
                throw .usage("manifest: \(flag) goes with --platform appStore")
            }
            let source = try PlayOptions.source(arguments, command: name, packageNamesStored: true)
            let package = try PlayOptions.packageName(arguments, command: name)
            make = { () async throws(ReleaseSourceError) in
                try await generator.googlePlay(from: source, packageName: package, minimumSupported: minimum)
            }
        case let other?:
            throw .usage("manifest: --platform \(other.debugDescription) is not appStore or googlePlay")
        case nil:
            throw .usage("manifest: --platform appStore|googlePlay is required")
        }
        let result: ManifestGenerator.Result
        do throws(ReleaseSourceError) {
            result = try await make()
        } catch {
            throw .source(error, command: name)
        }
        if let connect { AppStoreConnectOptions.warnIfLow(connect.client, command: name) }
        if let minimum, !result.reasons.isEmpty {
            StandardStreams.printError(
                "manifest: minimumSupportedVersion \(minimum) left out: \(result.reasons.joined(separator: "; "))\n")
        }
        try JSONOutput.print(result.manifest)
        return 0
    }
}
