import Foundation
import StoreReleaseKit

/// `health`'s flags, read once: the health files, the version to judge and the one to compare
/// with, the criteria, and the last day counted.
struct HealthOptions {
    static let healthFile = Option<String>(
        "--health-file", "FILE", "One store's users, crashes and ANRs per version per day (once a store).",
        repeats: true)
    static let version = CommonOptions.version.help("The version to judge (on Google Play a versionCode works too).")
    static let baseline = Option<Version>(
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

    let format: ReportFormat
    /// The health files, at most one a store, each of the app `--id` or `--package` names.
    let files: [HealthFile]
    let version: Version
    let baseline: Version?
    let criteria: HealthCriteria
    /// The moment judged as of (`--now`), if given: each store counts no later day of its own.
    let through: Date?
    /// The App Store id `--id` names, if any.
    let appID: Int?
    /// The package `--package` names, if any.
    let package: String?

    /// Reads the flags and the health files they name.
    ///
    /// - Throws: ``CLIError`` naming the flag that is bad or missing, or the file that is not a
    ///   health file, is of another app, or is the second of a store.
    init(_ arguments: ParsedArguments) throws(CLIError) {
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
        let package = try arguments.value(PlayOptions.package)?.name
        (appID, self.package) = (id?.first, package)
        files = try Self.files(arguments, appID: id?.first.map(String.init), package: package)
    }

    /// The sources `health` reads: the files, Google Play's reporting API for `--package`, and
    /// the App Store's Analytics Reports for `--id` with App Store Connect credentials, a store
    /// with a file not read live.
    ///
    /// - Throws: ``CLIError`` when no source is given, naming a flag that needs another, or the
    ///   credentials that are bad.
    func sources(_ arguments: ParsedArguments) throws(CLIError) -> HealthSources {
        let connect = try AppStoreConnectOptions(arguments, aliased: false)
        let connectFlags = AppStoreConnectOptions.specs.contains { arguments.given($0) }
        let wantsAnalytics = connectFlags || (connect.isRequested && appID != nil)
        guard !files.isEmpty || package != nil || wantsAnalytics else {
            throw .usage(
                "health: needs a source: --package PKG (Google Play), --id ID with App Store Connect "
                    + "credentials (the App Store), or --health-file FILE (once a store)")
        }
        let stored = Set(files.map(\.store))
        var reporting: PlayDeveloperReportingClient?
        if !stored.contains(.googlePlay), package != nil {
            reporting = try PlayReportingOptions.client(arguments, command: arguments.command)
        } else {
            try arguments.refuse(
                [PlayOptions.tokenFile.spec, PlayReportingOptions.baseURL.spec],
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
            files: files, playReporting: reporting, analytics: analytics, version: version, baseline: baseline,
            criteria: criteria, through: through)
    }

    /// The health files `--health-file` names, at most one a store, each of the app `--id` or
    /// `--package` names (when given).
    static func files(_ arguments: ParsedArguments, appID: String?, package: String?) throws(CLIError)
        -> [HealthFile]
    {
        let command = arguments.command
        let apps = [
            Store.appStore: (AppStoreOptions.id.name, appID), Store.googlePlay: (PlayOptions.package.name, package),
        ]
        var files: [HealthFile] = []
        for path in try arguments.values(Self.healthFile) {
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
