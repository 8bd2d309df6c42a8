import Foundation
import StoreReleaseKit

/// The health sources of `parity`, `snapshot`, `watch` and `advance`, read once: the health
/// files, or `--health` to read each store's own numbers, and the rule's flags of `health`.
///
/// Without any of them nothing is judged and the commands print what they printed before.
struct HealthSourceOptions {
    static let live = Switch(
        "--health",
        "Also judge each store's health from its own numbers: Google Play's Developer Reporting API for "
            + "--package, the App Store's Analytics Reports with App Store Connect credentials.")
    static let healthFile = HealthOptions.healthFile.help(
        "One store's users, crashes and ANRs per version per day (once a store): judge that store's health.")

    /// The flags, for a command's table.
    static let table = OptionTable([
        healthFile, live, PlayReportingOptions.baseURL, HealthOptions.baseline, HealthOptions.criteriaTable,
    ])

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

    private let command: String
    /// The health files `--health-file` names, not read yet.
    private let paths: [String]
    /// Whether each store's own numbers are read (`--health`, or the reporting API's base URL,
    /// which asks for them as plainly).
    private let isLive: Bool
    private let baseline: VersionOrCode?
    /// The rule, when a source is given.
    private let criteria: HealthCriteria?
    private let reporting: PlayReportingOptions

    /// Whether a health source is given: a health file or `--health`.
    var isGiven: Bool { !paths.isEmpty || isLive }

    /// Reads the flags; nothing is opened.
    ///
    /// A rollout's health (`advance`, or `watch --rollout`) is judged every round, so by the
    /// sequential rule (``HealthCriteria/sequentially()``); every other command's by one look.
    ///
    /// - Parameters:
    ///   - arguments: The command's flags.
    ///   - rollout: Whether the command runs a rollout.
    /// - Throws: ``CLIError`` naming a bad flag, or a rule flag without a source.
    init(_ arguments: ParsedArguments, rollout: Bool) throws(CLIError) {
        command = arguments.command
        paths = try arguments.values(Self.healthFile)
        isLive = arguments.has(Self.live) || arguments.given(PlayReportingOptions.baseURL)
        reporting = try PlayReportingOptions(arguments)
        guard !paths.isEmpty || isLive else {
            try arguments.refuse(
                PlayReportingOptions.baseURL, HealthOptions.baseline, HealthOptions.criteriaTable,
                goesWith: "\(Self.healthFile) or \(Self.live)")
            (criteria, baseline) = (nil, nil)
            return
        }
        let criteria = try HealthOptions.criteria(arguments)
        self.criteria = rollout ? criteria.sequentially() : criteria
        baseline = try arguments.value(HealthOptions.baseline)
    }

    /// The health sources the flags name, the files read and the clients built, or `nil` when
    /// none is given.
    ///
    /// - Parameters:
    ///   - stores: The stores' flags: Play's `--package` names the app the reporting API is asked
    ///     about, App Store Connect's client reads the Analytics Reports.
    ///   - through: The time later days are not counted after (`--now`), if given.
    /// - Returns: The sources, or `nil` without a health file or `--health`.
    /// - Throws: ``CLIError`` naming a file that is not a health file, or `--health` with no
    ///   store to read.
    func sources(for stores: SourceOptions, through: Date?) throws(CLIError) -> HealthSources? {
        guard let criteria else { return nil }
        let (play, connect) = (stores.play, stores.connect)
        let files = try HealthOptions.files(paths, appID: nil, package: play.package, command: command)
        let stored = Set(files.map(\.store))
        var playReporting: PlayDeveloperReportingClient?
        var analytics: AppStoreConnectClient?
        if isLive {
            if !stored.contains(.googlePlay), play.package != nil { playReporting = try reporting.client() }
            if !stored.contains(.appStore) { analytics = try connect.client() }
            guard playReporting != nil || analytics != nil || !files.isEmpty else {
                throw .usage(
                    "\(command): \(Self.live) reads Google Play's numbers for \(PlayOptions.package) and the "
                        + "App Store's with App Store Connect credentials: give one")
            }
        }
        return HealthSources(
            files: files, playReporting: playReporting, analytics: analytics, baseline: baseline,
            criteria: criteria, through: through)
    }
}
