import Foundation

/// Reading an input file named on the command line, or stdin for `-`.
enum InputFile {
    /// The file's text (UTF-8).
    ///
    /// - Throws: ``CLIError/badInput(_:)`` naming the file when it cannot be read or is not UTF-8.
    static func text(_ path: String, command: String) throws(CLIError) -> String {
        let bytes: [UInt8]
        if path == "-" {
            bytes = try StandardStreams.readAllInput()
        } else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            // A FileHandle reads pipes and process substitutions too, which contents(atPath:) does not.
            guard exists, !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path),
                let data = try? handle.readToEnd() ?? Data()
            else {
                let reason = !exists ? "no such file" : (isDirectory.boolValue ? "it is a folder" : "it cannot be read")
                throw .badInput("\(command): cannot read \(path.debugDescription): \(reason)")
            }
            bytes = Array(data)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .badInput("\(command): \(path == "-" ? "stdin" : path.debugDescription) is not UTF-8 text")
        }
        return text
    }
}
