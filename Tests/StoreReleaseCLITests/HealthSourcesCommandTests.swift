import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease health` reading the stores' own numbers, as a release engineer runs it: Google
/// Play's Developer Reporting API (`play_reporting.py`) and App Store Connect's Analytics Reports
/// (`asc_analytics.py`) on the loopback fakes, the token never shown, nothing written.
@Suite struct HealthSourcesCommandTests {
    static let secret = "ya29.health-secret-\(UUID().uuidString)"
    static let package = "com.example.health"

    let server: LoopbackServer
    let scratch: ScratchFolder
    let tokenFile: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("health-token")
        tokenFile = scratch.url.appendingPathComponent("token")
        try Data((Self.secret + "\n").utf8).write(to: tokenFile)
    }

    /// `storerelease health --package … --version V` against a scenario, with the token in a file.
    func play(
        _ scenario: String, token: String, _ arguments: [String] = [], version: String = "8.0.10",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            [
                "health", "--package", Self.package, "--play-token-file", tokenFile.path,
                "--play-reporting-base-url", server.baseURL(scenario, token: token).absoluteString,
                "--version", version,
            ] + arguments, environment: ["STORERELEASE_PLAY_TOKEN": ""])
        #expect(result.exited, sourceLocation: sourceLocation)
        #expect(
            !result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret),
            sourceLocation: sourceLocation)
        return result
    }

    func googlePlay(_ result: BuiltProducts.Result) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["appStore"] is NSNull)
        return try #require(object["googlePlay"] as? [String: Any])
    }

    /// Every answer the fake sent matched the discovery document, and so did every query sent.
    func expectContract(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let checks = try server.contractChecks(token: token)
        #expect(checks.checked > 0 && checks.violations.isEmpty, "\(checks.violations)", sourceLocation: sourceLocation)
    }

    @Test func theFirstDaySpikeIsInsufficientDataNotARegression() throws {
        let token = UUID().uuidString
        let result = try play("firstday", token: token)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try googlePlay(result)
        #expect(health["source"] as? String == "playDeveloperReporting")
        #expect(health["verdict"] as? String == "insufficientData", "\(health["reasons"] ?? "")")
        let candidate = try #require(health["candidate"] as? [String: Any])
        // 3 crashed of 130 on its one day: 2.3%, read (not an empty answer for want of the time zone).
        #expect(candidate["users"] as? Int == 130 && candidate["ageDays"] as? Int == 1)
        #expect(candidate["versionCode"] as? Int == 81)
        let baseline = try #require(health["baseline"] as? [String: Any])
        // 8.0.9's own first day (2 of 90), not its settled later days (0.4% of 2,000).
        #expect(baseline["version"] as? String == "8.0.9" && baseline["users"] as? Int == 90)
        let stats = try server.reportingStats(token: token)
        #expect(stats["noTimeZone"] as? Int == 0 && stats["pastFreshness"] as? Int == 0)
        #expect(stats["fullRange"] as? Int == 0 && stats["overRate"] as? Int == 0)
        #expect(stats["queries"] as? [String: Int] == ["crashRateMetricSet": 1, "anrRateMetricSet": 1])
        try expectContract(token)
    }

    @Test func aRealRegressionIsRegressedWithBothRatesAndTheTopIssues() throws {
        let token = UUID().uuidString
        let result = try play("regressed", token: token)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try googlePlay(result)
        #expect(health["verdict"] as? String == "regressed")
        let candidate = try #require(health["candidate"] as? [String: Any])
        // Google rounds 7,013 distinct users a day to 7,000; crashed users are rate × 7,000,
        // unrounded, so the rate is Play's own: 147 of 7,013 (rounded to whole users, 0.021).
        #expect(candidate["users"] as? Int == 21000)
        let crash = try #require((candidate["crashRate"] as? [String: Double])?["value"])
        #expect(abs(crash - 147.0 / 7013) < 1e-12, "\(crash)")
        let anr = try #require((candidate["anrRate"] as? [String: Double])?["value"])
        #expect(abs(anr - 63.0 / 7013) < 1e-12, "\(anr)")
        let baseline = try #require(health["baseline"] as? [String: Any])
        // 80 serves no more, so no release names it: the highest versionCode below 81, by its digits.
        #expect(baseline["versionCode"] as? Int == 80 && baseline["version"] as? String == "80")
        let reasons = try #require(health["reasons"] as? [String])
        #expect(reasons.contains { $0.hasPrefix("crash rate 2.10% [1.91–2.30]") && $0.contains("0.60% [0.50–0.71]") })
        #expect(reasons.contains { $0.hasPrefix("ANR rate 0.90%") })
        try expectContract(token)

        // A token of its own: the fake's 10-a-second quota is a token's, and two processes back to
        // back on one token can pass it on a loaded machine (a 429 on the issue search).
        let textToken = UUID().uuidString
        let text = try play("regressed", token: textToken, ["--format", "text"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Google Play 81 (8.0.10): 2.1% [1.9–2.3] of 21,000 user-days, ANR 0.9% [0.8–1.0] vs 0.6%, ANR 0.2% "
                + "for 80 at the same age: regressed")
        #expect(
            lines.dropFirst().first
                == "  top issue of 81 (8.0.10): CRASH java.lang.IllegalStateException in "
                + "com.example.health.Feed.load: 96 users, 311 reports", "stderr: \(text.stderr)")
        let stats = try server.reportingStats(token: textToken)
        #expect(stats["issueSearches"] as? Int == 1 && stats["issuePosts"] as? Int == 0, "\(stats)")
    }

    @Test func aHealthyReleaseExitsZero() throws {
        let token = UUID().uuidString
        let result = try play("healthy", token: token)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try googlePlay(result)["verdict"] as? String == "healthy")
        try expectContract(token)
    }

    @Test func everyPageIsReadWithinTheRateLimit() throws {
        let token = UUID().uuidString
        let result = try play("bench", token: token, version: "1.0.50")
        let candidate = try #require(try googlePlay(result)["candidate"] as? [String: Any])
        #expect(candidate["ageDays"] as? Int == 90 && candidate["users"] as? Int == 900_000)
        let stats = try server.reportingStats(token: token)
        // 50 versionCodes × 90 days = 4,500 rows a metric set, 500 a page.
        #expect(stats["pages"] as? Int == 18 && stats["overRate"] as? Int == 0)
    }

    // MARK: - Health as the stores report it (issues 39 and 40)

    /// The held-out day-1 case: Play shows 2.30% of 90 users (2.07 users); rounding them to 2
    /// showed 2.22%.
    @Test func playsHeldOutFirstDayShowsPlaysOwnRate() throws {
        let result = try play("heldout", token: UUID().uuidString)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try googlePlay(result)
        #expect(health["verdict"] as? String == "insufficientData")
        let candidate = try #require(health["candidate"] as? [String: Any])
        #expect(candidate["users"] as? Int == 90)
        let crash = try #require((candidate["crashRate"] as? [String: Double])?["value"])
        #expect(abs(crash - 0.023) < 1e-12, "\(crash)")
        let reasons = try #require(health["reasons"] as? [String])
        #expect(reasons.contains { $0.hasSuffix("crash rate 2.30% [0.65–7.86]") }, "\(reasons)")
    }

    /// An ANR rate whose metric set is a day behind the crash set's, or whose query has no rows,
    /// is never a passed one: `unknown`, naming it; a 3.0% ANR rate (the baseline's 0.2%, Play's
    /// bar 0.47%) on the days it was read is `regressed` all the same, judged through them.
    @Test(arguments: [
        ("anrstale", "regressed", "the ANR rate of 81 (8.0.10) is not read (2021-02-03 has none)"),
        ("anrlag", "unknown", "the ANR rate of 81 (8.0.10) is not read (2021-02-03 has none)"),
        ("anrnone", "unknown", "the ANR rate of 81 (8.0.10) is not read (none of its 3 days has one)"),
    ])
    func anUnreadOrStaleANRRateIsNeverHealthy(_ scenario: String, _ verdict: String, _ names: String) throws {
        let token = UUID().uuidString
        let result = try play(scenario, token: token)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try googlePlay(result)
        #expect(health["verdict"] as? String == verdict)
        let reasons = try #require(health["reasons"] as? [String])
        #expect(reasons.contains { $0.hasPrefix(names) }, "\(reasons)")
        if scenario == "anrstale" {
            #expect(reasons.contains("judged through 2021-02-02, the last day every rate of 81 (8.0.10) is read"))
            let anr = "ANR rate 2.99% [2.72–3.29] over 8.0.10's first 2 days"
            #expect(reasons.contains { $0.hasPrefix(anr) }, "\(reasons)")
            #expect((health["candidate"] as? [String: Any])?["ageDays"] as? Int == 2)
        }
        if scenario != "anrnone" {
            #expect(
                reasons.first
                    == "Play's ANR data end before its crash data: anrRateMetricSet is complete up to 2021-02-02, "
                    + "crashRateMetricSet up to 2021-02-03 (each metric set has its own freshness); the days after "
                    + "2021-02-02 have no ANR rate yet")
            #expect(try server.reportingStats(token: token)["pastFreshness"] as? Int == 0)
        }
        try expectContract(token)
    }

    /// One row a day per version: rows sent twice alike count once; two that disagree are
    /// `unknown`, naming the day (the first one silently won).
    @Test func duplicateRowsCountOnceAndConflictingOnesAreUnknown() throws {
        let twice = try play("duplicaterows", token: UUID().uuidString)
        #expect(twice.status == 0, "stderr: \(twice.stderr)")
        let health = try googlePlay(twice)
        #expect(health["verdict"] as? String == "healthy")
        #expect((health["candidate"] as? [String: Any])?["users"] as? Int == 21000)
        let conflicting = try play("conflictrows", token: UUID().uuidString)
        #expect(conflicting.status == 1, "stderr: \(conflicting.stderr)")
        let judged = try googlePlay(conflicting)
        #expect(judged["verdict"] as? String == "unknown" && judged["candidate"] is NSNull)
        let reasons = try #require(judged["reasons"] as? [String])
        #expect(
            reasons.contains {
                $0.hasPrefix("the Play Developer Reporting API has two different rows for 81 (8.0.10) on 2021-02-02 (")
            }, "\(reasons)")
    }

    /// Play's top-issue cause carries an exception's message, which users' input reaches: in
    /// Markdown its bold "healthy", image and link read as written; on a terminal its line break
    /// and ANSI escapes are written out, never sent.
    @Test func aTopIssuesTextCannotInjectMarkdownOrTerminalEscapes() throws {
        let markdown = try play("hostileissue", token: UUID().uuidString, ["--format", "markdown"])
        #expect(markdown.status == 1, "stderr: \(markdown.stderr)")
        let items = markdown.stdout.split(separator: "\n").map(String.init)
        #expect(items.count == 3, "\(items)")
        let escaped: String = [
            #"  - top issue of 81 (8.0.10): CRASH java.lang.IllegalStateException: \*\*healthy\*\* "#,
            #"\!\[pixel\]\(https://evil.example/p.png\) \[details\]\(https://evil.example/x\) "#,
            #"\<img src=x\>\\u{A}- Google Play: \\u{1B}\[2J\\u{1B}\[32mhealthy\\u{1B}\[0m in "#,
            "com.example.health.Feed.load: 96 users, 311 reports",
        ].joined()
        #expect(items.dropFirst().first == escaped, "\(items)")
        #expect(!markdown.stdout.contains("**healthy**") && !markdown.stdout.contains("]("))
        #expect(!markdown.stdout.contains("\u{1B}"))
        let text = try play("hostileissue", token: UUID().uuidString, ["--format", "text"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && !text.stdout.contains("\u{1B}"), "\(lines)")
        let written: String =
            #"<img src=x>\u{A}- Google Play: \u{1B}[2J\u{1B}[32mhealthy\u{1B}[0m in "#
            + "com.example.health.Feed.load: 96 users, 311 reports"
        #expect(lines.dropFirst().first?.hasSuffix(written) == true, "\(lines)")
    }

    struct Unreadable: Sendable, CustomTestStringConvertible {
        let scenario: String
        let names: String
        var testDescription: String { scenario }
    }

    @Test(arguments: [
        Unreadable(scenario: "403quality", names: "'View app quality information'"),
        Unreadable(
            scenario: "403scope", names: "lacks the playdeveloperreporting scope (HTTP 403"),
        Unreadable(
            scenario: "badrate", names: #"userPerceivedCrashRate "n/a" in the crashRateMetricSet row of 2021-02-01"#),
    ])
    func aSourceThatCannotBeReadIsUnknownNeverHealthy(_ unreadable: Unreadable) throws {
        let result = try play(unreadable.scenario, token: UUID().uuidString)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try googlePlay(result)
        #expect(health["verdict"] as? String == "unknown" && health["candidate"] is NSNull)
        let reasons = try #require(health["reasons"] as? [String])
        #expect(reasons.contains { $0.contains(unreadable.names) }, "\(reasons)")
    }

    @Test func badFlagsExitTwoNamingThem() throws {
        let token = UUID().uuidString
        func run(_ arguments: [String]) throws -> BuiltProducts.Result {
            try BuiltProducts.run(
                executable: BuiltProducts.directory.appendingPathComponent("storerelease"), ["health"] + arguments,
                environment: ["STORERELEASE_PLAY_TOKEN": ""])
        }
        let base = server.baseURL("healthy", token: token).absoluteString
        let package = try run([
            "--package", "not a package", "--play-token-file", tokenFile.path, "--play-reporting-base-url", base,
            "--version", "8.0.10",
        ])
        #expect(package.status == 2 && package.stderr.contains("--package \"not a package\""), "\(package.stderr)")
        let url = try run([
            "--package", Self.package, "--play-token-file", tokenFile.path, "--play-reporting-base-url",
            "http://example.com", "--version", "8.0.10",
        ])
        #expect(url.status == 2 && url.stderr.contains("--play-reporting-base-url"), "\(url.stderr)")
        let none = try run(["--package", Self.package, "--version", "8.0.10"])
        #expect(none.status == 2 && none.stderr.contains("https://www.googleapis.com/auth/playdeveloperreporting"))
        #expect(try server.reportingStats(token: token)["requests"] as? Int == 0)
    }

    // MARK: - App Store Connect's Analytics Reports

    static let ascToken = BuiltProducts.packageRoot.appendingPathComponent("Tests/Fixtures/asc/token.txt").path

    /// `storerelease health --id 414478124 --asc-token-file … --version V` against a scenario.
    func appStore(
        _ scenario: String, token: String, _ arguments: [String] = [], version: String = "8.0.10",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            [
                "health", "--id", "414478124", "--asc-token-file", Self.ascToken, "--asc-base-url",
                server.baseURL(scenario, token: token).absoluteString, "--version", version,
            ] + arguments, environment: ["STORERELEASE_ASC_TOKEN": "", "STORERELEASE_PLAY_TOKEN": ""])
        #expect(result.exited, sourceLocation: sourceLocation)
        let stats = try server.ascStats(token: token)
        #expect(stats["writes"] as? Int == 0, "a write reached App Store Connect", sourceLocation: sourceLocation)
        #expect(stats["authorized"] as? Int == 0, "the token went to the storage", sourceLocation: sourceLocation)
        return result
    }

    func appStoreHealth(_ result: BuiltProducts.Result) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(object["appStore"] as? [String: Any])
    }

    @Test func theAppStoresFirstDayIsInsufficientData() throws {
        let token = UUID().uuidString
        let result = try appStore("analyticsfirstday", token: token)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try appStoreHealth(result)
        #expect(health["source"] as? String == "appStoreConnectAnalytics")
        #expect(health["verdict"] as? String == "insufficientData", "\(health["reasons"] ?? "")")
        // The newest instance's count of the day (150 sessions, 3 crashes), not the first one's 90%.
        let candidate = try #require(health["candidate"] as? [String: Any])
        #expect(
            candidate["users"] as? Int == 150 && candidate["versionCode"] is NSNull && candidate["anrRate"] is NSNull)
        try expectContract(token)
    }

    @Test func anAppStoreRegressionCountsEachDayOnceAndNoMissingRowAsZero() throws {
        let token = UUID().uuidString
        let result = try appStore("analyticsregressed", token: token)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let health = try appStoreHealth(result)
        #expect(health["verdict"] as? String == "regressed")
        let candidate = try #require(health["candidate"] as? [String: Any])
        // Three days of 20,000 sessions, each from its newest instance: summing the instances
        // would count 114,000, keeping the oldest 54,000.
        #expect(candidate["users"] as? Int == 60000 && candidate["ageDays"] as? Int == 3)
        #expect((candidate["crashRate"] as? [String: Double])?["value"] == 0.02)
        let baseline = try #require(health["baseline"] as? [String: Any])
        // 8.0.9's first three days: 200 + 20,000 + 20,000 sessions.
        #expect(baseline["version"] as? String == "8.0.9" && baseline["users"] as? Int == 40200)
        let reasons = try #require(health["reasons"] as? [String])
        #expect(reasons.contains { $0.hasPrefix("1 day of 8.0.9 with sessions but no App Crashes row") }, "\(reasons)")
        try expectContract(token)
        let stats = try server.ascStats(token: token)
        #expect((stats["segments"] as? Int ?? 0) > 0 && stats["expired"] as? Int == 0)
    }

    @Test func anExpiredSegmentURLIsAskedForAgain() throws {
        let token = UUID().uuidString
        let result = try appStore("analyticsexpired", token: token)
        #expect(result.status == 0, "stderr: \(result.stderr) stdout: \(result.stdout)")
        #expect(try appStoreHealth(result)["verdict"] as? String == "healthy")
        #expect((try server.ascStats(token: token)["expired"] as? Int ?? 0) > 0)
    }

    @Test func noReportRequestIsUnknownWithTheStepToStartCollecting() throws {
        let none = try appStore("analyticsnone", token: UUID().uuidString)
        #expect(none.status == 1)
        let health = try appStoreHealth(none)
        #expect(health["verdict"] as? String == "unknown" && health["candidate"] is NSNull)
        let reason = try #require((health["reasons"] as? [String])?.first)
        #expect(reason.contains("POST /v1/analyticsReportRequests") && reason.contains("\"accessType\": \"ONGOING\""))
        #expect(reason.contains("never creates the request"))
        let stopped = try appStore("analyticsstopped", token: UUID().uuidString)
        #expect(try appStoreHealth(stopped)["verdict"] as? String == "unknown")
        let monthly = try appStore("analyticsmonthly", token: UUID().uuidString)
        let reasons = try appStoreHealth(monthly)["reasons"] as? [String] ?? []
        #expect(reasons.contains { $0.contains("App Crashes of app 414478124 has no DAILY instance") }, "\(reasons)")
    }

    @Test func bothStoresOneLineEachAndAHealthyAppStoreDoesNotHideARegressedPlay() throws {
        let token = UUID().uuidString
        let result = try appStore(
            "analytics", token: token,
            [
                "--package", Self.package, "--play-token-file", tokenFile.path, "--play-reporting-base-url",
                server.baseURL("regressed", token: token).absoluteString, "--format", "markdown",
            ])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("- App Store 8.0.10: 0.3% [") == true
                && lines.first?.contains("of 60,000 sessions") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("**healthy**") == true)
        #expect(lines.dropFirst().first?.hasSuffix("**regressed**") == true)
        let alone = try appStore("analytics", token: UUID().uuidString)
        #expect(alone.status == 0, "stderr: \(alone.stderr)")
    }

    /// A segment of 35 KB that inflates to 8.6 MiB (100,000 rows) is read row by row: the process
    /// stays near its size without it (about 40 MiB), far below what holding it costs (its text,
    /// its lines and a dictionary a row: over 100 MiB more). The peak is the child's own, as the
    /// kernel counts it (`ru_maxrss`).
    @Test func aLargeSegmentIsReadInBoundedMemory() throws {
        let token = UUID().uuidString
        let script = """
            import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:]).returncode
            print("maxrss", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
            sys.exit(code)
            """
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", script, BuiltProducts.directory.appendingPathComponent("storerelease").path, "health",
                "--id", "414478124", "--asc-token-file", Self.ascToken, "--asc-base-url",
                server.baseURL("analyticslarge", token: token).absoluteString, "--version", "8.0.10",
            ], environment: ["STORERELEASE_ASC_TOKEN": "", "STORERELEASE_PLAY_TOKEN": ""])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try appStoreHealth(result)["verdict"] as? String == "healthy")
        let peak = result.stderr.split(separator: "\n").last.flatMap { $0.split(separator: " ").last }.flatMap {
            Int($0)
        }
        let kibibytes = try #require(peak, "\(result.stderr)")
        #expect(kibibytes < 96 << 10, "peak \(kibibytes >> 10) MiB")
    }

    /// Sums are checked: a day's sessions past any one day's users are `unknown`, named, where
    /// enough rows summed past Int64 crashed the process; and an instance's segments are bounded.
    @Test(arguments: [
        (
            "analyticsoverflow",
            "App Sessions Standard sums more than 1,000,000,000,000 Sessions for 8.0.10 on 2021-02-03"
        ),
        ("analyticssegments", "lists 101 segments, more than the 100 read"),
    ])
    func aReportPastItsBoundsIsUnknownNamingIt(_ scenario: String, _ expected: String) throws {
        let result = try appStore(scenario, token: UUID().uuidString)
        #expect(result.exited && result.status == 1, "stderr: \(result.stderr)")
        let health = try appStoreHealth(result)
        #expect(health["verdict"] as? String == "unknown")
        let reasons = try #require(health["reasons"] as? [String])
        #expect(reasons.contains { $0.contains(expected) }, "\(reasons)")
    }

    @Test func credentialsWithoutAnAppAreBadInput() throws {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            ["health", "--asc-token-file", Self.ascToken, "--version", "8.0.10"],
            environment: ["STORERELEASE_ASC_TOKEN": ""])
        #expect(result.status == 2 && result.stderr.contains("--id ID"), "\(result.stderr)")
    }
}
