/// A failure the tool reports on stderr, with the exit code the contract gives it.
///
/// Every message names what was wrong: the flag, the argument, the line, the file.
enum CLIError: Error {
    /// Bad usage: an unknown flag, a missing value, the wrong number of arguments. Exit 2.
    case usage(String)
    /// Bad input: a malformed version, line, or file. Exit 2.
    case badInput(String)
    /// The work itself failed: network, not found, timed out. Exit 1.
    case failure(String)

    var exitCode: Int32 {
        switch self {
        case .usage, .badInput: 2
        case .failure: 1
        }
    }

    var message: String {
        switch self {
        case .usage(let message), .badInput(let message), .failure(let message): message
        }
    }
}
