import Foundation
import StoreReleaseKit

/// The lookup client the App Store flags make, and what its failures exit with.
enum AppStoreOptions {
    /// A client for `--base-url`, with the given timeout and cache-busting.
    static func client(
        _ arguments: ParsedArguments, command: String, timeout: Duration = .seconds(10), bustsCaches: Bool = false
    ) throws(CLIError) -> AppStoreLookupClient {
        let configuration = AppStoreLookupClient.Configuration(
            baseURL: try arguments.baseURL(command: command), timeout: timeout, bustsCaches: bustsCaches)
        do throws(AppStoreLookupError) {
            return try AppStoreLookupClient(configuration: configuration)
        } catch {
            throw .usage("\(command): \(error)")
        }
    }

    /// The app `--id` or `--bundle-id` names: exactly one of them, one id.
    static func app(_ arguments: ParsedArguments, command: String) throws(CLIError) -> AppStoreApp {
        let ids = try arguments.appStoreIDs(command: command)
        let bundleID = arguments.value("--bundle-id")
        guard (ids == nil) != (bundleID == nil), ids?.count ?? 1 == 1 else {
            throw .usage("\(command): give one of --id ID or --bundle-id ID")
        }
        if let id = ids?.first { return .id(id) }
        return .bundleID(bundleID ?? "")
    }

    /// The CLI error for a failed lookup: bad requests exit 2, everything else 1.
    static func failure(_ error: AppStoreLookupError, command: String) -> CLIError {
        if case .invalidRequest(let message) = error { return .usage("\(command): \(message)") }
        return .failure("\(command): \(error)")
    }
}

/// A stored lookup named on the command line.
enum StoredLookupFile {
    /// The releases in the file (``StoredLookup/releases(in:)``), a failure naming the flag and file.
    static func releases(_ path: String, flag: String, command: String) throws(CLIError) -> [StoreRelease] {
        let data = Data(try InputFile.text(path, command: command).utf8)
        let source = "\(command): \(flag) \(path == "-" ? "stdin" : path)"
        return try JSONProblem.decoding(source, as: "not a lookup response", in: data) {
            try StoredLookup.releases(in: data)
        }
    }
}
