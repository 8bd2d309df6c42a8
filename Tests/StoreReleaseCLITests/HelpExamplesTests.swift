import Foundation
import StoreReleaseTestSupport
import Testing

/// Every example in `storerelease --help` runs as printed, from the package's folder: the files
/// it names exist, its flags parse, and what its comment promises is in the output. Examples that
/// ask the App Store or Google Play run against the loopback server, with a Play token in the
/// environment.
@Suite struct HelpExamplesTests {
    /// The commands `storerelease --help` lists.
    static func commands() throws -> [String] {
        let help = try BuiltProducts.storerelease("--help").stdout
        let section = help.components(separatedBy: "COMMANDS:").last?.components(separatedBy: "\n\n").first ?? ""
        return section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The lines under EXAMPLES in a command's help.
    static func examples(of command: String) throws -> [String] {
        let help = try BuiltProducts.storerelease(command, "--help").stdout
        guard let section = help.components(separatedBy: "EXAMPLES:\n").dropFirst().first else { return [] }
        return section.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func theToolListsEveryCommandAndEachHasExamples() throws {
        let commands = try Self.commands()
        #expect(
            commands == [
                "compare", "sort", "lookup", "decide", "simulate", "parity", "wait", "tracks", "status", "manifest",
                "graph", "storefronts", "availability", "snapshot", "diff", "watch", "lag",
            ])
        for command in commands {
            #expect(try !Self.examples(of: command).isEmpty, "\(command) --help has no examples")
        }
    }

    @Test func everyExampleRunsAsPrinted() throws {
        let server = try LoopbackServer.shared.get()
        let baseURL = server.baseURL("ok").absoluteString
        let playBaseURL = server.baseURL("ok").absoluteString
        var ran = 0
        for command in try Self.commands() {
            for example in try Self.examples(of: command) {
                // `wait` polls until a release appears; its flags are covered by its own tests.
                if example.contains("storerelease wait") { continue }
                let parts = example.components(separatedBy: "#")
                var line = parts[0]
                if line.contains("storerelease lookup") || line.contains("--countries") {
                    for asking in ["storerelease lookup", "storerelease parity", "storerelease watch"] {
                        line = line.replacingOccurrences(of: asking, with: asking + " --base-url \(baseURL)")
                    }
                }
                if line.contains("--asc-") {
                    for asking in ["storerelease status", "storerelease parity", "storerelease availability"] {
                        line = line.replacingOccurrences(
                            of: asking, with: asking + " --asc-base-url \(server.baseURL("complete").absoluteString)")
                    }
                }
                if line.contains("--package") {
                    for asking in ["storerelease tracks", "storerelease parity", "storerelease watch"] {
                        line = line.replacingOccurrences(of: asking, with: asking + " --play-base-url \(playBaseURL)")
                    }
                }
                // A webhook of the examples is the loopback receiver's.
                line = line.replacingOccurrences(
                    of: "https://hooks.slack.com/services/T000/B000/XXXX",
                    with: server.hookURL("ok", token: "help").absoluteString)
                let result = try BuiltProducts.run(
                    executable: URL(fileURLWithPath: "/bin/sh"),
                    ["-c", "cd \"\(BuiltProducts.packageRoot.path)\" && \(line)"],
                    environment: [
                        "PATH": BuiltProducts.directory.path + ":/usr/bin:/bin",
                        "STORERELEASE_PLAY_TOKEN": "help-examples-token",
                    ])
                ran += 1
                #expect(result.exited, "\(example): crashed")
                // An example exits 0 unless its comment promises another status (`# exit 1, …`).
                let promises =
                    parts.count > 1
                    ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
                let status = promises.first { $0.hasPrefix("exit ") }.flatMap { Int32($0.dropFirst(5)) } ?? 0
                #expect(result.status == status, "\(example): exit \(result.status), not \(status):\n\(result.stderr)")
                for promised in promises where !promised.hasPrefix("exit ") {
                    #expect(result.stdout.contains(promised), "\(example): no \(promised) in:\n\(result.stdout)")
                }
            }
        }
        #expect(ran >= 12)
    }
}
