import Foundation
import Testing

/// The command-line contract of `compare`, `sort` and the tool itself, run against the built
/// binary: exact stdout, exit status, and a message on stderr that names what was wrong.
@Suite struct CompareCommandTests {
    @Test(arguments: [
        (["8.0.2", "8.0.10"], "<"), (["8.0.10", "8.0.2"], ">"), (["1.2", "1.2.0"], "="),
        (["01.2", "1.2"], "="), (["2.0", "1.9.9"], ">"), (["7.13.88.4021", "7.13.88.4022"], "<"),
        (["99999999999999999999999.1", "99999999999999999999998.9"], ">"),
        (["1.0.0", "1.0.0-rc.1", "--scheme", "semver"], ">"), (["--scheme=semver", "1.0.0+a", "1.0.0+b"], "="),
        (["1.0.0-alpha", "1.0.0-alpha.1", "--scheme", "SemVer"], "<"), (["--scheme", "appstore", "1", "1.0"], "="),
        (["--", "1", "2"], "<"),
    ])
    func printsExactlyTheOrder(_ arguments: [String], _ expected: String) throws {
        let result = try BuiltProducts.run("storerelease", ["compare"] + arguments)
        #expect(result.status == 0)
        #expect(result.stdout == expected + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [
        (["1..2", "1"], #"storerelease: compare: version A "1..2": empty component at offset 2"#),
        (["1", "abc"], #"storerelease: compare: version B "abc": unexpected character "a" at offset 0"#),
        (["1.4 (18)", "1"], #"version A "1.4 (18)": unexpected character " " at offset 3"#),
        (["1.2", "1.2.3", "--scheme", "semver"], #"version A "1.2": SemVer needs exactly 3 core components"#),
        (["1", "", "--scheme", "appstore"], #"version B "": empty version"#),
        (["1"], "compare: needs two versions, A and B; got 1"),
        (["1", "2", "3"], "compare: needs two versions, A and B; got 3"),
        (["1", "2", "--shceme", "semver"], "compare: unknown flag --shceme (did you mean --scheme?)"),
        (["1", "2", "--scheme"], "compare: --scheme needs a value (appstore|semver)"),
        (["1", "2", "--scheme", "calver"], #"compare: --scheme "calver" is not a scheme (use appstore or semver)"#),
        (["1", "2", "--scheme", "semver", "--scheme", "semver"], "compare: --scheme is given more than once"),
        (["-1", "2"], "compare: unknown flag -1"),
        (["--", "-1", "2"], #"version A "-1": unexpected character "-" at offset 0"#),
    ])
    func badInputExitsTwoNamingTheProblem(_ arguments: [String], _ message: String) throws {
        let result = try BuiltProducts.run("storerelease", ["compare"] + arguments)
        #expect(result.exited && result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.hasSuffix("\n") && !result.stderr.contains("Fatal error"))
    }
}

@Suite struct SortCommandTests {
    @Test func sortsStdinKeepingLinesAsRead() throws {
        let result = try BuiltProducts.storerelease("sort", stdin: "8.0.10\n8.0.2\r\n1.2.0\n1.2\n01.2")
        #expect(result.status == 0)
        #expect(result.stdout == "1.2.0\n1.2\n01.2\n8.0.2\r\n8.0.10\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func reverseIsNewestFirstAndStillStable() throws {
        let result = try BuiltProducts.storerelease("sort", "--reverse", stdin: "1.2\n2\n1.2.0\n10\n")
        #expect(result.stdout == "10\n2\n1.2\n1.2.0\n")
    }

    @Test func sortsSemVerWithTheSchemeFlag() throws {
        let result = try BuiltProducts.storerelease(
            "sort", "--scheme", "semver", stdin: "1.0.0\n1.0.0-rc.1\n1.0.0-beta.11\n1.0.0-beta.2\n")
        #expect(result.stdout == "1.0.0-beta.2\n1.0.0-beta.11\n1.0.0-rc.1\n1.0.0\n")
    }

    @Test func emptyInputPrintsNothing() throws {
        let result = try BuiltProducts.storerelease("sort")
        #expect(result.status == 0 && result.stdout.isEmpty)
    }

    @Test func aLargeInputComesOutSortedAndWhole() throws {
        var random = UInt64(42)
        var lines: [String] = []
        for _ in 0..<20_000 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            lines.append("\(random >> 60).\((random >> 40) % 100).\((random >> 20) % 1000)")
        }
        let result = try BuiltProducts.storerelease("sort", stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        let output = result.stdout.split(separator: "\n").map(String.init)
        #expect(output.sorted() == lines.sorted(), "every line comes out once")
        let keys = output.map { $0.split(separator: ".").map { Int($0) ?? -1 } }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) || $0 == $1 })
    }

    @Test(arguments: [
        ("1\n\n2\n", [String](), "storerelease: sort: line 2: empty line (every line must be a version)"),
        ("1.0\n2.0\n2.0 beta\n", [], #"sort: line 3: "2.0 beta": unexpected character " " at offset 3"#),
        ("1.0.0\n1.0\n", ["--scheme", "semver"], #"sort: line 2: "1.0": SemVer needs exactly 3 core components"#),
        (
            "1\n", ["versions.txt"],
            #"sort: reads versions from standard input and takes no arguments; got "versions.txt""#
        ),
        ("1\n", ["--reverse", "--reverse"], "sort: --reverse is given more than once"),
        ("1\n", ["--reverse=yes"], "sort: --reverse takes no value"),
        ("1\n", ["--revrse"], "sort: unknown flag --revrse (did you mean --reverse?)"),
    ])
    func badInputExitsTwoNamingTheLineOrFlag(_ stdin: String, _ arguments: [String], _ message: String) throws {
        let result = try BuiltProducts.run("storerelease", ["sort"] + arguments, stdin: stdin)
        #expect(result.exited && result.status == 2)
        #expect(result.stdout.isEmpty, "nothing is printed when a line is bad")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}

@Suite struct ToolTests {
    @Test func helpListsEveryCommand() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try BuiltProducts.run("storerelease", arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: storerelease <command>"))
            let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            #expect(lines.contains("compare Compares version A with version B and prints exactly one of <, = or >."))
            #expect(lines.contains("sort Reads versions one a line on stdin and prints them sorted, oldest first."))
            #expect(lines.contains("lookup Looks apps up in the App Store and prints their releases as a JSON array."))
            #expect(
                lines.contains(
                    "simulate Runs an event script through the update flow and prints one JSON object per event."))
            #expect(result.stdout.contains("Exit status: 0 success, 1 the work failed, 2 bad usage or bad input."))
        }
    }

    @Test(arguments: ["compare", "sort", "lookup", "decide", "simulate", "parity", "wait"])
    func everyCommandHasHelp(_ command: String) throws {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command], [command, "1", "--help"]] {
            let result = try BuiltProducts.run("storerelease", arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("USAGE: storerelease \(command) "))
            #expect(result.stdout.contains("OPTIONS:"))
            #expect(result.stdout.contains("-h, --help"))
            #expect(result.stdout.contains("EXAMPLES:"))
        }
    }

    @Test func noArgumentsPrintsTheOverviewToStderrAndExitsTwo() throws {
        let result = try BuiltProducts.storerelease()
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("COMMANDS:"))
    }

    @Test func theREADMEsFirstCommandPrintsWhatTheREADMEShows() throws {
        let readme = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let command = try #require(readme.split(separator: "\n").first { $0.hasPrefix("swift run storerelease ") })
        let line = "storerelease " + command.dropFirst("swift run storerelease ".count)
        let shown = try #require(
            readme.components(separatedBy: "because the stores do not agree:\n\n```\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"\(BuiltProducts.packageRoot.path)\" && \(line)"],
            environment: ["PATH": BuiltProducts.directory.path + ":/usr/bin:/bin"])
        #expect(result.status == 1, "the README says it exits 1")
        #expect(result.stdout == shown, "the README shows another output:\n\(result.stdout)")
    }

    @Test func storefrontsPrintsTheCatalogue() throws {
        let json = try BuiltProducts.storerelease("storefronts")
        #expect(json.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]])
        #expect(list.count >= 175 && list.contains(["country": "cn", "alpha3": "CHN", "name": "China mainland"]))
        let text = try BuiltProducts.storerelease("storefronts", "--format", "text")
        #expect(text.status == 0 && text.stdout.contains("\nus   USA  United States\n"))
        let bad = try BuiltProducts.storerelease("storefronts", "--format", "csv")
        #expect(bad.status == 2 && bad.stderr.contains(#"--format "csv" is not json or text"#))
    }

    @Test func anUnknownCommandIsNamed() throws {
        let result = try BuiltProducts.storerelease("frobnicate")
        #expect(result.status == 2)
        #expect(
            result.stderr
                == #"storerelease: unknown command "frobnicate" (commands: compare, sort, lookup, decide, simulate, parity, wait, tracks, status, manifest, graph, storefronts, availability, snapshot, diff, watch, timeline, lag, health, halt, resume, complete, recall, advance, replay; see storerelease --help)"#
                + "\n")
        let typo = try BuiltProducts.storerelease("sotr", "1.2")
        #expect(typo.status == 2 && typo.stdout.isEmpty)
        #expect(typo.stderr == #"storerelease: unknown command "sotr" (did you mean sort?)"# + "\n")
        let help = try BuiltProducts.storerelease("help", "sotr")
        #expect(help.status == 2 && help.stderr.contains(#"unknown command "sotr""#))
    }

    @Test func versionIsPrinted() throws {
        let result = try BuiltProducts.storerelease("--version")
        #expect(result.status == 0 && result.stdout.hasPrefix("storerelease "))
    }
}
