import Foundation
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

    /// `--false-halts` takes a chance strictly between 0 and 1 and says in the report that it is not the rule's.
    @Test func aFalseHaltChanceIsTakenBetweenZeroAndOneAndSaidInTheReport() throws {
        for bad in ["0", "1", "-0.1", "x"] {
            let refused = try BuiltProducts.run("storerelease-benchmarks", ["--only", "rollout", "--false-halts", bad])
            #expect(refused.status == 2 && refused.stderr.contains("--false-halts \(bad)"), "\(refused.stderr)")
        }
        let result = try BuiltProducts.run(
            "storerelease-benchmarks", ["--only", "rollout", "--rollouts", "1", "--false-halts", "0.005"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("the gate halting a good release with a chance of 0.005 a store (--false-halts"),
            "\(result.stdout)")
    }

    /// Two rollouts per scenario: enough to see every table and check, in seconds.
    static let rolloutRun = Result {
        try BuiltProducts.run("storerelease-benchmarks", ["--only", "rollout", "--rollouts", "2"])
    }

    @Test func theRolloutEvidencePrintsEveryTableAndEveryCheckOfTheDoneWhen() throws {
        let result = try Self.rolloutRun.get()
        #expect(result.status == 0, "storerelease-benchmarks --only rollout failed:\n\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for heading in [
            "### Good releases (N at N−1's rate)", "### Regressions: user-days on N before the halt",
            "### A small app (2,000 daily users): the gate's --min-users",
            "### The gate before: the same gate, its health judged one look a round",
            "### Good releases the gate halted, and why", "### Checks (issue 43, done when)",
            "### Regressions against fixed rules that halt no more good releases than the gate",
            "### The least exposure possible: an oracle's bound",
            "### Regressions: the oracle's bound (median over rollouts) against each rule's median exposure",
        ] {
            #expect(lines.contains { $0.hasPrefix(heading) }, "no \(heading) in:\n\(result.stdout)")
        }
        #expect(!lines.contains { $0.hasPrefix("storerelease sort") }, "--only rollout ran the other benchmarks")
        let good = lines.filter { $0.hasPrefix("| 2,000–20,000 | ") && $0.contains(" of 2 | ") }
        for rule in ["gate (--min-users 1000)", "ceiling 1.09%", "delta +20%"] {
            #expect(
                good.contains { $0.contains("| \(rule) |") }, "no good-release row for \(rule) in:\n\(result.stdout)")
        }
        for size in ["2,000–20,000", "20,000–200,000", "200,000–2,000,000"] {
            for multiplier in ["1.2x", "1.5x", "2x", "5x"] {
                let row = lines.first { $0.hasPrefix("| \(size) | \(multiplier) | ") }
                #expect(row?.split(separator: "|").count == 7, "no regression row \(size) \(multiplier): \(row ?? "")")
            }
        }
        for minimum in [100, 300, 1000, 3000] {
            #expect(lines.contains { $0.hasPrefix("| \(minimum) | ") }, "no small-app row for --min-users \(minimum)")
        }
        // 3 bands: no good release halted; 3 multipliers from 1.5x: halted, against the ceiling, against the delta.
        let checks = lines.filter { $0.hasPrefix("PASS ") || $0.hasPrefix("FAIL ") }
        #expect(checks.count == 3 + 3 * 3 * 3, "\(checks.count) checks in:\n\(result.stdout)")
        let failed = checks.count { $0.hasPrefix("FAIL ") }
        #expect(lines.contains("checks: \(checks.count - failed) passed, \(failed) failed"))
    }

    /// The oracle's table: the crashes a Poisson test needs (checked against values computed
    /// independently, scipy's Poisson tails with the randomized Neyman–Pearson test), a bound per
    /// regression never below the Poisson bound alone, and a verdict for each median check that fails.
    @Test func theOraclesBoundStandsBesideEveryMedianCheck() throws {
        let result = try Self.rolloutRun.get()
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let means = lines.first { $0.hasPrefix("Crashes a good release is expected to have there") } ?? ""
        for expected in [
            "α 1/200: 1.2x 176.8 (N's 212.1), 1.5x 30.8 (N's 46.2), 2x 8.7 (N's 17.4), 5x 0.9 (N's 4.4)",
            "α 1/1000: 1.2x 254.3 (N's 305.2), 1.5x 44.3 (N's 66.4), 2x 12.3 (N's 24.7), 5x 1.2 (N's 6.2)",
        ] {
            #expect(means.contains(expected), "no \(expected) in: \(means)")
        }
        #expect(lines.contains { $0.contains("halts at least one of 2 with a chance of 1.0% (1/1000: 0.2%)") })
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("### Regressions: the oracle's bound") }) else {
            Issue.record("no oracle table in:\n\(result.stdout)")
            return
        }
        // The heading, the header and its rule (the blank line between is not a line here), then a
        // row per band and regression.
        let rows = lines.dropFirst(heading + 1).prefix { $0.hasPrefix("|") }.dropFirst(2)
        #expect(rows.count == 3 * 4, "\(rows.count) oracle rows in:\n\(result.stdout)")
        var verdicts: [String] = []
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 10, "\(row)")
            guard cells.count == 10 else { continue }
            // "2,314 (1,742)": the bound with the first day's floor, then the Poisson bound alone.
            let numbers = cells[2].split(separator: " ").map { Int($0.filter(\.isNumber)) }
            #expect(numbers.count == 2 && (numbers[0] ?? 0) >= (numbers[1] ?? .max), "\(row)")
            verdicts += cells[8...9].filter { !["gate passes", "no check"].contains($0) }
            let known = ["gate passes", "no check", "out of reach (", "not ruled out ("]
            #expect(cells[8...9].allSatisfy { cell in known.contains { cell.hasPrefix($0) } }, "\(row)")
        }
        let failedMedians = lines.filter { $0.hasPrefix("FAIL the gate's median exposure") }
        #expect(verdicts.count == failedMedians.count, "\(verdicts) against \(failedMedians)")
    }

    /// The same-age bound's table: the crashes the conditional binomial test needs when N−1's window
    /// expects as many as N's, 10 and 100 times as many (checked against values computed independently:
    /// scipy's Poisson and binomial distributions, the UMPU test randomized to size α, its power
    /// summed over the total and bisected), a bound per regression never below the oracle's, higher
    /// at 1/1000 than at 1/200, and a verdict for each median check that fails.
    @Test func theSameAgeBoundStandsBesideTheOracles() throws {
        let result = try Self.rolloutRun.get()
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("### Without N−1's true rate: the same-age bound"), "\(result.stdout)")
        let means = lines.first { $0.hasPrefix("Crashes a good release is expected to have there when N−1's") } ?? ""
        for expected in [
            "α 1/200: 1.2x 364.6 (195.5; 178.6), 1.5x 66.1 (34.3; 31.1), 2x 19.7 (9.8; 8.8), 5x 2.4 (1.0; 0.9)",
            "α 1/1000: 1.2x 524.7 (281.3; 257.0), 1.5x 95.0 (49.3; 44.7), 2x 28.3 (14.0; 12.6), 5x 3.4 (1.4; 1.2)",
        ] {
            #expect(means.contains(expected), "no \(expected) in: \(means)")
        }
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("### Regressions: the same-age bound") }) else {
            Issue.record("no same-age table in:\n\(result.stdout)")
            return
        }
        let rows = lines.dropFirst(heading + 1).prefix { $0.hasPrefix("|") }.dropFirst(2)
        #expect(rows.count == 3 * 4, "\(rows.count) same-age rows in:\n\(result.stdout)")
        var verdicts: [String] = []
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 11, "\(row)")
            guard cells.count == 11 else { continue }
            // The same-age bound at 1/200, at 1/1000, the oracle's at 1/200.
            let bounds = cells[2...4].map { Int($0.filter(\.isNumber)) ?? 0 }
            #expect(bounds[0] >= bounds[2] && bounds[1] >= bounds[0] && bounds[2] > 0, "\(row)")
            verdicts += cells[9...10].filter { !["gate passes", "no check"].contains($0) }
            let known = ["gate passes", "no check", "out of reach (", "not ruled out ("]
            #expect(cells[9...10].allSatisfy { cell in known.contains { cell.hasPrefix($0) } }, "\(row)")
        }
        let failedMedians = lines.filter { $0.hasPrefix("FAIL the gate's median exposure") }
        #expect(verdicts.count == failedMedians.count, "\(verdicts) against \(failedMedians)")
    }

    @Test func theRolloutsAreTheSameForTheSameSeedAndDifferForAnother() throws {
        func tables(_ seed: String) throws -> String {
            let result = try BuiltProducts.run(
                "storerelease-benchmarks", ["--only", "rollout", "--rollouts", "1", "--seed", seed])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").filter { $0.hasPrefix("|") }.joined(separator: "\n")
        }
        let first = try tables("7")
        #expect(!first.isEmpty)
        #expect(try tables("7") == first, "the same seed drew other rollouts")
        #expect(try tables("8") != first, "another seed drew the same rollouts")
    }

    @Test(arguments: [
        (["--rollouts", "0"], "--rollouts 0"), (["--rollouts"], "--rollouts needs a value"),
        (["--only", "sort"], "--only sort"), (["--seed", "-1"], "--seed -1"),
    ])
    func aBadRolloutOptionIsAnErrorNamingIt(arguments: [String], named: String) throws {
        let result = try BuiltProducts.run("storerelease-benchmarks", arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(named), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "the benchmark ran on a bad option: \(result.stdout)")
    }
}
