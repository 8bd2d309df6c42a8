import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading an input file named on the command line, or stdin for `-`: bounded, and a UTF-8
/// byte-order mark at the start skipped.
enum InputFile {
    /// The largest input file read by default: far above any real payload, policy or script.
    static let defaultMaximumSize = 16 << 20

    /// The file's text (UTF-8), without a leading byte-order mark.
    ///
    /// - Throws: ``CLIError/badInput(_:)`` naming the file when it cannot be read, is larger than
    ///   `maximumSize` (a stream such as `/dev/zero` included), or is not UTF-8. Its content is
    ///   never part of the message.
    static func text(_ path: String, command: String, maximumSize: Int = defaultMaximumSize) throws(CLIError) -> String
    {
        let name = path == "-" ? "stdin" : path.debugDescription
        let descriptor: Int32
        if path == "-" {
            descriptor = 0
        } else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            guard exists, !isDirectory.boolValue else {
                throw .badInput("\(command): cannot read \(name): \(exists ? "it is a folder" : "no such file")")
            }
            // open(2) reads pipes and process substitutions too, which contents(atPath:) does not.
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else {
                throw .badInput("\(command): cannot read \(name): \(String(cString: strerror(errno)))")
            }
        }
        defer { if descriptor != 0 { close(descriptor) } }
        guard var bytes = try StandardStreams.readAll(from: descriptor, limit: maximumSize) else {
            throw .badInput("\(command): \(name) is larger than \(sizeText(maximumSize)), the limit for an input file")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .badInput("\(command): \(name) is not UTF-8 text")
        }
        return text
    }

    /// `16 MiB`, `64 KiB`.
    static func sizeText(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
