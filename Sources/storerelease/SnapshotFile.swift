import Foundation
import StoreReleaseKit

/// A snapshot file named on the command line (`diff OLD NEW`, `lag STATE`, `snapshot --previous`).
enum SnapshotFile {
    /// The snapshot in `path`; a failure starts with `source` (`snapshot: --previous x.json`).
    static func read(_ path: String, source: String, command: String) throws(CLIError) -> ReleaseSnapshot {
        let data = Data(try InputFile.text(path, command: command).utf8)
        return try JSONProblem.decoding(source, as: "not a snapshot", in: data) {
            try StrictJSON.decode(ReleaseSnapshot.self, from: data)
        }
    }
}
