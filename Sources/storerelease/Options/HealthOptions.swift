import Foundation
import StoreReleaseKit

/// `health`'s flags, read once: the health files, the version to judge and the one to compare
/// with, the criteria, the last day counted, and the stores' flags it reads live with.
struct HealthOptions {
    static let healthFile = Option<String>(
        "--health-file", "FILE", "One store's users, crashes and ANRs per version per day (once a store).",
        repeats: true)
    static let version = Option<VersionOrCode>(
        "--version", "V", "The version to judge (on Google Play a versionCode works too).")
    static let baseline = Option<VersionOrCode>(
        "--baseline", "V0", "The version to compare with (default: the highest below V with users).")
    static let minUsers = Option<Count>(
        "--min-users", "N", "The user-days a window needs before it can be healthy (default 1000).")
    static let maxCrashRate = Option<Fraction>(
        "--max-crash-rate", "F", "The crash-rate ceiling, a fraction (default 0.0109, Play's threshold).")
    static let maxANRRate = Option<Fraction>(
        "--max-anr-rate", "F", "The ANR-rate ceiling, a fraction (default 0.0047, Play's threshold).")
    static let now = CommonOptions.now.help(
        "The time to judge at: a later day of a store is not counted (Google Play's days are Pacific, the App Store's UTC; default: now)."
    )
    static let format: Option<ReportFormat> = CommonOptions.format(
        "JSON (default), one line a store, or a Markdown list.")

    /// The rule's flags (`health`, the health sources of the other commands, `replay`).
    static let criteriaTable = OptionTable([minUsers, maxCrashRate, maxANRRate])

    /// `health`'s table: the health files, the version and the rule, the app's stores and App
    /// Store Connect's credentials (no platform: the Analytics Reports are the app's), the time, the format.
    static let table = OptionTable([
        healthFile, version, baseline, criteriaTable, AppStoreOptions.table([.id]), PlayReportingOptions.table,
        AppStoreConnectOptions.table(.none), now, format,
    ])

    let format: ReportFormat
    let version: VersionOrCode
    let baseline: VersionOrCode?
    let criteria: HealthCriteria
    /// The moment judged as of (`--now`), if given: each store counts no later day of its own.
    let through: Date?
    /// The App Store id `--id` names, if any.
    let appID: Int?
    /// The package `--package` names, if any.
    let package: String?
    private let arguments: ParsedArguments
    /// The health files `--health-file` names, not read yet.
    private let paths: [String]
    private let connect: AppStoreConnectOptions
    private let reporting: PlayReportingOptions
    /// Whether App Store Connect's Analytics Reports are asked for: a flag of App Store Connect,
    /// or its token with `--id`.
    private let wantsAnalytics: Bool

    /// Reads the flags; nothing is opened.
    ///
    /// - Throws: ``CLIError`` naming the flag that is bad or missing, or saying that no source is given.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        self.arguments = arguments
        format = try arguments.value(Self.format) ?? .json
        guard let version = try arguments.value(Self.version) else {
            throw .usage("health: needs \(Self.version.usage), the version to judge")
        }
        self.version = version
        baseline = try arguments.value(Self.baseline)
        criteria = try Self.criteria(arguments)
        through = try arguments.value(Self.now)
        let id = try arguments.value(AppStoreOptions.id)?.ids
        guard (id?.count ?? 1) == 1 else { throw .usage("health: \(AppStoreOptions.id) names one app, not a list") }
        package = try arguments.value(PlayOptions.package)?.name
        appID = id?.first
        paths = try arguments.values(Self.healthFile)
        connect = try AppStoreConnectOptions(arguments, platform: .none)
        reporting = try PlayReportingOptions(arguments)
        let connectFlags = arguments.firstGiven(AppStoreConnectOptions.table(.none)) != nil
        wantsAnalytics = connectFlags || (connect.isRequested && appID != nil)
        guard !paths.isEmpty || package != nil || wantsAnalytics else {
            throw .usage(
                "health: needs a source: --package PKG (Google Play), --id ID with App Store Connect "
                    + "credentials (the App Store), or --health-file FILE (once a store)")
        }
    }

    /// The sources `health` reads: the files, Google Play's reporting API for `--package`, and
    /// the App Store's Analytics Reports for `--id` with App Store Connect credentials, a store
    /// with a file not read live.
    ///
    /// - Throws: ``CLIError`` naming a file that is not a health file, is of another app, or is
    ///   the second of a store, a flag that needs another, or the credentials that are bad.
    func sources() throws(CLIError) -> HealthSources {
        let files = try Self.files(paths, appID: appID.map(String.init), package: package, command: arguments.command)
        let stored = Set(files.map(\.store))
        var playReporting: PlayDeveloperReportingClient?
        if !stored.contains(.googlePlay), package != nil {
            playReporting = try reporting.client()
        } else {
            try arguments.refuse(
                PlayOptions.tokenFile, PlayReportingOptions.baseURL,
                goesWith: "--package and no Google Play health file")
        }
        var analytics: AppStoreConnectClient?
        if !stored.contains(.appStore), wantsAnalytics {
            guard appID != nil else {
                throw .usage("health: App Store Connect credentials read the Analytics Reports of --id ID: give it")
            }
            guard let client = try connect.client() else {
                throw .usage(
                    "health: --asc-base-url needs App Store Connect credentials (\(AppStoreConnectOptions.help))")
            }
            analytics = client
        }
        return HealthSources(
            files: files, playReporting: playReporting, analytics: analytics, version: version, baseline: baseline,
            criteria: criteria, through: through)
    }

    /// The health files at `paths`, at most one a store, each of the app `--id` or `--package`
    /// names (when given).
    static func files(_ paths: [String], appID: String?, package: String?, command: String) throws(CLIError)
        -> [HealthFile]
    {
        let apps = [
            Store.appStore: (AppStoreOptions.id.name, appID), Store.googlePlay: (PlayOptions.package.name, package),
        ]
        var files: [HealthFile] = []
        for path in paths {
            let file = try Self.read(path, command: command)
            if let (flag, expected) = apps[file.store], let expected, expected != file.app {
                throw .badInput(
                    "\(command): \(path) names the app \(file.app.debugDescription), not \(flag) \(expected)")
            }
            guard !files.contains(where: { $0.store == file.store }) else {
                throw .usage("\(command): two health files for \(file.store); give one a store")
            }
            files.append(file)
        }
        return files
    }

    /// The criteria the flags ask for, each bad value an error naming its flag.
    static func criteria(_ arguments: ParsedArguments) throws(CLIError) -> HealthCriteria {
        let minimum = try arguments.value(Self.minUsers)?.count ?? HealthCriteria.defaultMinimumUserDays
        let crash = try arguments.value(Self.maxCrashRate)?.value ?? HealthCriteria.defaultMaximumCrashRate
        let anr = try arguments.value(Self.maxANRRate)?.value ?? HealthCriteria.defaultMaximumANRRate
        do throws(HealthCriteriaError) {
            return try HealthCriteria(minimumUserDays: minimum, maximumCrashRate: crash, maximumANRRate: anr)
        } catch {
            throw .usage("\(arguments.command): \(error)")
        }
    }

    /// A health file, a failure naming it and the key.
    private static func read(_ path: String, command: String) throws(CLIError) -> HealthFile {
        let data = Data(try InputFile.text(path, command: command).utf8)
        return try JSONProblem.decoding(
            "\(command): \(Self.healthFile) \(path)", as: "not a health file", in: data
        ) {
            try StrictJSON.decode(HealthFile.self, from: data)
        }
    }
}
