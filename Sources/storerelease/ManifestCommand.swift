import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease manifest --platform appStore|googlePlay (App Store source | Play source) [ASC] [--minimum-supported V]`.
    static let manifest = Command(
        name: "manifest",
        synopsis:
            "manifest --platform appStore|googlePlay ((--lookup FILE | (--id ID | --bundle-id ID) --country CC "
            + "[--base-url URL]) [ASC] | --play-track FILE | --package PKG [--play-base-url URL] [--play-token-file FILE]) "
            + "[--track NAME] [--minimum-supported V] [--now ISO8601] [--release-delay-hours H]",
        summary: "Writes the self-hosted release manifest the apps read, from what a store serves now.",
        discussion: """
            --platform appStore: from one storefront's lookup (stored with --lookup, or now with
            --id or --bundle-id and --country), with App Store Connect's status when its flags
            are given. --platform googlePlay: from the track's completed release (stored with
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
            .value("--lookup", "FILE", "A stored lookup of one storefront…"),
            .value("--id", "ID", "…or look this App Store id up now…"),
            .value("--bundle-id", "ID", "…or this bundle id…"),
            .value("--country", "CC", "…in this storefront (default us)."),
            .value("--base-url", "URL", "The lookup API's base URL (http only on loopback)."),
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
        try arguments.requireOnlyFlags(name)
        let minimum = try arguments.version("--minimum-supported", command: name)
        let generator = ManifestGenerator(
            releaseDelayHours: try arguments.hours("--release-delay-hours", command: name, default: 24),
            now: try arguments.date("--now", command: name) ?? Date())
        let result: ManifestGenerator.Result
        switch arguments.value("--platform") {
        case "appStore":
            let (release, status) = try await appStoreState(arguments)
            result = try generated { () throws(ManifestGenerator.Problem) in
                try generator.appStore(release, appStoreConnect: status, minimumSupported: minimum)
            }
        case "googlePlay":
            let (track, package) = try await playState(arguments)
            result = try generated { () throws(ManifestGenerator.Problem) in
                try generator.googlePlay(track, packageName: package, minimumSupported: minimum)
            }
        case let other?:
            throw .usage("manifest: --platform \(other.debugDescription) is not appStore or googlePlay")
        case nil:
            throw .usage("manifest: --platform appStore|googlePlay is required")
        }
        if let minimum, !result.reasons.isEmpty {
            StandardStreams.printError(
                "manifest: minimumSupportedVersion \(minimum) left out: \(result.reasons.joined(separator: "; "))\n")
        }
        try JSONOutput.print(result.manifest)
        return 0
    }

    /// The generator's result; a store state that makes no manifest exits 1.
    static func generated(_ make: () throws(ManifestGenerator.Problem) -> ManifestGenerator.Result) throws(CLIError)
        -> ManifestGenerator.Result
    {
        do throws(ManifestGenerator.Problem) {
            return try make()
        } catch {
            throw .failure("manifest: \(error)")
        }
    }

    /// One storefront's release, and App Store Connect's status when its flags are given.
    static func appStoreState(_ arguments: ParsedArguments) async throws(CLIError)
        -> (StoreRelease, AppStoreConnectStatus?)
    {
        for flag in ["--play-track", "--package", "--track"] where arguments.value(flag) != nil {
            throw .usage("manifest: \(flag) goes with --platform googlePlay")
        }
        let release: StoreRelease
        if let path = arguments.value("--lookup") {
            guard arguments.value("--id") == nil, arguments.value("--bundle-id") == nil else {
                throw .usage("manifest: give --lookup, or --id/--bundle-id with --country, not both")
            }
            let releases = try StoredLookupFile.releases(path, flag: "--lookup", command: name)
            guard releases.count == 1 else {
                throw .badInput("manifest: --lookup \(path): \(releases.count) releases; give one storefront's lookup")
            }
            release = releases[0]
        } else {
            let app = try AppStoreOptions.app(arguments, command: name)
            let client = try AppStoreOptions.client(arguments, command: name)
            let country = try arguments.country(command: name)
            do throws(AppStoreLookupError) {
                release = try await client.lookup(app, country: country)
            } catch {
                throw AppStoreOptions.failure(error, command: name)
            }
        }
        let platform = try AppStoreConnectOptions.platform(arguments, command: name, aliased: false)
        guard let connect = try AppStoreConnectOptions.client(arguments, command: name) else { return (release, nil) }
        guard let id = release.appID.flatMap(Int.init) else {
            throw .badInput("manifest: the lookup has no App Store id to ask App Store Connect about")
        }
        do throws(AppStoreConnectError) {
            let status = try await connect.status(of: .id(id), platform: platform)
            AppStoreConnectOptions.warnIfLow(connect, command: name)
            return (release, status)
        } catch {
            throw AppStoreConnectOptions.failure(error, command: name)
        }
    }

    /// The Play track, stored or read now, and the package it is of.
    static func playState(_ arguments: ParsedArguments) async throws(CLIError) -> (PlayTrack, String?) {
        for flag in ["--lookup", "--id", "--bundle-id", "--country", "--asc-key-file", "--asc-token-file"]
        where arguments.value(flag) != nil {
            throw .usage("manifest: \(flag) goes with --platform appStore")
        }
        let trackName = try PlayOptions.trackName(arguments, command: name) ?? "production"
        let package = try PlayOptions.packageName(arguments, command: name)
        if let path = arguments.value("--play-track") {
            return (try PlayOptions.storedTrack(path, name: trackName, command: name), package)
        }
        guard let package else {
            throw .usage("manifest: --platform googlePlay needs --play-track FILE or --package PKG")
        }
        let client = try PlayOptions.client(arguments, command: name)
        return (try await PlayOptions.liveTrack(client, trackName, package: package, command: name), package)
    }
}
