import StoreReleaseKit

/// The history a command reads (`timeline`, `replay`): its one positional HISTORY, a watch
/// `--history` file.
enum HistoryInput {
    /// The one HISTORY given and the history read from it: a file that is not one exits 2, a
    /// read that fails 1.
    ///
    /// A torn last line (a watch stopped mid-write) is named on stderr: skipped, the lines before
    /// it are `used` ("drawn", "replayed").
    static func read(_ arguments: ParsedArguments, used: String) throws(CLIError) -> (
        path: String, history: ReleaseHistory
    ) {
        let command = arguments.command
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw .usage("\(command): needs one HISTORY (a watch --history file); got \(arguments.positionals.count)")
        }
        let history: ReleaseHistory
        do throws(ReleaseHistoryFileError) {
            history = try ReleaseHistoryFile(path: path).read()
        } catch {
            throw CLIError(error, command)
        }
        if let torn = history.tornLine {
            StandardStreams.printError(
                "\(command): \(path):\(torn) is torn (a watch stopped mid-write); skipped, the lines before it are \(used)\n"
            )
        }
        return (path, history)
    }
}
