import Foundation
import StoreReleaseCore
import StoreReleaseModels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The v2 manifest recall writes: the served file itself, replaced only as it was read.
///
/// The manifest is often a link into what a web server serves (`manifest.json` →
/// `releases/current.json`). It is written *through* the link: the file the link names is
/// replaced whole (atomically, beside itself), so the link stays and what is served gets the
/// block. The new file keeps the old one's mode, user and group (a `0660` file of group `www`
/// stays so). The write holds an exclusive lock on `FILE.lock` beside the file, and happens only
/// when the file still holds what the plan was made from: two recalls at once, or an edit by
/// hand in between, are refused naming the change, never lost.
enum ManifestFile {
    /// Replaces the manifest at `path` (through a link) with `manifest`, if it still holds `read`.
    ///
    /// - Throws: ``ReleaseActorError/manifest(_:)`` naming what stopped it; the file is untouched.
    static func write(_ manifest: JSONValue, to path: String, ifStill read: JSONValue) throws(ReleaseActorError) {
        guard let target = realpath(path, nil) else {
            throw .manifest("manifest \(path) cannot be found: \(String(cString: strerror(errno)))")
        }
        let file = String(cString: target)
        free(target)
        let shown = file == path ? path : "\(path) (→ \(file))"
        let lock: AtomicFile.Lock?
        do throws(AtomicFile.Failure) {
            lock = try AtomicFile.lock(file + ".lock", waiting: false)
        } catch {
            throw .manifest("manifest \(shown): cannot lock \(error.path): \(error.reason); the file was not changed")
        }
        guard let lock else {
            throw .manifest(
                "manifest \(shown) is being written by another process (\(file).lock is held); the file was not "
                    + "changed: run again when it is done")
        }
        defer { withExtendedLifetime(lock) {} }
        var status = stat()
        guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .manifest("manifest \(shown) is not a regular file; the file was not changed")
        }
        let now = try current(file, shown: shown)
        guard now == read else {
            let blocked =
                now["blockedVersions"].map { "blockedVersions is now " + String(decoding: $0.data, as: UTF8.self) }
                ?? "it was edited"
            throw .manifest(
                "manifest \(shown) changed since it was read (\(blocked)); the file was not changed: run the recall "
                    + "again to plan from what it holds now")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data: Data
        do {
            data = try encoder.encode(manifest)
        } catch {
            throw .manifest("manifest \(shown) cannot be written as JSON: \(error)")
        }
        data.append(UInt8(ascii: "\n"))
        do throws(AtomicFile.Failure) {
            try AtomicFile.replace(
                file, with: data, owner: (mode: status.st_mode, user: status.st_uid, group: status.st_gid))
        } catch {
            throw .manifest(
                "manifest \(shown): cannot \(error.operation) \(error.path): \(error.reason); the file was not changed")
        }
    }

    /// The manifest's JSON as it is now.
    private static func current(_ file: String, shown: String) throws(ReleaseActorError) -> JSONValue {
        let data: Data?
        do throws(RegularFile.Problem) {
            data = try RegularFile.contents(file, limit: 1 << 20)
        } catch {
            throw .manifest("manifest \(shown): \(error); the file was not changed")
        }
        guard let data else { throw .manifest("manifest \(shown) is gone; nothing was written") }
        do {
            return try JSONValue(json: data)
        } catch {
            throw .manifest("manifest \(shown) is no longer JSON (\(error)); the file was not changed")
        }
    }
}
