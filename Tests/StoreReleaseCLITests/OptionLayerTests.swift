import Foundation
import Testing

/// The typed option layer, through the built tool: a bad value of each type a flag carries is
/// an error that names the command and the flag, exit 2, nothing on stdout; `--format`'s words
/// come from one table per command, in its help and in its error.
@Suite struct OptionLayerTests {
    static let lookup = payload("appstore-wechat-cn.json")
    static let track = payload("play-production.json")
    static let health = payload("health-play.json")
    static let decide = ["decide", "--installed", "8.0.1", "--lookup", lookup]
    static let parity = ["parity", "--lookup", lookup, "--play-track", track]

    static func payload(_ name: String) -> String {
        BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/\(name)").path
    }

    /// One bad value of each type, and the whole message it gets.
    @Test(arguments: [
        // Seconds, SecondsOrZero, Hours, Count, Fraction, LookupRate, Shard
        (
            ["tracks", "--package", "com.example.app", "--timeout", "0"],
            #"tracks: --timeout "0" is not a number of seconds (such as 10 or 0.5)"#
        ),
        (
            ["watch", "--state", "/nonexistent/s.json", "--lookup", lookup, "--interval", "-1"],
            #"watch: --interval "-1" is not a number of seconds (such as 10 or 0.5)"#
        ),
        (parity + ["--release-delay-hours", "x"], #"parity: --release-delay-hours "x" is not a number of hours"#),
        (
            ["watch", "--state", "/nonexistent/s.json", "--lookup", lookup, "--rounds", "0"],
            #"watch: --rounds "0" is not a whole number of at least 1"#
        ),
        (
            ["health", "--health-file", health, "--version", "8.0.10", "--max-crash-rate", "2"],
            #"health: --max-crash-rate "2" is not a fraction between 0 and 1 (0.0109 is 1.09%)"#
        ),
        // Numbers in plain decimals only: no hexadecimal (0x18 is 24), exponent or sign.
        (
            ["health", "--health-file", health, "--version", "8.0.10", "--max-crash-rate", "0x1p-4"],
            #"health: --max-crash-rate "0x1p-4" is not a fraction between 0 and 1 (0.0109 is 1.09%)"#
        ),
        (
            ["advance", "8.0.10", "--package", "com.example.app", "--step-hours", "0x18"],
            #"advance: --step-hours "0x18" is not a number of hours"#
        ),
        (
            ["advance", "8.0.10", "--package", "com.example.app", "--schedule", "0x15,0x30,100"],
            #"advance: --schedule: "0x15" is not a percentage (1,2,5,10,20,50,100)"#
        ),
        (
            ["advance", "8.0.10", "--package", "com.example.app", "--schedule", "1e-300,100"],
            #"advance: --schedule: "1e-300" is not a percentage (1,2,5,10,20,50,100)"#
        ),
        (
            ["lookup", "--id", "1", "--countries", "us", "--timeout", "+5"],
            #"lookup: --timeout "+5" is not a number of seconds (such as 10 or 0.5)"#
        ),
        (
            ["lookup", "--id", "1", "--countries", "us", "--lookups-per-minute", "0"],
            #"lookup: --lookups-per-minute "0" is not a number from 1 to 6000"#
        ),
        (
            ["lookup", "--id", "1", "--countries", "us", "--shard", "0/2"],
            #"lookup: --shard "0/2" is not K/N with 1 ≤ K ≤ N ≤ 64 (such as 2/9)"#
        ),
        // Version, VersionCode, Date
        (decide + ["--os-version", "x"], #"decide: --os-version "x": unexpected character "x" at offset 0"#),
        (["wait", "--version-code", "x"], #"wait: --version-code "x": unexpected character "x" at offset 0"#),
        (decide + ["--now", "x"], #"decide: --now "x" is not an ISO 8601 time (such as 2021-02-02T08:15:22Z)"#),
        // Storefronts, ids, URLs, Play names
        (["lookup", "--id", "1", "--country", "xx"], #"lookup: --country "xx" is not an App Store storefront"#),
        (
            ["lookup", "--id", "1", "--countries", "us,zz"],
            #"lookup: --countries: "zz" is not an App Store storefront"#
        ),
        (
            ["lookup", "--id", "1,,2"],
            #"lookup: --id: "" is not an App Store id (a positive number such as 414478124)"#
        ),
        (["lookup", "--id", "1", "--base-url", "http://example.com"], "lookup: --base-url: "),
        (
            ["tracks", "--package", "x"],
            #"tracks: --package "x" is not an Android package name (such as com.example.app)"#
        ),
        (parity + ["--track", ""], "parity: --track: "),
        // The words: entity, scheme, platform, until, update type, channel, notify format, store
        (
            ["lookup", "--id", "1", "--entity", "x"],
            #"lookup: --entity "x" is not an entity (software, ipadSoftware, macSoftware, tvSoftware)"#
        ),
        (["compare", "1", "2", "--scheme", "x"], #"compare: --scheme "x" is not a scheme (use appstore or semver)"#),
        (
            ["status", "--id", "1", "--asc-platform", "x"],
            #"status: --asc-platform "x" is not ios, macos, tvos or visionos"#
        ),
        (
            ["wait", "--version", "1", "--package", "com.example.app", "--until", "x"],
            #"wait: --until "x" is not live or complete"#
        ),
        (
            ["decide", "--installed", "1", "--play", track, "--type-in-progress", "x"],
            #"decide: --type-in-progress "x" is not flexible or immediate"#
        ),
        (
            decide + ["--install-channel", "x"],
            #"decide: --install-channel "x" is not one of appStore, testFlight, sandbox, debug"#
        ),
        (
            [
                "watch", "--state", "/nonexistent/s.json", "--lookup", lookup, "--notify", "https://example.com/h",
                "--notify-format", "x",
            ], #"watch: --notify-format "x" is not slack or json"#
        ),
        (["graph", "--store", "x"], #"graph: --store "x" is not googlePlay or appStore"#),
        (["manifest", "--platform", "x"], #"manifest: --platform "x" is not appStore or googlePlay"#),
        // Texts that must not be empty
        (
            decide + ["--install-id", " "],
            "decide: --install-id is empty: give the install's stable id (a UUID kept on the device)"
        ),
        (["watch", "--state", ""], "watch: --state is empty: name the file the snapshot is kept in"),
        // Formats
        (["graph", "--format", "x"], #"graph: --format "x" is not mermaid, dot or table"#),
        (["diff", "a", "b", "--format", "x"], #"diff: --format "x" is not json or markdown"#),
        (parity + ["--format", "x"], #"parity: --format "x" is not json, text or markdown"#),
        (["storefronts", "--format", "x"], #"storefronts: --format "x" is not json or text"#),
    ])
    func aBadValueNamesItsFlag(_ arguments: [String], _ message: String) throws {
        let result = try BuiltProducts.run("storerelease", arguments)
        #expect(result.exited && result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("storerelease: " + message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasSuffix("\n") && !result.stderr.contains("Fatal error"))
    }

    /// Every group's flags are read and checked before a file is opened or a client built: a bad
    /// flag is named (exit 2, nothing printed) beside a file that cannot be read, which is never
    /// reached.
    @Test(arguments: [
        (
            parity + ["--health-file", "/nonexistent/health.json", "--min-users", "0"],
            #"parity: --min-users "0" is not a whole number of at least 1"#
        ),
        (
            ["snapshot", "--lookup", lookup, "--health-file", "/nonexistent/health.json", "--max-anr-rate", "2"],
            #"snapshot: --max-anr-rate "2" is not a fraction between 0 and 1 (0.0109 is 1.09%)"#
        ),
        (
            [
                "watch", "--state", "/nonexistent/s.json", "--lookup", lookup, "--notify-file", "/nonexistent/url",
                "--confirm", "com.example.app",
            ], "watch: --confirm goes with --halt-on"
        ),
        (
            ["health", "--health-file", "/nonexistent/health.json", "--version", "8.0.10", "--asc-key-id", "a b"],
            #"health: --asc-key-id: the key id "a b" is empty or has white space"#
        ),
        (
            decide + ["--policy", "/nonexistent/policy.json", "--os-version", "x"],
            #"decide: --os-version "x": unexpected character "x" at offset 0"#
        ),
        (
            [
                "advance", "8.0.10", "--package", "com.example.app", "--state", lookup, "--health-file",
                "/nonexistent/health.json", "--baseline", "x",
            ], #"advance: --baseline "x": unexpected character "x" at offset 0"#
        ),
    ])
    func flagsAreReadBeforeAnyFileIsOpened(_ arguments: [String], _ message: String) throws {
        try aBadValueNamesItsFlag(arguments, message)
    }

    /// Every command with `--format` refuses a word it does not have, naming the words it has,
    /// and its help lists the same words.
    @Test(arguments: [
        ("lag", "json|text", "json or text"), ("availability", "json|text", "json or text"),
        ("status", "json|text", "json or text"), ("storefronts", "json|text", "json or text"),
        ("diff", "json|markdown", "json or markdown"), ("parity", "json|text|markdown", "json, text or markdown"),
        ("health", "json|text|markdown", "json, text or markdown"),
        ("graph", "mermaid|dot|table", "mermaid, dot or table"), ("timeline", "svg|html", "svg or html"),
    ])
    func formatWordsComeFromOneTable(_ command: String, _ valueName: String, _ words: String) throws {
        let help = try BuiltProducts.run("storerelease", [command, "--help"])
        #expect(help.stdout.contains("  --format \(valueName)  "), "\(command) --help")
        let result = try BuiltProducts.run("storerelease", [command, "--format", "yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"\#(command): --format "yaml" is not \#(words)"#), "\(result.stderr)")
    }
}
