import Foundation
import StoreReleaseKit

/// One subcommand: its table of options, its help, and the few lines that run it.
struct Command: Sendable {
    let name: String
    /// The usage line after `storerelease `.
    let synopsis: String
    /// One line for the tool's overview.
    let summary: String
    /// What it does, prints, and exits with; shown by `--help`.
    let discussion: String
    /// The table the parser checks and help lists, built from the command's groups and options.
    let options: [OptionSpec]
    let examples: [String]
    let run: @Sendable (ParsedArguments) async throws(CLIError) -> Int32
    /// The same work without Swift concurrency, for a command that awaits nothing: `main.swift`
    /// runs it before the concurrency runtime starts its threads (a tenth of a one-shot
    /// command's start-up; Benchmarks.md).
    let runNow: (@Sendable (ParsedArguments) throws(CLIError) -> Int32)?

    /// A command whose table is `options`: its groups' tables and its own options, in help's order.
    init(
        name: String, synopsis: String, summary: String, discussion: String, options: [any OptionDeclarations],
        examples: [String], run: @escaping @Sendable (ParsedArguments) async throws(CLIError) -> Int32,
        runNow: (@Sendable (ParsedArguments) throws(CLIError) -> Int32)? = nil
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.discussion = discussion
        self.options = OptionTable(options).specs
        self.examples = examples
        self.run = run
        self.runNow = runNow
    }

    /// The full `--help` text.
    var help: String {
        var lines = ["USAGE: storerelease \(synopsis)", "", summary, "", discussion, "", "OPTIONS:"]
        let rows =
            options.map { option in
                (option.valueName.map { "\(option.name) \($0)" } ?? option.name, option.help)
            } + [("-h, --help", "Show this help.")]
        let width = rows.map(\.0.count).max() ?? 0
        for (flag, help) in rows {
            lines.append("  " + flag.padding(to: width) + "  " + help)
        }
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"] + examples.map { "  " + $0 } + ["", offlineHelp]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How to run the examples without the network: the bundled fakes (`Scripts/fakes.py`,
    /// see `Docs/Examples/README.md`) and the base-URL flags of the commands the examples run.
    var offlineHelp: String {
        let run = Set(
            examples.flatMap { example in
                example.components(separatedBy: "storerelease ").dropFirst().compactMap {
                    $0.split(separator: " ").first
                }
            }
            .map(String.init))
        let taken = Tool.commands.filter { run.contains($0.name) }.flatMap(\.options).map(\.name)
        let flags = [
            AppStoreOptions.baseURL.name, PlayOptions.baseURL.name, PlayReportingOptions.baseURL.name,
            AppStoreConnectOptions.baseURL.name,
        ].filter(taken.contains)
        guard let last = flags.last else {
            return "Try it offline: these examples need no network (run them from the package's folder)."
        }
        let named = flags.count == 1 ? last : flags.dropLast().joined(separator: ", ") + " and " + last
        return """
            Try it offline: python3 Scripts/fakes.py (from the package's folder) serves the bundled
            fakes and prints the \(named) to add to these examples,
            with test credentials; see Docs/Examples/README.md.
            """
    }
}

extension String {
    /// The string padded with spaces on the right to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

extension Command {
    /// A command that awaits nothing: ``runNow`` is `run`, and `run` calls it.
    init(
        name: String, synopsis: String, summary: String, discussion: String, options: [any OptionDeclarations],
        examples: [String], runNow: @escaping @Sendable (ParsedArguments) throws(CLIError) -> Int32
    ) {
        self.init(
            name: name, synopsis: synopsis, summary: summary, discussion: discussion, options: options,
            examples: examples, run: { arguments throws(CLIError) in try runNow(arguments) }, runNow: runNow)
    }
}
