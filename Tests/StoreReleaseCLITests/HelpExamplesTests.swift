import Foundation
import StoreReleaseTestSupport
import Testing

/// Every example in `storerelease --help` runs as printed, from the package's folder: the files
/// it names exist, its flags parse, and what its comment promises is in the output. Examples that
/// ask the App Store, Google Play or App Store Connect run against the bundled fakes as
/// `Docs/Examples/README.md` tells a person to: `Scripts/fakes.py` started, and the flags it
/// printed added. No help text prints a leftover of its source.
@Suite struct HelpExamplesTests {
    /// The commands `storerelease --help` lists.
    static func commands() throws -> [String] {
        let help = try BuiltProducts.storerelease("--help").stdout
        let section = help.components(separatedBy: "COMMANDS:").last?.components(separatedBy: "\n\n").first ?? ""
        return section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The commands of `Tool.commands`, read from `Sources/storerelease/Tool.swift`.
    static func commandsInTheSource() throws -> [String] {
        let tool = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Sources/storerelease/Tool.swift"),
            encoding: .utf8)
        let list =
            tool.components(separatedBy: "static let commands: [Command] = [").dropFirst().first?
            .components(separatedBy: "]").first ?? ""
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }.map { String($0.drop { $0 == "." }) }
    }

    /// The lines under EXAMPLES in a command's help, up to the blank line after them.
    static func examples(of command: String) throws -> [String] {
        let help = try BuiltProducts.storerelease(command, "--help").stdout
        guard let section = help.components(separatedBy: "EXAMPLES:\n").dropFirst().first else { return [] }
        return (section.components(separatedBy: "\n\n").first ?? "").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// What no help text may print: a Swift interpolation or escape that was not made, a string
    /// delimiter, an optional's or a format's placeholder.
    static let leftovers = ["\\(", "\\u{", "\"\"\"", "\"#", "#\"", "Optional(", "%@", "<#"]

    @Test func noHelpTextPrintsALeftoverOfItsSource() throws {
        let names = try Self.commandsInTheSource()
        let listed = try Self.commands()
        #expect(names.count >= 17 && names == listed, "the overview lists Tool.commands")
        var helps = [
            ("storerelease --help", "storerelease ", try BuiltProducts.storerelease("--help")),
            ("storerelease help", "storerelease ", try BuiltProducts.storerelease("help")),
        ]
        for name in names {
            let usage = "USAGE: storerelease \(name) "
            helps.append(("storerelease \(name) --help", usage, try BuiltProducts.storerelease(name, "--help")))
            helps.append(("storerelease help \(name)", usage, try BuiltProducts.storerelease("help", name)))
        }
        for (asked, start, result) in helps {
            #expect(result.status == 0 && result.stdout.hasPrefix(start), "\(asked): \(result.stderr)")
            for line in result.stdout.split(separator: "\n") {
                for leftover in Self.leftovers where line.contains(leftover) {
                    Issue.record("\(asked) prints \(leftover): \(line)")
                }
            }
        }
    }

    @Test func theToolListsEveryCommandAndEachHasExamples() throws {
        let commands = try Self.commands()
        #expect(
            commands == [
                "compare", "sort", "lookup", "decide", "simulate", "parity", "wait", "tracks", "status", "manifest",
                "graph", "storefronts", "availability", "snapshot", "diff", "watch", "timeline", "lag", "health",
                "halt",
                "resume", "complete", "recall", "advance", "replay",
            ])
        for command in commands {
            #expect(try !Self.examples(of: command).isEmpty, "\(command) --help has no examples")
        }
    }

    /// `Scripts/fakes.py` as a person starts it: the process, and the flags it printed
    /// (flag → the rest of its line).
    struct OfflineFakes {
        let process: Process
        let flags: [String: String]

        init() throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "Scripts/fakes.py"]
            process.currentDirectoryURL = BuiltProducts.packageRoot
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // It prints its flags, then says where they are documented, then serves.
            var text = ""
            while !text.contains("Docs/Examples/README.md") {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else {
                    throw Failure(description: "fakes.py exited after printing \(text.debugDescription)")
                }
                text += String(decoding: chunk, as: UTF8.self)
            }
            var flags: [String: String] = [:]
            for line in text.split(separator: "\n") where line.hasPrefix("  --") {
                let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
                if words.count == 2 { flags[String(words[0])] = String(words[1]) }
            }
            self.flags = flags
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        /// The value printed for a flag.
        func value(_ flag: String) -> String { flags[flag] ?? "" }
    }

    /// An example made to run against the fakes, as `Docs/Examples/README.md` says: `--base-url`
    /// for a command asking the lookup API, `--play-base-url` and `--play-token-file` with
    /// `--package` (`health`: `--play-reporting-base-url`), `--asc-base-url` with App Store Connect
    /// flags, the fakes' webhook for a real one.
    static func offline(_ example: String, fakes: OfflineFakes) -> String {
        let commands = example.components(separatedBy: " | ").map { part -> String in
            guard let range = part.range(of: #"storerelease [a-z]+"#, options: .regularExpression) else { return part }
            let command = part[range].dropFirst("storerelease ".count)
            var added: [String] = []
            let asksTheLookupAPI =
                command == "lookup"
                || ((part.contains("--id ") || part.contains("--bundle-id ")) && part.contains("--countries"))
            if asksTheLookupAPI { added.append("--base-url \(fakes.value("--base-url"))") }
            if part.contains("--package "), command == "health" {
                added.append("--play-reporting-base-url \(fakes.value("--play-reporting-base-url"))")
                added.append("--play-token-file \(fakes.value("--play-token-file"))")
            } else if part.contains("--package ") {
                added.append("--play-base-url \(fakes.value("--play-base-url"))")
                added.append("--play-token-file \(fakes.value("--play-token-file"))")
            }
            if part.contains("--asc-") { added.append("--asc-base-url \(fakes.value("--asc-base-url"))") }
            return part.replacingCharacters(in: range, with: ([String(part[range])] + added).joined(separator: " "))
        }
        return commands.joined(separator: " | ").replacingOccurrences(
            of: "--notify https://hooks.slack.com/services/T000/B000/XXXX", with: "--notify \(fakes.value("--notify"))")
    }

    @Test func everyExampleRunsAsPrintedAgainstTheFakesOfTheExamplesGuide() throws {
        let fakes = try OfflineFakes()
        defer { if fakes.process.isRunning { fakes.process.terminate() } }
        for flag in [
            "--base-url", "--play-base-url", "--play-reporting-base-url", "--asc-base-url", "--notify",
            "--play-token-file", "--asc-token-file",
        ] {
            #expect(
                fakes.value(flag).hasPrefix("http://127.0.0.1:") || flag.hasSuffix("-file"), "fakes.py printed \(flag)")
        }
        var ran = 0
        for command in try Self.commands() {
            for example in try Self.examples(of: command) {
                let parts = example.components(separatedBy: "#")
                let line = Self.offline(parts[0], fakes: fakes)
                // Every example ends against the fakes (`wait` too: what it waits for is there); one
                // that polls on is ended after two minutes (status 124) and fails.
                let result = try BuiltProducts.run(
                    executable: URL(fileURLWithPath: "/usr/bin/timeout"),
                    ["120", "/bin/sh", "-c", "cd \"\(BuiltProducts.packageRoot.path)\" && \(line)"],
                    environment: ["PATH": BuiltProducts.directory.path + ":/usr/bin:/bin"])
                ran += 1
                #expect(result.exited, "\(example): crashed")
                #expect(result.status != 124, "\(example): still running after two minutes against the fakes")
                // An example exits 0 unless its comment promises another status (`# exit 1, …`).
                let promises =
                    parts.count > 1
                    ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
                let status = promises.first { $0.hasPrefix("exit ") }.flatMap { Int32($0.dropFirst(5)) } ?? 0
                #expect(result.status == status, "\(line): exit \(result.status), not \(status):\n\(result.stderr)")
                for promised in promises where !promised.hasPrefix("exit ") {
                    #expect(result.stdout.contains(promised), "\(example): no \(promised) in:\n\(result.stdout)")
                }
            }
        }
        #expect(ran >= 12)
        // Ctrl-C stops the fakes, and the test credentials go with them.
        fakes.process.interrupt()
        try waitUntil("fakes.py stops on Ctrl-C", deadline: .seconds(20)) { !fakes.process.isRunning }
        #expect(fakes.process.terminationStatus == 0)
        let folder = URL(fileURLWithPath: fakes.value("--play-token-file")).deletingLastPathComponent()
        #expect(!FileManager.default.fileExists(atPath: folder.path), "\(folder.path) is left behind")
    }
}
