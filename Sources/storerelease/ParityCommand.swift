import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease parity (--lookup FILE[,FILE…] | (--id ID | --bundle-id ID) --countries CC[,CC…]) (--play-track FILE | --package PKG)`.
    static let parity = Command(
        name: "parity",
        synopsis:
            "parity (--lookup FILE[,FILE…] | (--id ID | --apple-id ID | --bundle-id ID) --countries CC[,CC…] "
            + "[--base-url URL]) (--play-track FILE | --package PKG [--play-base-url URL] [--play-token-file FILE]) "
            + "[--track NAME] [ASC] [--format json|text|markdown] [--now ISO8601] [--release-delay-hours H]",
        summary: "Reports whether the App Store storefronts and Google Play are on the same version.",
        discussion: """
            The App Store side comes from stored lookups (--lookup: API responses, or the output of
            'storerelease lookup') or from looking the app up now in each storefront (--id or
            --bundle-id with --countries, batched and rate-limited). The Play side is a track of
            the Play Developer API: stored (--play-track: one track or the list, as 'storerelease
            tracks' prints them) or read now (--package, through an edit that is always deleted).
            Play's versions come from its release names as Play Console writes them (8.0.2,
            80 (8.0.2), 8.0.2 (80)); a name with no version in it is reported, never guessed.
            Its fully rolled-out (completed) release is compared; its inProgress release is the
            rollout (with the countries it is limited to); halted releases are never live.
            JSON (default) has: agree, laggingStorefronts, storefronts, appStoreVersion, playTrack,
            playVersion, playReleaseName, playVersionCode, playRollout (version, name,
            versionCode, userFraction, inAppUpdatePriority, countries, includeRestOfWorld),
            playHalted, playReleaseNameWithoutVersion, ahead, aheadBy, forceUpdate (version, safe,
            reasons: live everywhere asked, completed on Play, older than the release delay, 24
            hours by default). With App Store Connect credentials the JSON adds appStoreConnect
            (as 'storerelease status' prints it), and forcing also waits for a phased release
            under way and for the lookup to show the version App Store Connect calls live.
            --format markdown writes a summary for a CI job.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 the stores agree; 1 they do not (or a lookup failed); 2 bad input.
            """,
        options: [
            .value("--lookup", "FILE[,FILE…]", "Stored lookups, one per storefront."),
            .value("--id", "ID", "Look this App Store id up now…"),
            .value("--apple-id", "ID", "The same as --id."),
            .value("--bundle-id", "ID", "…or this bundle id…"),
            .value("--countries", "CC[,CC…]", "…in these storefronts."),
            .value("--base-url", "URL", "The lookup API's base URL (http only on loopback)."),
            .value("--play-track", "FILE", "A Play Developer API track (edits.tracks) as JSON…"),
            PlayOptions.package,
            PlayOptions.baseURL,
            PlayOptions.tokenFile,
            PlayOptions.track,
            .value(
                "--format", "json|text|markdown", "JSON for machines (default), a table for people, Markdown for CI."),
            .value("--now", "ISO8601", "The time to judge the release delay against (default: now)."),
            .value(
                "--release-delay-hours", "H", "How old a release must be before a forced update is safe (default 24)."),
        ] + AppStoreConnectOptions.specs + [AppStoreConnectOptions.platformAlias],
        examples: [
            "storerelease parity --lookup Docs/Examples/payloads/appstore-wechat-us.json,"
                + "Docs/Examples/payloads/appstore-wechat-cn.json --play-track Docs/Examples/payloads/play-production.json "
                + "--format text  # exit 1, The stores do not agree.",
            "storerelease parity --bundle-id com.tencent.xin --countries cn --play-track Docs/Examples/payloads/play-production.json"
                + "  # \"agree\" : true",
            "storerelease parity --id 414478124 --countries cn --package com.example.rollout --format markdown  "
                + "# The stores agree, in US, CA only",
        ],
        run: { arguments throws(CLIError) in try await ParityCommand.run(arguments) }
    )
}

enum ParityCommand {
    static let name = "parity"

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags("parity")
        let format = arguments.value("--format") ?? "json"
        guard ["json", "text", "markdown"].contains(format) else {
            throw .usage("parity: --format \(format.debugDescription) is not json, text or markdown")
        }
        let now = try arguments.date("--now", command: name) ?? Date()
        let delay = try arguments.hours("--release-delay-hours", command: name, default: 24)
        let source = try playSource(arguments)
        let connect = try AppStoreConnectOptions.client(arguments, command: name)
        let releases = try await appStoreReleases(arguments)
        let track = try await source()
        let status = try await connectStatus(connect, arguments: arguments, releases: releases)
        let report = CrossStoreReport(
            appStore: releases, play: track, appStoreConnect: status, releaseDelayHours: delay, now: now)
        switch format {
        case "text": StandardStreams.print(report.text)
        case "markdown": StandardStreams.print(report.markdown)
        default: try JSONOutput.print(report)
        }
        return report.agree ? 0 : 1
    }

    /// App Store Connect's status of the app the lookups are of, when its flags are given.
    static func connectStatus(_ client: AppStoreConnectClient?, arguments: ParsedArguments, releases: [StoreRelease])
        async throws(CLIError) -> AppStoreConnectStatus?
    {
        guard let client else { return nil }
        let app: AppStoreApp
        if arguments.value("--lookup") == nil {
            let appleIDs = try arguments.appStoreIDs("--apple-id", command: name)
            let ids = try arguments.appStoreIDs(command: name) ?? appleIDs
            app = if let id = ids?.first { .id(id) } else { .bundleID(arguments.value("--bundle-id") ?? "") }
        } else if let id = releases.lazy.compactMap({ $0.appID.flatMap(Int.init) }).first {
            app = .id(id)
        } else {
            throw .badInput("parity: the stored lookups have no App Store id to ask App Store Connect about")
        }
        let platform = try AppStoreConnectOptions.platform(arguments, command: name)
        do throws(AppStoreConnectError) {
            let status = try await client.status(of: app, platform: platform)
            AppStoreConnectOptions.warnIfLow(client, command: name)
            return status
        } catch {
            throw AppStoreConnectOptions.failure(error, command: name)
        }
    }

    /// Where the Play track comes from, checked before any request is sent.
    static func playSource(_ arguments: ParsedArguments) throws(CLIError) -> () async throws(CLIError) -> PlayTrack {
        let trackName = try PlayOptions.trackName(arguments, command: name) ?? "production"
        let path = arguments.value("--play-track")
        let package = try PlayOptions.packageName(arguments, command: name)
        switch (path, package) {
        case (let path?, nil):
            for flag in [PlayOptions.baseURL.name, PlayOptions.tokenFile.name] where arguments.value(flag) != nil {
                throw .usage("parity: \(flag) goes with --package, not --play-track")
            }
            let track = try PlayOptions.storedTrack(path, name: trackName, command: name)
            return { () throws(CLIError) in track }
        case (nil, let package?):
            let client = try PlayOptions.client(arguments, command: name)
            return { () throws(CLIError) in
                try await PlayOptions.liveTrack(client, trackName, package: package, command: name)
            }
        case (.some, .some):
            throw .usage("parity: give --play-track FILE or --package PKG, not both")
        case (nil, nil):
            throw .usage("parity: give --play-track FILE or --package PKG (the Play side)")
        }
    }

    static func appStoreReleases(_ arguments: ParsedArguments) async throws(CLIError) -> [StoreRelease] {
        guard arguments.value("--id") == nil || arguments.value("--apple-id") == nil else {
            throw .usage("parity: give --id or --apple-id, not both")
        }
        let appleIDs = try arguments.appStoreIDs("--apple-id", command: name)
        let ids = try arguments.appStoreIDs(command: name) ?? appleIDs
        let bundleID = arguments.value("--bundle-id")
        if let files = arguments.value("--lookup") {
            guard ids == nil, bundleID == nil, arguments.value("--countries") == nil else {
                throw .usage("parity: give --lookup, or --id/--bundle-id with --countries, not both")
            }
            var releases: [StoreRelease] = []
            for path in files.split(separator: ",").map(String.init) {
                releases += try storedReleases(path)
            }
            return releases
        }
        guard (ids == nil) != (bundleID == nil), let countries = try arguments.countries(command: name) else {
            throw .usage("parity: give --lookup FILE[,FILE…], or one of --id or --bundle-id with --countries")
        }
        guard ids?.count ?? 1 == 1 else { throw .usage("parity: --id takes one App Store id") }
        let app: AppStoreApp = if let id = ids?.first { .id(id) } else { .bundleID(bundleID ?? "") }
        let client = try AppStoreOptions.client(arguments, command: name)
        do throws(AppStoreLookupError) {
            return try await client.lookup(app, in: countries)
        } catch {
            throw AppStoreOptions.failure(error, command: name)
        }
    }

    /// Releases from a stored lookup, each of which must name its storefront.
    static func storedReleases(_ path: String) throws(CLIError) -> [StoreRelease] {
        let releases = try StoredLookupFile.releases(path, flag: "--lookup", command: name)
        if let nameless = releases.first(where: { $0.country == nil }) {
            throw .badInput(
                "parity: --lookup \(path): cannot tell the storefront of \(nameless.name ?? "an app") (no country in its "
                    + "trackViewUrl); use the output of storerelease lookup --country")
        }
        return releases
    }
}
