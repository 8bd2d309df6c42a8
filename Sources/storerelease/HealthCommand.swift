import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease health SOURCES --version V …`.
    static let health = Command(
        name: "health",
        synopsis:
            "health --health-file FILE [--health-file FILE] --version V [--baseline V0] [--min-users N] "
            + "[--max-crash-rate F] [--max-anr-rate F] [--id ID] [--package PKG] [--now ISO8601] "
            + "[--format json|text|markdown]",
        summary: "Judges a version's crash and ANR rates on each store against the version before it at the same age.",
        discussion: """
            SOURCES: --health-file FILE, once a store: {"store": "appStore"|"googlePlay", "app": ID or
            package, "days": [{"date": "YYYY-MM-DD", "version", "versionCode" (or null), "users",
            "crashedUsers", "anrUsers" (or null)}]}, numbers from Crashlytics, Sentry or your own.
            The rule: day 1 is a version's first day with users; the candidate's age k is its
            number of days with users; the baseline (--baseline, else the highest version below V
            with users) is read over its own days 1..k. A window's rate is its crashed users over its
            user-days, with the Wilson score interval at 95%. regressed: the candidate's lower bound
            is above the baseline's upper bound, or, once the window holds --min-users user-days,
            above the ceiling; insufficientData: fewer user-days and nothing regressed (a first
            day's spike is not a verdict); unknown: the source could not be read; else healthy.
            On Google Play --version may be a versionCode. Days after --now are not counted.
            Prints {"appStore": H|null, "googlePlay": H|null}, H = {source, candidate, baseline,
            verdict, reasons}, a window {version, versionCode, ageDays, users, crashRate, anrRate},
            a rate {value, lower, upper} (fractions 0-1). --format text or markdown: one line a store.
            Exit status: 0 every store read is healthy; 1 any other verdict; 2 bad flags, a file that
            is not a health file, or one naming another app than --id or --package.
            """,
        options: [
            .repeatable(
                "--health-file", "FILE", "One store's users, crashes and ANRs per version per day (once a store)."),
            .value("--version", "V", "The version to judge (on Google Play a versionCode works too)."),
            .value("--baseline", "V0", "The version to compare with (default: the highest below V with users)."),
            .value("--min-users", "N", "The user-days a window needs before it can be healthy (default 1000)."),
            .value("--max-crash-rate", "F", "The crash-rate ceiling, a fraction (default 0.0109, Play's threshold)."),
            .value("--max-anr-rate", "F", "The ANR-rate ceiling, a fraction (default 0.0047, Play's threshold)."),
            AppStoreOptions.id, PlayOptions.package,
            .value("--now", "ISO8601", "The time to judge at: later days are not counted (default: now)."),
            .value("--format", "json|text|markdown", "JSON (default), one line a store, or a Markdown list."),
        ],
        examples: [
            "storerelease health --health-file Docs/Examples/payloads/health-play.json --version 8.0.10 "
                + "--now 2021-02-01T23:00:00Z  # exit 1, insufficientData",
            "storerelease health --health-file Docs/Examples/payloads/health-play.json --version 8.0.10 --format text"
                + "  # exit 1, 2.1% [1.9–2.3], vs 0.6% for 80 at the same age: regressed",
            "storerelease health --health-file Docs/Examples/payloads/health-appstore.json --version 8.0.10 "
                + "--id 414478124 --format text  # App Store 8.0.10: 0.3%, healthy",
            "storerelease health --health-file Docs/Examples/payloads/health-play.json "
                + "--health-file Docs/Examples/payloads/health-appstore.json --version 8.0.10 --format markdown"
                + "  # exit 1, **regressed**, **healthy**",
            "storerelease health --health-file Docs/Examples/payloads/health-play.json --version 81 --baseline 79 "
                + "--format text  # exit 1, for 79 at the same age",
        ],
        run: { arguments throws(CLIError) in
            let name = "health"
            try arguments.requireOnlyFlags()
            let format = arguments.value("--format") ?? "json"
            guard ["json", "text", "markdown"].contains(format) else {
                throw .usage("health: --format \(format.debugDescription) is not json, text or markdown")
            }
            let paths = arguments.values("--health-file")
            guard !paths.isEmpty else {
                throw .usage("health: needs a source: --health-file FILE (once a store)")
            }
            guard let version = try arguments.version("--version", command: name) else {
                throw .usage("health: needs --version V, the version to judge")
            }
            let baseline = try arguments.version("--baseline", command: name)
            let criteria = try healthCriteria(arguments)
            let through = try arguments.date("--now", command: name).map(healthDate)
            let id = try arguments.appStoreIDs(command: name)
            guard (id?.count ?? 1) == 1 else { throw .usage("health: --id names one app, not a list") }
            let package = try PlayOptions.packageName(arguments, command: name)
            var judged: [Store: StoreHealth] = [:]
            for path in paths {
                let file = try readHealthFile(path)
                if let expected = file.store == .appStore ? id?.first.map(String.init) : package, expected != file.app {
                    let flag = file.store == .appStore ? "--id" : "--package"
                    throw .badInput(
                        "health: \(path) names the app \(file.app.debugDescription), not \(flag) \(expected)")
                }
                guard judged[file.store] == nil else {
                    throw .usage("health: two health files for \(file.store); give one a store")
                }
                judged[file.store] = StoreHealth.judge(
                    version, baseline: baseline, store: file.store, source: .healthFile, days: file.days,
                    criteria: criteria, through: through)
            }
            let health = ReleaseHealthReport(appStore: judged[.appStore], googlePlay: judged[.googlePlay])
            switch format {
            case "text": StandardStreams.print(health.text)
            case "markdown": StandardStreams.print(health.markdown)
            default: try JSONOutput.print(health)
            }
            return health.isHealthy ? 0 : 1
        }
    )

    /// The criteria the flags ask for, each bad value an error naming its flag.
    private static func healthCriteria(_ arguments: ParsedArguments) throws(CLIError) -> HealthCriteria {
        func fraction(_ flag: String, _ fallback: Double) throws(CLIError) -> Double {
            guard let text = arguments.value(flag) else { return fallback }
            guard let value = Double(text), value.isFinite, (0...1).contains(value) else {
                throw .usage(
                    "health: \(flag) \(text.debugDescription) is not a fraction between 0 and 1 (0.0109 is 1.09%)")
            }
            return value
        }
        let minimum = try arguments.count("--min-users", command: "health") ?? HealthCriteria.defaultMinimumUserDays
        let crash = try fraction("--max-crash-rate", HealthCriteria.defaultMaximumCrashRate)
        let anr = try fraction("--max-anr-rate", HealthCriteria.defaultMaximumANRRate)
        do throws(HealthCriteriaError) {
            return try HealthCriteria(minimumUserDays: minimum, maximumCrashRate: crash, maximumANRRate: anr)
        } catch {
            throw .usage("health: \(error)")
        }
    }

    /// The UTC day of `date`.
    private static func healthDate(_ date: Date) throws(CLIError) -> HealthDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let text = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        guard let day = HealthDate(text) else { throw .badInput("health: --now \(date) has no calendar day") }
        return day
    }

    /// A health file, a failure naming it and the key.
    private static func readHealthFile(_ path: String) throws(CLIError) -> HealthFile {
        let data = Data(try InputFile.text(path, command: "health").utf8)
        return try JSONProblem.decoding("health: --health-file \(path)", as: "not a health file", in: data) {
            try StrictJSON.decode(HealthFile.self, from: data)
        }
    }
}
