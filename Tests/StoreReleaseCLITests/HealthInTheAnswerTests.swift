import Foundation
import StoreReleaseTestSupport
import Testing

/// Release health in the answer (issue 29 item 5): `parity` with health sources adds `health`
/// and its force gate waits for `healthy` on every store judged; `snapshot` records it and `diff`
/// reports `healthChanged`. Both stores serve 8.0.10 to everyone, released long enough ago, so
/// health is the only thing left to wait for.
@Suite struct HealthInTheAnswerTests {
    static let payloads = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads")
    static let play = payloads.appendingPathComponent("health-play.json").path
    static let apple = payloads.appendingPathComponent("health-appstore.json").path
    /// After 8.0.10's three days: 2.1% of 21,000 user-days against 8.0.2's 0.6%.
    static let late = "2021-02-04T00:00:00Z"
    /// 8.0.10's first day only: 3 crashed of 130.
    static let firstDay = "2021-02-01T23:00:00Z"

    let scratch: ScratchFolder
    var folder: URL { scratch.url }
    let lookup: String
    let track: String

    init() throws {
        scratch = try ScratchFolder("health-answer")
        var body = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.payloads.appendingPathComponent("appstore-wechat-cn.json")))
                as? [String: Any])
        var results = try #require(body["results"] as? [[String: Any]])
        results[0]["version"] = "8.0.10"
        results[0]["currentVersionReleaseDate"] = "2021-01-28T00:00:00Z"
        body["results"] = results
        lookup = scratch.url.appendingPathComponent("lookup.json").path
        try JSONSerialization.data(withJSONObject: body).write(to: URL(fileURLWithPath: lookup))
        track = scratch.url.appendingPathComponent("track.json").path
        try Data(
            """
            {"track": "production", "releases": [
              {"name": "8.0.10", "versionCodes": ["81"], "status": "completed"}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: track))
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), arguments,
            environment: environment)
        #expect(result.exited)
        return result
    }

    func parity(_ extra: [String], now: String = late) throws -> (BuiltProducts.Result, [String: Any]) {
        let result = try run(["parity", "--lookup", lookup, "--play-track", track, "--now", now] + extra)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return (result, object)
    }

    func force(_ report: [String: Any]) throws -> (safe: Bool, reasons: [String]) {
        let force = try #require(report["forceUpdate"] as? [String: Any])
        return (try #require(force["safe"] as? Bool), try #require(force["reasons"] as? [String]))
    }

    @Test func aRealRegressionBlocksForcingWithBothRatesAndIntervals() throws {
        let (_, report) = try parity(["--health-file", Self.play])
        let (safe, reasons) = try force(report)
        #expect(!safe)
        let reason = try #require(reasons.first { $0.hasPrefix("Google Play") }, "\(reasons)")
        #expect(reason.contains("81 (8.0.10) is regressed"), "\(reason)")
        #expect(reason.contains("2.10% [1.91–2.30] over 21,000 user-days"), "\(reason)")
        #expect(
            reason.contains("vs 0.60% [0.50–0.71] over 21,000 user-days for 80 (8.0.2) at the same age"), "\(reason)")
        let health = try #require(report["health"] as? [String: Any])
        let play = try #require(health["googlePlay"] as? [String: Any])
        #expect(play["verdict"] as? String == "regressed" && play["source"] as? String == "healthFile")
        #expect(health["appStore"] is NSNull)
    }

    @Test func theFirstDaySpikeIsNotHealthyAndBlocksForcingAsInsufficientData() throws {
        let (_, report) = try parity(["--health-file", Self.play], now: Self.firstDay)
        let (safe, reasons) = try force(report)
        #expect(!safe)
        let reason = try #require(reasons.first { $0.hasPrefix("Google Play") }, "\(reasons)")
        #expect(reason.contains("is insufficientData (fewer than 1,000 user-days)"), "\(reason)")
        #expect(reason.contains("2.31% [0.79–6.57] over 130 user-days"), "\(reason)")
        #expect(!reason.contains("regressed"))
    }

    @Test func aHealthyReleaseForcesExactlyAsBefore() throws {
        let (plain, before) = try parity([])
        let (judged, after) = try parity(["--health-file", Self.apple])
        #expect(try force(before).safe)
        #expect(try force(after).safe)
        let health = try #require(after["health"] as? [String: Any])
        #expect((health["appStore"] as? [String: Any])?["verdict"] as? String == "healthy")
        var rest = after
        rest["health"] = nil
        let sorted = { (object: [String: Any]) in
            try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
        }
        #expect(try sorted(rest) == sorted(before))
        #expect(plain.status == judged.status)
        // Without a health source nothing is added.
        #expect(before["health"] == nil && !plain.stdout.contains("health"))
    }

    @Test func textAndMarkdownShowOneLineAStore() throws {
        let text = try run([
            "parity", "--lookup", lookup, "--play-track", track, "--now", Self.late, "--health-file", Self.play,
            "--health-file", Self.apple, "--format", "text",
        ])
        #expect(
            text.stdout.contains(
                "  Google Play 81 (8.0.10): 2.1% [1.9–2.3] of 21,000 user-days vs 0.6% for 80 at the same age: regressed"
            ),
            "\(text.stdout)")
        #expect(text.stdout.contains("  App Store 8.0.10: "), "\(text.stdout)")
        let markdown = try run([
            "parity", "--lookup", lookup, "--play-track", track, "--now", Self.late, "--health-file", Self.play,
            "--format", "markdown",
        ])
        #expect(markdown.stdout.contains("at the same age: **regressed**"), "\(markdown.stdout)")
    }

    @Test func snapshotsRecordHealthAndDiffSaysWhenItChanged() throws {
        let first = try run(["snapshot", "--play-track", track, "--health-file", Self.play, "--now", Self.firstDay])
        #expect(first.status == 0, "\(first.stderr)")
        let old = folder.appendingPathComponent("old.json")
        try Data(first.stdout.utf8).write(to: old)
        let recorded = try #require(
            (try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["health"]
                as? [String: Any])
        let play = try #require(recorded["googlePlay"] as? [String: Any])
        #expect(play["verdict"] as? String == "insufficientData" && play["version"] as? String == "8.0.10")
        #expect(play["users"] as? Int == 130 && play["versionCode"] as? Int == 81)
        let second = try run([
            "snapshot", "--play-track", track, "--health-file", Self.play, "--now", Self.late, "--previous", old.path,
        ])
        let new = folder.appendingPathComponent("new.json")
        try Data(second.stdout.utf8).write(to: new)
        let diff = try run(["diff", old.path, new.path])
        #expect(diff.status == 0, "\(diff.stderr)")
        let events = diff.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let changed = try #require(events.first { $0["type"] as? String == "healthChanged" }, "\(diff.stdout)")
        #expect(changed["store"] as? String == "googlePlay" && changed["version"] as? String == "8.0.10")
        #expect(changed["from"] as? String == "insufficientData" && changed["to"] as? String == "regressed")
        // The same snapshot twice: no change, no event.
        #expect(try run(["diff", new.path, new.path]).stdout.isEmpty)
        // Without health sources the snapshot has no health key at all.
        #expect(!(try run(["snapshot", "--play-track", track, "--now", Self.late]).stdout.contains("\"health\"")))
    }

    /// With `--health`, or with the reporting API's base URL alone (which asks for its numbers
    /// as plainly).
    @Test(arguments: [["--health"], []])
    func aSourceThatCannotBeReadIsUnknownNeverHealthy(_ switches: [String]) throws {
        let server = try LoopbackServer.shared.get()
        let result = try run(
            ["snapshot", "--play-track", track, "--package", "com.example.health"] + switches + [
                "--play-reporting-base-url", server.baseURL("403quality").absoluteString, "--now", Self.late,
            ], environment: ["STORERELEASE_PLAY_TOKEN": "ya29.answer-\(UUID().uuidString)"])
        #expect(result.status == 0, "\(result.stderr)")
        let health = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["health"]
                as? [String: Any])
        let play = try #require(health["googlePlay"] as? [String: Any])
        #expect(play["verdict"] as? String == "unknown" && play["source"] as? String == "playDeveloperReporting")
        let reasons = try #require(play["reasons"] as? [String])
        #expect(reasons.contains { $0.contains("could not be read") }, "\(reasons)")
    }

    @Test func ruleFlagsWithoutAHealthSourceAreRefused() throws {
        let result = try run(["parity", "--lookup", lookup, "--play-track", track, "--min-users", "10"])
        #expect(result.status == 2 && result.stderr.contains("--min-users goes with --health-file or --health"))
    }
}
