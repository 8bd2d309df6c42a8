import Foundation
import StoreReleaseKit

/// The health sources of `parity`, `snapshot` and `watch`, read once: the health files, or
/// `--health` to read each store's own numbers, and the rule's flags of `health`.
///
/// Without any of them nothing is judged and the commands print what they printed before.
enum HealthSourceOptions {
    static let live = Switch(
        "--health",
        "Also judge each store's health from its own numbers: Google Play's Developer Reporting API for "
            + "--package, the App Store's Analytics Reports with App Store Connect credentials.")
    static let healthFile = HealthOptions.healthFile.help(
        "One store's users, crashes and ANRs per version per day (once a store): judge that store's health.")

    /// The flags, for a command's table.
    static let specs: [OptionSpec] = [
        healthFile.spec, live.spec, PlayReportingOptions.baseURL.spec, HealthOptions.baseline.spec,
        HealthOptions.minUsers.spec, HealthOptions.maxCrashRate.spec, HealthOptions.maxANRRate.spec,
    ]

    /// What the help says of the health sources.
    static let help = help(judging: "the version a forced update would require")

    /// What `snapshot` and `watch` judge: the version being released (``StoreReading/newestReleasing``).
    static let releasing =
        "the version being released (the newest of Google Play's releases with users, a staged rollout "
        + "included, and of the App Store's versions live or in a phased release: the version watch --halt-on "
        + "halts)"

    /// What the help says of the health sources of a command that judges `version`.
    static func help(judging version: String) -> String {
        """
        Health (optional): --health-file FILE (once a store, as 'storerelease health' reads it) or \
        --health (Google Play's Developer Reporting API for --package, at \
        --play-reporting-base-url URL, which asks for it as well; the App Store's Analytics Reports with App Store Connect \
        credentials) judges \(version) on each store, as \
        'storerelease health' does (--baseline, --min-users, --max-crash-rate, --max-anr-rate), \
        counting no day after --now.
        """
    }

    /// The health sources the flags name, or `nil` when none is given.
    ///
    /// A rollout's health (`advance`, or `watch --rollout`) is judged every round, so by the
    /// sequential rule (``HealthCriteria/sequentially()``); every other command's by one look.
    ///
    /// - Parameters:
    ///   - arguments: The command's flags.
    ///   - play: Play's flags: `--package` names the app the reporting API is asked about.
    ///   - connect: App Store Connect's flags: their client reads the Analytics Reports.
    ///   - through: The time later days are not counted after (`--now`), if given.
    ///   - rollout: Whether the command runs a rollout; `watch` says so with `--rollout`.
    /// - Returns: The sources, or `nil` without a health file or `--health`.
    /// - Throws: ``CLIError`` naming a bad flag, a file that is not a health file, or a rule flag
    ///   without a source.
    static func sources(
        _ arguments: ParsedArguments, play: PlayOptions, connect: AppStoreConnectOptions, through: Date?,
        rollout: Bool = false
    ) throws(CLIError) -> HealthSources? {
        let files = try HealthOptions.files(arguments, appID: nil, package: play.package)
        // The reporting API's base URL asks for its numbers as plainly as --health does.
        let isLive = arguments.has(live) || arguments.given(PlayReportingOptions.baseURL)
        guard !files.isEmpty || isLive else {
            try arguments.refuse(
                specs.filter { $0.name != healthFile.name && $0.name != live.spec.name },
                goesWith: "\(healthFile) or \(live)")
            return nil
        }
        let stored = Set(files.map(\.store))
        var reporting: PlayDeveloperReportingClient?
        var analytics: AppStoreConnectClient?
        if isLive {
            if !stored.contains(.googlePlay), play.package != nil {
                reporting = try PlayReportingOptions.client(arguments, command: arguments.command)
            }
            if !stored.contains(.appStore) { analytics = try connect.client() }
            guard reporting != nil || analytics != nil || !files.isEmpty else {
                throw .usage(
                    "\(arguments.command): \(live) reads Google Play's numbers for \(PlayOptions.package) and the "
                        + "App Store's with App Store Connect credentials: give one")
            }
        }
        let criteria = try HealthOptions.criteria(arguments)
        let rollsOut = rollout || arguments.has(WatchCommand.rollout)
        return HealthSources(
            files: files, playReporting: reporting, analytics: analytics,
            baseline: try arguments.value(HealthOptions.baseline),
            criteria: rollsOut ? criteria.sequentially() : criteria, through: through)
    }
}
