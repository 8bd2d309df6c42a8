import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease health`, run as a user runs it, on the health files of the help's examples.
@Suite struct HealthCommandTests {
    static let play = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/health-play.json").path
    static let apple = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/health-appstore.json")
        .path

    static func run(_ arguments: [String], stdin: String = "") throws -> BuiltProducts.Result {
        try BuiltProducts.run("storerelease", ["health"] + arguments, stdin: stdin)
    }

    static func object(_ result: BuiltProducts.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func aRegressionOnPlayExitsOneWithEveryKey() throws {
        let result = try Self.run(["--health-file", Self.play, "--version", "8.0.10"])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let object = try Self.object(result)
        #expect(Set(object.keys) == ["appStore", "googlePlay"] && object["appStore"] is NSNull)
        let play = try #require(object["googlePlay"] as? [String: Any])
        #expect(Set(play.keys) == ["source", "candidate", "baseline", "verdict", "reasons"])
        #expect(play["source"] as? String == "healthFile" && play["verdict"] as? String == "regressed")
        let candidate = try #require(play["candidate"] as? [String: Any])
        #expect(Set(candidate.keys) == ["version", "versionCode", "ageDays", "users", "crashRate", "anrRate"])
        #expect(candidate["version"] as? String == "8.0.10" && candidate["versionCode"] as? Int == 81)
        #expect(candidate["ageDays"] as? Int == 3 && candidate["users"] as? Int == 21000)
        #expect(candidate["anrRate"] is NSNull)
        let rate = try #require(candidate["crashRate"] as? [String: Double])
        // 441 of 21,000: 2.1%, Wilson [1.9147%, 2.3029%] (see ReleaseHealthRuleTests).
        #expect(rate["value"] == 0.021 && abs((rate["lower"] ?? 0) - 0.019147) < 1e-6)
        let baseline = try #require(play["baseline"] as? [String: Any])
        #expect(baseline["version"] as? String == "8.0.2" && baseline["ageDays"] as? Int == 3)
        #expect(baseline["users"] as? Int == 21000, "the baseline's first 3 days, not its 10")
        let reasons = try #require(play["reasons"] as? [String])
        #expect(reasons.contains { $0.contains("2.10% [1.91–2.30]") && $0.contains("0.60% [0.50–0.71]") })
    }

    @Test func textAndMarkdownPrintOneLineAStore() throws {
        let text = try Self.run(["--health-file", Self.play, "--version", "8.0.10", "--format", "text"])
        #expect(
            text.stdout
                == "Google Play 81 (8.0.10): 2.1% [1.9–2.3] of 21,000 user-days vs 0.6% for 80 at the same age: regressed\n"
        )
        let both = try Self.run([
            "--health-file", Self.apple, "--health-file", Self.play, "--version", "8.0.10", "--format", "markdown",
        ])
        #expect(both.status == 1)
        let lines = both.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("- App Store 8.0.10: 0.3%") && lines[0].hasSuffix("**healthy**"))
        #expect(lines[1].hasPrefix("- Google Play 81 (8.0.10)") && lines[1].hasSuffix("**regressed**"))
    }

    @Test func theFirstDayIsInsufficientDataAndAHealthyStoreExitsZero() throws {
        let first = try Self.run(["--health-file", Self.play, "--version", "81", "--now", "2021-02-01T23:00:00Z"])
        #expect(first.status == 1)
        let play = try #require(try Self.object(first)["googlePlay"] as? [String: Any])
        #expect(play["verdict"] as? String == "insufficientData")
        #expect((play["candidate"] as? [String: Any])?["users"] as? Int == 130)
        // 05:00 UTC on 2 February is 21:00 on 1 February in Play's time zone: its second day
        // has not begun there, so it is not counted (a UTC day would count it).
        let pacific = try Self.run(["--health-file", Self.play, "--version", "81", "--now", "2021-02-02T05:00:00Z"])
        let early = try #require(try Self.object(pacific)["googlePlay"] as? [String: Any])
        #expect((early["candidate"] as? [String: Any])?["users"] as? Int == 130)
        let next = try Self.run(["--health-file", Self.play, "--version", "81", "--now", "2021-02-02T08:00:00Z"])
        let later = try #require(try Self.object(next)["googlePlay"] as? [String: Any])
        #expect(((later["candidate"] as? [String: Any])?["users"] as? Int ?? 0) > 130)
        let healthy = try Self.run(["--health-file", Self.apple, "--version", "8.0.10", "--id", "414478124"])
        #expect(healthy.status == 0, "stderr: \(healthy.stderr)")
        #expect((try Self.object(healthy)["appStore"] as? [String: Any])?["verdict"] as? String == "healthy")
        let named = try Self.run(["--health-file", Self.play, "--version", "8.0.10", "--baseline", "8.0.7"])
        #expect(named.status == 1)
        #expect((try Self.object(named)["googlePlay"] as? [String: Any])?["verdict"] as? String == "unknown")
    }

    /// A health file whose first day is changed by `edit`, or the whole text replaced.
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("health-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let day =
        #"{"date": "2021-02-01", "version": "8.0.10", "versionCode": 81, "users": 100, "crashedUsers": 1, "anrUsers": null}"#

    static func health(_ day: String = day, store: String = "googlePlay", app: String = "com.tencent.mm") -> String {
        #"{"store": "\#(store)", "app": "\#(app)", "days": [\#(day)]}"#
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let file: String
        let flags: [String]
        let names: String
        var testDescription: String { name }
    }

    static let bad: [BadInput] = [
        .init(name: "min-users 0", file: health(), flags: ["--min-users", "0"], names: "--min-users \"0\""),
        .init(name: "min-users 1.5", file: health(), flags: ["--min-users", "1.5"], names: "--min-users"),
        .init(name: "crash ceiling", file: health(), flags: ["--max-crash-rate", "1.5"], names: "--max-crash-rate"),
        .init(name: "ANR ceiling", file: health(), flags: ["--max-anr-rate", "-0.1"], names: "--max-anr-rate"),
        .init(name: "version", file: health(), flags: ["--version", "8..0"], names: "--version"),
        .init(name: "baseline", file: health(), flags: ["--baseline", "x"], names: "--baseline"),
        .init(name: "format", file: health(), flags: ["--format", "csv"], names: "--format"),
        .init(
            name: "negative", file: health(day.replacingOccurrences(of: #""users": 100"#, with: #""users": -1"#)),
            flags: [], names: "days[0].users: -1 is negative"),
        .init(
            name: "crashed above users",
            file: health(day.replacingOccurrences(of: #""crashedUsers": 1"#, with: #""crashedUsers": 101"#)),
            flags: [], names: "days[0].crashedUsers: 101 is more than the day's 100 users"),
        .init(
            name: "ANR above users",
            file: health(day.replacingOccurrences(of: #""anrUsers": null"#, with: #""anrUsers": 101"#)),
            flags: [], names: "days[0].anrUsers"),
        .init(
            name: "date", file: health(day.replacingOccurrences(of: "2021-02-01", with: "2021-02-30")), flags: [],
            names: "days[0].date: \"2021-02-30\" is not a date YYYY-MM-DD"),
        .init(
            name: "bad version", file: health(day.replacingOccurrences(of: #""8.0.10""#, with: #""8.0.x""#)),
            flags: [], names: "days[0].version"),
        .init(
            name: "unknown key",
            file: health(day.replacingOccurrences(of: #""users""#, with: #""sessions": 1, "users""#)),
            flags: [], names: "\"sessions\" is not a key of a health day"),
        .init(
            name: "missing ANR key",
            file: health(day.replacingOccurrences(of: #", "anrUsers": null"#, with: "")), flags: [], names: "anrUsers"),
        .init(name: "store", file: health(store: "manifest"), flags: [], names: "store"),
        .init(
            name: "twice", file: health("\(day), \(day)"), flags: [], names: "2021-02-01 is counted twice for 8.0.10"),
        .init(name: "not JSON", file: "<html>", flags: [], names: "not JSON"),
        .init(
            name: "repeated key",
            file: health(day.replacingOccurrences(of: #""users": 100"#, with: #""users": 100, "users": 5"#)),
            flags: [], names: "the key \"users\" is given twice"),
        .init(
            name: "underflow",
            file: health(day.replacingOccurrences(of: #""crashedUsers": 1"#, with: #""crashedUsers": 1e-400"#)),
            flags: [], names: "too small for a number"),
        .init(
            name: "another package", file: health(), flags: ["--package", "com.other"], names: "--package com.other"),
        .init(
            name: "another App Store id", file: health(store: "appStore", app: "414478124"), flags: ["--id", "1"],
            names: "--id 1"),
    ]

    @Test(arguments: bad) func badInputExitsTwoNamingIt(_ row: BadInput) throws {
        let path = try Self.file(row.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var flags = row.flags
        if !flags.contains("--version") { flags += ["--version", "8.0.10"] }
        let result = try Self.run(["--health-file", path] + flags)
        #expect(result.status == 2, "stdout: \(result.stdout)")
        #expect(result.stderr.contains(row.names), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func twoFilesForOneStoreAndNoSourceAreUsageErrors() throws {
        let twice = try Self.run(["--health-file", Self.play, "--health-file", Self.play, "--version", "8.0.10"])
        #expect(twice.status == 2 && twice.stderr.contains("two health files for googlePlay"))
        let none = try Self.run(["--version", "8.0.10"])
        #expect(none.status == 2 && none.stderr.contains("--health-file"))
    }
}
