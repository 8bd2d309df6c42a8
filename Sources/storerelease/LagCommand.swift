import StoreReleaseKit

extension Command {
    /// `storerelease lag STATE [--format json|text]`.
    static let lag = Command(
        name: "lag",
        synopsis: "lag STATE [--format json|text]",
        summary: "Prints how long each version took to reach each storefront after App Store Connect approved it.",
        discussion: """
            STATE is a watch's --state file (or any snapshot). For each version the watch saw App
            Store Connect approve (in another state first, then ready for distribution): {version, readyAt, storefronts: {cc: seconds},
            medianSeconds, worstSeconds, missing: [cc…]}, oldest version first; missing are the
            storefronts still serving an older version. The times are when a round first saw
            each thing, so the resolution is the watch's interval: the number to set
            releaseDelayHours from.
            Exit status: 0 printed; 2 a file that is not a snapshot, or bad flags.
            """,
        options: [LagCommand.format],
        examples: ["storerelease lag Docs/Examples/payloads/watch-state.json --format text  # median"],
        run: { arguments throws(CLIError) in
            let format = try arguments.value(LagCommand.format) ?? .json
            guard arguments.positionals.count == 1 else {
                throw .usage("lag: needs one state file; got \(arguments.positionals.count)")
            }
            let path = arguments.positionals[0]
            let state = try SnapshotFile.read(path, source: "lag: \(path)", command: arguments.command)
            let report = PropagationLag.report(state)
            switch format {
            case .text:
                let lines = report.map(\.line)
                StandardStreams.print(
                    (lines.isEmpty ? ["no version was seen ready in App Store Connect"] : lines).joined(separator: "\n")
                        + "\n")
            case .json: try JSONOutput.print(report)
            }
            return 0
        }
    )
}

enum LagCommand {
    static let format: Option<TextFormat> = CommonOptions.format(
        "A JSON array (default), or a line a version for people.")
}
