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
            HealthOptions.healthFile.spec, HealthOptions.version.spec, HealthOptions.baseline.spec,
            HealthOptions.minUsers.spec, HealthOptions.maxCrashRate.spec, HealthOptions.maxANRRate.spec,
            AppStoreOptions.id.spec, PlayOptions.package.spec, HealthOptions.now.spec, HealthOptions.format.spec,
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
            try arguments.requireOnlyFlags()
            let options = try HealthOptions(arguments)
            var judged: [Store: StoreHealth] = [:]
            for file in options.files {
                judged[file.store] = StoreHealth.judge(
                    options.version, baseline: options.baseline, store: file.store, source: .healthFile,
                    days: file.days, criteria: options.criteria, through: options.through)
            }
            let health = ReleaseHealthReport(appStore: judged[.appStore], googlePlay: judged[.googlePlay])
            switch options.format {
            case .text: StandardStreams.print(health.text)
            case .markdown: StandardStreams.print(health.markdown)
            case .json: try JSONOutput.print(health)
            }
            return health.isHealthy ? 0 : 1
        }
    )
}
