import StoreReleaseKit

/// The history a command reads (`timeline`, `replay`): its one positional HISTORY, a watch
/// `--history` file.
enum HistoryInput {
    /// The one HISTORY given and the history read from it: a file that is not one exits 2, a
    /// read that fails 1.
    static func read(_ arguments: ParsedArguments) throws(CLIError) -> (path: String, history: ReleaseHistory) {
        let command = arguments.command
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw .usage("\(command): needs one HISTORY (a watch --history file); got \(arguments.positionals.count)")
        }
        do throws(ReleaseHistoryFileError) {
            return (path, try ReleaseHistoryFile(path: path).read())
        } catch {
            throw CLIError(error, command)
        }
    }
}
