import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether two paths name one file, however they are spelled.
///
/// `watch --state s.json --history ./s.json` (or a link to it) would have the history wait for
/// the lock the state holds: the paths are compared as files, not as strings.
package enum FileIdentity {
    /// Whether `a` and `b` are the same file: the same device and inode when both exist (links
    /// followed), else the same path once each folder's links are resolved.
    package static func same(_ a: String, _ b: String) -> Bool {
        if let one = inode(a), let other = inode(b) { return one == other }
        return resolved(a) == resolved(b)
    }

    /// The device and inode of the file at `path`, links followed; `nil` when there is none.
    private static func inode(_ path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// `path` with its folder's real path (links resolved), or as written when that fails.
    private static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        guard let real = realpath(folder, nil) else { return url.path }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real)).appendingPathComponent(url.lastPathComponent).path
    }
}
