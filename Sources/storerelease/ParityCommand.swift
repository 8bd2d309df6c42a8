import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease parity (--lookup FILE[,FILE…] | (--id ID | --bundle-id ID) --countries CC[,CC…]) (--play-track FILE | --package PKG)`.
    static let parity = Command(
        name: "parity",
        synopsis:
            "parity (--lookup FILE[,FILE…] | (--id ID | --apple-id ID | --bundle-id ID) --countries CC[,CC…] "
            + "[--base-url URL]) (--play-track FILE [--package PKG] | --package PKG [--play-base-url URL] "
            + "[--play-token-file FILE]) [--track NAME] [ASC] [--health-file FILE | --health] "
            + "[--format json|text|markdown] [--now ISO8601] [--release-delay-hours H] [--quiet]",
        summary: "Reports whether the App Store storefronts and Google Play are on the same version.",
        discussion: """
            The App Store side comes from stored lookups (--lookup: API responses, or the output of
            'storerelease lookup') or from looking the app up now in each storefront (--id or
            --bundle-id with --countries, batched and rate-limited). The Play side is a track of
            the Play Developer API: stored (--play-track: one track or the list, as 'storerelease
            tracks' prints them; --package beside it names its app, as snapshot and watch take
            it) or read now (--package alone, through an edit that is always deleted).
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
            --format markdown writes a summary for a CI job. With --package the JSON adds
            playRecoveryActions: Play's App Recovery actions for the track's versionCodes
            (appRecoveryId, status, versionCodes, regions, recoveredDevices, totalDevices), whom
            Play is already prompting to update; the text a line each.
            \(HealthSourceOptions.help) The JSON then adds health (as 'storerelease health' prints it),
            the text and Markdown a line a store, and forcing also waits until every store judged is
            healthy: each other verdict is a reason naming the store, both rates with their
            intervals and the user-days.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            While the lookup limit holds a sweep back 10 s or more, a line on stderr says how long
            (again at least every 10 s); --quiet leaves it out.
            Exit status: 0 the stores agree; 1 they do not (or a lookup failed); 2 bad input.
            """,
        options: [
            AppStoreOptions.table([.lookup, .id, .appleID, .bundleID, .countries, .client]),
            PlayOptions.table(.storedOrLive, trackLast: true), ParityCommand.format, ParityCommand.now,
            ParityCommand.releaseDelayHours, CommonOptions.quiet, AppStoreConnectOptions.table(.ownAndAlias),
            HealthSourceOptions.table,
        ],
        examples: [
            "storerelease parity --lookup Docs/Examples/payloads/appstore-wechat-us.json,"
                + "Docs/Examples/payloads/appstore-wechat-cn.json --play-track Docs/Examples/payloads/play-production.json "
                + "--format text  # exit 1, The stores do not agree.",
            "storerelease parity --bundle-id com.tencent.xin --countries cn --play-track Docs/Examples/payloads/play-production.json"
                + "  # \"agree\" : true",
            "storerelease parity --id 414478124 --countries cn --package com.example.rollout --format markdown  "
                + "# The stores agree, in us, ca only",
        ],
        run: { arguments throws(CLIError) in try await ParityCommand.run(arguments) }
    )
}

enum ParityCommand {
    static let format: Option<ReportFormat> = CommonOptions.format(
        "JSON for machines (default), a table for people, Markdown for CI.")
    static let now = CommonOptions.now.help("The time to judge the release delay against (default: now).")
    static let releaseDelayHours = CommonOptions.releaseDelayHours.help(
        "How old a release must be before a forced update is safe (default 24).")

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let format = try arguments.value(format) ?? .json
        let given = try arguments.value(now)
        let delay = try arguments.value(releaseDelayHours)?.hours ?? 24
        let sources = try SourceOptions(arguments, platform: .ownAndAlias)
        let healthOptions = try HealthSourceOptions(arguments, rollout: false)
        // The flags read, the files are opened and the clients built.
        let appStore = try sources.appStore.source(storefronts: .many)
        let play = try sources.play.source(packageNamesStored: true)
        let connect = try sources.connect.source()
        let health = try healthOptions.sources(for: sources, through: given)
        // A sweep of many storefronts waits its turn at the lookup limit: said on stderr.
        let line = ProgressLine.waits(
            of: appStore, command: arguments.command, lookupsPerMinute: sources.appStore.lookupsPerMinute,
            quiet: arguments.has(CommonOptions.quiet))
        await line?.start()
        let report: CrossStoreReport
        do throws(ReleaseSourceError) {
            report = try await CrossStoreReport.gather(
                appStore: appStore, play: play, appStoreConnect: connect, health: health, releaseDelayHours: delay,
                now: given ?? Date())
        } catch {
            line?.finish()
            throw CLIError(error, arguments.command)
        }
        line?.finish()
        if let connect { AppStoreConnectOptions.warnIfLow(connect.client, command: arguments.command) }
        try JSONOutput.print(report, as: format, text: report.text, markdown: report.markdown)
        return report.agree ? 0 : 1
    }
}
