import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease health SOURCES --version V …`.
    static let health = Command(
        name: "health",
        synopsis:
            "health SOURCES --version V [--baseline V0] [--min-users N] [--max-crash-rate F] [--max-anr-rate F] "
            + "[--now ISO8601] [--format json|text|markdown]",
        summary: "Judges a version's crash and ANR rates on each store against the version before it at the same age.",
        discussion: """
            SOURCES, one or more: Google Play: --package PKG with the Play token (--play-token-file FILE or
            $\(PlayOptions.tokenVariable)) reads the Play Developer Reporting API: the user-perceived
            crash and ANR rates and distinct users per versionCode per day (DAILY, America/Los_Angeles)
            over the last 90 days up to the data's freshness, crashed users the rate x the distinct
            users, unrounded (2.30% of 90 users is 2.07: the rate is Play's own), each metric set up
            to its own freshness; the token needs the scope
            \(PlayDeveloperReportingClient.scope) as well as the androidpublisher one, and the service
            account 'View app quality information' in Play Console. App Store: --id ID with App Store
            Connect credentials reads its Analytics Reports: the app's ONGOING report request, the App
            Crashes and App Sessions Standard reports' daily instances, crashes over sessions per app
            version per day (there users counts sessions); without a request it is unknown, saying
            how to start one (health never creates it: it only reads). \(AppStoreConnectOptions.help)
            Either store: --health-file FILE,
            once a store: {"store": "appStore"|"googlePlay", "app": ID or package, "days": [{"date":
            "YYYY-MM-DD", "version", "versionCode" (or null), "users", "crashedUsers", "anrUsers" (or
            null; fractions allowed)}]}, numbers from Crashlytics, Sentry or your own; with a health
            file for a store, --id or --package only checks that the file names that app.
            The rule: day 1 is a version's first day with users; the candidate's age k is its
            number of days with users; the baseline (--baseline, else the highest version below V
            with users) is read over its own days 1..k. A window's rate is its crashed users over its
            user-days, with the Wilson score interval at 95%. regressed: the candidate's lower bound
            is above the baseline's upper bound, or, once the window holds --min-users user-days,
            above the ceiling; insufficientData: fewer user-days and nothing regressed (a first
            day's spike is not a verdict); unknown: the source could not be read, two rows of one
            day and version disagree (rows alike count once), or a rate the store reports was not
            read on every day (an unread rate is never a passed one: Google Play's ANR rate missing
            or older than its crash rate, regressed still when the days with every rate read say so;
            the App Store has none); else healthy.
            On Google Play --version may be a versionCode. Days after --now are not counted
            (Play's days are Pacific, America/Los_Angeles; the App Store's UTC).
            Prints {"appStore": H|null, "googlePlay": H|null}, H = {source, candidate, baseline,
            verdict, reasons}, a window {version, versionCode, ageDays, users, crashRate, anrRate},
            a rate {value, lower, upper} (fractions 0-1). --format text or markdown: one line a store,
            then, read from Play, the candidate's largest error issues; text from a store is escaped
            in Markdown, and its control characters are shown as text, never sent to the terminal.
            App Store report files are read row by row (memory bounded), every sum checked. A source
            that cannot be read (a refused token, an answer that is not what the API sends) makes its
            store unknown.
            Exit status: 0 every store read is healthy; 1 any other verdict; 2 bad flags, a file that
            is not a health file, or one naming another app than --id or --package.
            """,
        options: [HealthOptions.table],
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
            "storerelease health --package com.example.health --version 8.0.10 --format text"
                + "  # exit 1, regressed, top issue of 81 (8.0.10): CRASH",
            "storerelease health --id 414478124 --asc-token-file Tests/Fixtures/asc/token.txt --version 8.0.10 "
                + "--format text  # App Store 8.0.10: 0.3%, healthy",
        ],
        run: { arguments throws(CLIError) in
            let name = "health"
            try arguments.requireOnlyFlags()
            let options = try HealthOptions(arguments)
            let sources = try options.sources()
            let health: ReleaseHealthReport
            do throws(ReleaseSourceError) {
                health = try await sources.judge(
                    options.version, packageName: options.package, appID: options.appID.map(String.init))
            } catch {
                throw CLIError(error, name)
            }
            let issues =
                options.format == .json ? [] : await Command.topIssues(of: health, from: sources, options.package)
            // An issue's cause and place are Play's text, which an app's exception messages (user
            // input) reach: written out for the terminal, escaped for Markdown.
            let label = health.googlePlay?.candidate?.label ?? options.version.description
            let issueLines = issues.map { "  top issue of \(label): \(OutsideText.terminal($0.description))\n" }
            let issueItems = issues.map { "  - top issue of \(label): \(OutsideText.markdown($0.description))\n" }
            try JSONOutput.print(
                health, as: options.format, text: health.text + issueLines.joined(),
                markdown: health.markdown + issueItems.joined())
            return health.isHealthy ? 0 : 1
        }
    )

    /// The top issues of Play's candidate, read after the verdict for the text and Markdown lines.
    ///
    /// The verdict stands without them; a failure is said on stderr, never passed off as no issue.
    private static func topIssues(of health: ReleaseHealthReport, from sources: HealthSources, _ package: String?)
        async -> [PlayErrorIssue]
    {
        do throws(HTTPClientError) {
            return try await sources.topIssues(of: health, packageName: package)
        } catch {
            StandardStreams.printError(
                "health: the top issues could not be read: \(OutsideText.terminal(error.description))\n")
            return []
        }
    }
}
