import Foundation
import StoreReleaseKit

/// A bearer token given on the command line: from a file flag, else an environment variable.
enum TokenInput {
    /// The token, or `nil` when neither the file `flag` names (`path`) nor the variable
    /// (non-empty) gives one.
    ///
    /// - Throws: ``CLIError/badInput(_:)`` naming the file or the variable when it holds no
    ///   token; the content is never part of the message.
    static func read(_ path: String?, flag: String, variable: String, command: String) throws(CLIError)
        -> BearerToken?
    {
        let source: String
        let text: String
        if let path {
            source = "\(flag) \(path)"
            text = try InputFile.text(path, command: command, maximumSize: 64 << 10)
        } else if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty {
            source = "$\(variable)"
            text = value
        } else {
            return nil
        }
        do throws(BearerTokenError) {
            return try BearerToken(text)
        } catch {
            throw .badInput("\(command): \(source): \(error)")
        }
    }
}
