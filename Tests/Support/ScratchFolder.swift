import Foundation

/// A folder of its own in the temporary directory, removed with everything in it when the last
/// test value holding it goes.
package final class ScratchFolder: Sendable {
    /// The folder.
    package let url: URL

    /// Makes `<temporary directory>/<prefix>-<UUID>`.
    package init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
