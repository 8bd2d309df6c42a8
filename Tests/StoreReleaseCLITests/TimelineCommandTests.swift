import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease timeline` as users run it: the built binary, its exits and its messages.
@Suite struct TimelineCommandTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }
    static let history = BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch/timeline-history.jsonl").path

    init() throws {
        scratch = try ScratchFolder("timeline")
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theBundledHistoryDrawsAsSVGAndAsHTML() throws {
        let svg = try BuiltProducts.storerelease("timeline", Self.history)
        #expect(svg.status == 0 && svg.stdout.hasPrefix("<svg ") && svg.stderr.isEmpty)
        let html = try BuiltProducts.storerelease("timeline", Self.history, "--version", "8.0.10", "--format", "html")
        #expect(html.status == 0 && html.stdout.hasPrefix("<!doctype html>") && html.stdout.contains("<table>"))
    }

    @Test func aHistoryWithoutGateDecisionsDrawsByteForByteAsBefore() throws {
        // Tests/Fixtures/timeline/timeline-8.0.*: what the tool drew before histories carried the
        // rollout gate's decisions (drawn by the commit before them from the same history).
        let fixtures = BuiltProducts.packageRoot.appendingPathComponent("Tests/Fixtures/timeline")
        for (arguments, name) in [
            ([Self.history], "timeline-8.0.10.svg"), ([Self.history, "--format", "html"], "timeline-8.0.10.html"),
            ([Self.history, "--version", "8.0.2", "--format", "html"], "timeline-8.0.2.html"),
        ] {
            let result = try BuiltProducts.run("storerelease", ["timeline"] + arguments, stdin: "")
            let before = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
            #expect(result.status == 0 && result.stdout == before, "\(name) differs from what was drawn before")
        }
    }

    @Test func theBundledRolloutDrawsTheGatesMarks() throws {
        let history = BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch/rollout-history.jsonl").path
        let svg = try BuiltProducts.storerelease("timeline", history, "--width", "480")
        #expect(svg.status == 0 && svg.stderr.isEmpty)
        #expect(svg.stdout.components(separatedBy: #"<g data-mark="advance""#).count - 1 == 5, "1→2→5→10→20→50%")
        #expect(svg.stdout.contains("advance 10% → 20%: Google Play: healthy; App Store: healthy</title>"))
        #expect(svg.stdout.contains("hold at 10%: Play has changes in review: the rollout waits for them</title>"))
        let html = try BuiltProducts.storerelease("timeline", history, "--format", "html")
        #expect(html.stdout.contains("<td>hold at 10%: Play has changes in review: the rollout waits for them</td>"))
    }

    @Test func aHistoryCutMidLineStillDrawsAndNamesTheTornLine() throws {
        let text = try String(contentsOfFile: Self.history, encoding: .utf8)
        let path = try file("torn.jsonl", String(text.dropLast(200)))
        let result = try BuiltProducts.storerelease("timeline", path)
        #expect(result.status == 0 && result.stdout.hasPrefix("<svg "))
        #expect(result.stderr.contains("\(path):121 is torn"), "\(result.stderr)")
    }

    @Test func whatIsNotAHistoryIsExitTwoNamingTheFileAndLine() throws {
        let lines = try String(contentsOfFile: Self.history, encoding: .utf8).split(separator: "\n")
        let cases = [
            (try file("not.jsonl", "\(lines[0])\n{\"hello\": 1}\n\(lines[1])\n"), ":2: not a round"),
            (try file("empty.jsonl", ""), ":1: the history holds no round"),
            (
                try file(
                    "apps.jsonl",
                    "\(lines[0])\n\(lines[1].replacingOccurrences(of: "com.tencent.mm", with: "com.example.other"))\n"),
                ":2: a round of another app"
            ),
            (
                try file(
                    "verdict.jsonl",
                    lines[30].replacingOccurrences(of: #""verdict":"healthy""#, with: #""verdict":"fine""#) + "\n"),
                ":1: not a round"
            ),
        ]
        for (path, message) in cases {
            let result = try BuiltProducts.storerelease("timeline", path)
            #expect(result.status == 2 && result.exited, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("\(path)\(message)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aVersionNeverSeenIsExitOneNamingTheVersionsItHas() throws {
        let result = try BuiltProducts.storerelease("timeline", Self.history, "--version", "9.1")
        #expect(result.status == 1)
        #expect(result.stderr.contains("never saw version 9.1; it has 8.0.2, 8.0.9, 8.0.10"), "\(result.stderr)")
    }

    @Test func theWidthIsTheOneAskedForAndABadOneIsExitTwoNamingTheFlag() throws {
        let narrow = try BuiltProducts.storerelease("timeline", Self.history, "--width", "600")
        #expect(narrow.status == 0 && narrow.stdout.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="600""#))
        for bad in ["100", "5000", "6OO", "-600"] {
            let result = try BuiltProducts.storerelease("timeline", Self.history, "--width", bad)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("--width"), "\(bad): \(result.stderr)")
        }
    }

    @Test func aRoundDatedDecadesAwayIsExitTwoNamingTheRounds() throws {
        var lines = try String(contentsOfFile: Self.history, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[59] = lines[59].replacingOccurrences(of: #""takenAt":"2021-"#, with: #""takenAt":"1970-"#)
        let path = try file("1970.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try BuiltProducts.storerelease("timeline", path)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("\(path): the rounds span"), "\(result.stderr)")
        #expect(result.stderr.contains("from round 60 (1970-02-10T19:00:00Z) to round 121"), "\(result.stderr)")
    }

    /// `replay` of a history recorded before round 5 (no health counts): exit 2, naming it.
    @Test func replayOfAHistoryWithoutCountsIsExitTwoNamingIt() throws {
        let result = try BuiltProducts.storerelease("replay", Self.history)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(
            result.stderr.contains("timeline-history.jsonl: none of its 121 rounds kept its health windows' counts"))
        let bad = try BuiltProducts.storerelease("replay", Self.history, "--schedule", "1,2")
        #expect(bad.status == 2 && bad.stderr.contains("--schedule"), "\(bad.stderr)")
    }

    /// `replay` judges by the rollout's sequential rule, as `advance` does: a round whose window
    /// one look calls regressed (0.8% over 10,000 user-days against 0.5% over 50,000) is a hold,
    /// the data leaning towards a regression, and the rule would not have halted.
    @Test func replayJudgesByTheRolloutsSequentialRule() throws {
        let line =
            #"{"app":{"appStoreID":null,"bundleID":null,"packageName":"com.example.app"},"appStoreConnect":null,"googlePlay":{"releases":[{"status":"inProgress","userFraction":0.01,"version":"8.0.10","versionCode":81}],"track":"production"},"health":{"appStore":null,"googlePlay":{"version":"8.0.10","verdict":"unknown","crashRate":null,"anrRate":null,"candidate":{"version":"8.0.10","versionCode":81,"ageDays":1,"users":10000,"crashedUsers":80,"anrUsers":10},"baseline":{"version":"8.0.2","versionCode":80,"ageDays":1,"users":50000,"crashedUsers":250,"anrUsers":50}}},"storefronts":null,"storefrontsWithoutRelease":null,"takenAt":"2025-12-02T20:00:00Z"}"#
        let file = folder.appendingPathComponent("leaning.jsonl")
        try Data((line + "\n").utf8).write(to: file)
        let result = try BuiltProducts.storerelease("replay", file.path)
        #expect(result.status == 0, "\(result.stderr)")
        let replay = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let decisions = replay?["decisions"] as? [[String: Any]] ?? []
        #expect(decisions.map { $0["decision"] as? String } == ["hold"], "\(result.stdout)")
        let reasons = decisions.first?["reasons"] as? [String] ?? []
        #expect(reasons.contains { $0.contains("lean towards a regression") }, "\(reasons)")
        #expect(replay?["wouldHaltAt"] is NSNull, "\(result.stdout)")
    }
}
