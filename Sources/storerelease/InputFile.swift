import Foundation
import StoreReleaseKit

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
    /// - Throws: ``CLIError/badInput(_:)`` naming the file when it cannot be read, is not a
    ///   regular file (a FIFO, a device, a folder: refused before anything waits on it), is larger
    ///   than `maximumSize` (stdin too, when it is a stream such as `/dev/zero`), or is not UTF-8.
    ///   Its content is never part of the message.
    static func text(_ path: String, command: String, maximumSize: Int = defaultMaximumSize) throws(CLIError) -> String
    {
        let name = path == "-" ? "stdin" : path.debugDescription
        let descriptor: Int32
        if path == "-" {
            descriptor = 0
        } else {
            // Opened without blocking and checked to be a regular file first: a FIFO would hold
            // open(2) until a writer came, a terminal or a socket the read. A stream goes to stdin.
            do throws(RegularFile.Problem) {
                descriptor = try RegularFile.open(path)
            } catch {
                var hint = ""
                if case .notAFile(let kind) = error, kind != "a folder" { hint = " (give - and send it to stdin)" }
                throw .badInput("\(command): cannot read \(name): \(error)\(hint)")
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
