import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease simulate [FILE|-]`: an event script through the update flow.
    static let simulate = Command(
        name: "simulate",
        synopsis: "simulate [FILE|-]",
        summary: "Runs an event script through the update flow and prints one JSON object per event.",
        discussion: """
            One event a line, '#' comments. The verbs are FakeAppUpdateManager's method names and
            the app's calls; a first line 'store appStore' switches to the App Store flow.
            Google Play's verbs: \(SimulateCommand.verbs(.googlePlay)).
            The App Store's verbs: \(SimulateCommand.verbs(.appStore)).
            Each output line has: line, event, accepted, error, announced, updateAvailability,
            installStatus, installErrorCode, availableVersionCode, bytesDownloaded,
            totalBytesToDownload, updateTypeInProgress, allowedUpdateTypes. An event the state
            does not allow is accepted: false with an error, and the state is unchanged.
            Exit status: 0 every event accepted; 1 an event was refused; 2 a malformed line
            (named) or an unreadable file. FILE '-' or no FILE reads stdin.
            """,
        options: [],
        examples: [
            "storerelease simulate Docs/Examples/scripts/flexible-update.txt",
            "printf 'setUpdateAvailable 42\\ncompleteUpdate\\n' | storerelease simulate   # exit 1, ERROR_DOWNLOAD_NOT_PRESENT",
        ],
        run: { arguments throws(CLIError) in
            guard arguments.positionals.count <= 1 else {
                throw .usage("simulate: takes one script file (or - for stdin); got \(arguments.positionals.count)")
            }
            let path = arguments.positionals.first ?? "-"
            let text = try InputFile.text(path, command: "simulate")
            let script: UpdateFlowScript
            do throws(UpdateFlowScriptError) {
                script = try UpdateFlowScript(parsing: text)
            } catch {
                throw .badInput("simulate: \(path == "-" ? "stdin" : path): \(error)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var output = ""
            var refused = false
            for step in script.run() {
                refused = refused || !step.accepted
                guard let data = try? encoder.encode(step) else {
                    throw .failure("simulate: cannot encode the step of line \(step.line)")
                }
                output += String(decoding: data, as: UTF8.self) + "\n"
            }
            StandardStreams.print(output)
            return refused ? 1 : 0
        }
    )
}

enum SimulateCommand {
    /// A store's verbs with their arguments, from the one vocabulary (`UpdateFlowVerb`).
    static func verbs(_ store: Store) -> String {
        UpdateFlowVerb.verbs(of: store).map(\.usage).joined(separator: ", ")
    }
}
