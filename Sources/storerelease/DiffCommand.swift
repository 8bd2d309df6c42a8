import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease diff OLD NEW [--format json|markdown]`.
    static let diff = Command(
        name: "diff",
        synopsis: "diff OLD NEW [--format json|markdown]",
        summary: "Prints the events between two snapshots, one JSON object a line.",
        discussion: """
            OLD and NEW are what 'storerelease snapshot' prints. Each event has id (the change and,
            after @, OLD's takenAt: the same change between the same snapshots always has the same
            id), type, store (appStore, googlePlay, appStoreConnect), at (NEW's
            takenAt) and its own keys: storefrontUpdated {country, from, to, lagSeconds},
            storefrontAdded and storefrontRemoved {country, version}, playReleaseAdded
            {versionCode, version, status, userFraction}, playReleaseRemoved {versionCode},
            playStatusChanged, playRolloutChanged and playReviewChanged {versionCode, from, to},
            ascStateChanged {version, from, to}, phasedReleaseChanged {version, from, to}. No
            change prints nothing. --format markdown writes a list for people.
            Exit status: 0 printed; 2 a file that is not a snapshot, snapshots of two apps, or bad
            flags.
            """,
        options: [DiffCommand.format],
        examples: [
            "storerelease diff Docs/Examples/payloads/snapshot-before.json Docs/Examples/payloads/snapshot-after.json"
                + "  # playRolloutChanged",
            "storerelease diff Docs/Examples/payloads/snapshot-before.json Docs/Examples/payloads/snapshot-after.json "
                + "--format markdown  # Play rollout of 81 went 20% → 50%",
        ],
        run: { arguments throws(CLIError) in
            let name = "diff"
            let format = try arguments.value(DiffCommand.format) ?? .json
            guard arguments.positionals.count == 2 else {
                throw .usage("diff: needs two snapshots, OLD and NEW; got \(arguments.positionals.count)")
            }
            let (old, new) = (
                try DiffCommand.read(arguments.positionals[0]), try DiffCommand.read(arguments.positionals[1])
            )
            if let conflict = new.conflict(with: old) {
                throw .badInput(
                    "diff: \(arguments.positionals[0]) and \(arguments.positionals[1]) are snapshots of two apps: "
                        + "OLD's \(conflict.dropFirst(4))")
            }
            let events = new.events(since: old)
            switch format {
            case .markdown: StandardStreams.print(events.map { "- \($0.sentence)\n" }.joined())
            case .json: for event in events { try JSONOutput.printLine(event) }
            }
            return 0
        }
    )
}

enum DiffCommand {
    /// A snapshot file, a failure naming it.
    static func read(_ path: String) throws(CLIError) -> ReleaseSnapshot {
        try SnapshotFile.read(path, source: "diff: \(path)", command: "diff")
    }

    static let format: Option<EventFormat> = CommonOptions.format(
        "JSON lines for machines (default), a Markdown list for people.")
}
