import Testing

/// The benchmark executable still runs every hot path against its baseline. Only that it runs
/// and what it reports are checked here: numbers from a debug build under a test runner mean
/// nothing, so no timing is asserted.
@Suite struct BenchmarkSmokeTests {
    @Test func theQuickRunReportsEveryHotPathAgainstABaseline() throws {
        let result = try BuiltProducts.run("storerelease-benchmarks", ["--quick"])
        #expect(result.status == 0, "storerelease-benchmarks --quick failed:\n\(result.stdout)\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map(String.init)
        let hotPaths = [
            "Version(parsing:)", "Version < Version", "parsed [Version]", "VersionLines.sorted",
            "decode: AppStoreLookupResponse", "UpdatePolicy.decide(release:)", "UpdatePolicy.decide(play:)",
            "UpdateFlowSimulator", "UpdateFlowScript.run()",
        ]
        for name in hotPaths {
            let row = rows.first { $0.contains(name) }
            #expect(row != nil, "no row for \(name) in:\n\(result.stdout)")
            if let row {
                #expect(row.contains("x faster") || row.contains("x slower"), "\(name) has no ratio: \(row)")
            }
        }
    }

    @Test func anUnknownArgumentIsAnErrorThatSaysWhatIsAccepted() throws {
        let result = try BuiltProducts.run("storerelease-benchmarks", ["--fast"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fast") && result.stderr.contains("--quick"))
    }
}
