import Testing

/// The benchmark executable still runs every hot path against its baseline. Only that it runs
/// and what it reports are checked here: numbers from a debug build under a test runner mean
/// nothing, so no timing is asserted.
@Suite struct BenchmarkSmokeTests {
    /// One quick run, shared by the tests that read its report.
    static let quickRun = Result { try BuiltProducts.run("storerelease-benchmarks", ["--quick"]) }

    @Test func theQuickRunReportsEveryHotPathAgainstABaseline() throws {
        let result = try Self.quickRun.get()
        #expect(result.status == 0, "storerelease-benchmarks --quick failed:\n\(result.stdout)\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("machine: ") }, "the report does not say what machine it ran on")
        let hotPaths = [
            "storerelease sort, 10000 lines", "peak memory, storerelease sort", "--scheme semver, same lines",
            "Version(parsing:)", "Version < Version", "parsed [Version]", "VersionLines.sorted",
            "decode: AppStoreLookupResponse", "UpdatePolicy.decide(release:)", "UpdatePolicy.decide(play:)",
            "UpdateFlowSimulator", "UpdateFlowScript.run()", "sweep, 175 storefronts x 200 ids, 3 runners",
            "sweep, 175 storefronts x 200 ids, 9 runners",
        ]
        for name in hotPaths {
            let row = rows.first { $0.contains(name) }
            #expect(row != nil, "no row for \(name) in:\n\(result.stdout)")
            if let row {
                let ratio = ["x faster", "x slower", "x less", "x more", "the same"].contains { row.contains($0) }
                #expect(ratio && row.contains(" - "), "\(name) has no ratio with its spread: \(row)")
            }
        }
    }

    @Test func healthsPlayReadIsTimedNextToTheAPIsOwnLimit() throws {
        let result = try Self.quickRun.get()
        let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("health, Play 90 days x 50 versionCodes") }
        #expect(
            row?.contains("at Google's own limit, 10 queries a second, they take at least") == true, "\(result.stdout)")
    }

    @Test func aBaselineThatIsNotInstalledIsSkippedSayingHowToGetIt() throws {
        let result = try Self.quickRun.get()
        let rows = result.stdout.split(separator: "\n").map(String.init)
        for name in ["node-semver compare", "Python packaging.version"] {
            let measured = rows.contains { $0.hasPrefix(name) && $0.contains("baseline:") }
            let skipped = rows.contains { $0.hasPrefix(name) && $0.contains("skipped:") && $0.contains("install") }
            #expect(measured || skipped, "\(name): neither measured nor skipped with a reason in:\n\(result.stdout)")
        }
    }

    @Test func anUnknownArgumentIsAnErrorThatSaysWhatIsAccepted() throws {
        let result = try BuiltProducts.run("storerelease-benchmarks", ["--fast"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fast") && result.stderr.contains("--quick"))
    }
}
