import Foundation
import StoreReleaseKit

/// The App Store flags the commands share, the client and the source they make, and what their
/// failures exit with.
enum AppStoreOptions {
    static let lookup = OptionSpec.value(
        "--lookup", "FILE[,FILE…]",
        "Stored lookups (API responses, or what storerelease lookup prints), one a storefront.")
    static let id = OptionSpec.value("--id", "ID", "The App Store id (the number in …/id414478124).")
    static let bundleID = OptionSpec.value("--bundle-id", "ID", "The bundle id (com.tencent.xin), instead of the id.")
    static let countries = OptionSpec.value(
        "--countries", "CC[,CC…]|all|sold",
        "The storefronts (cn, CHN), every storefront (all), or those App Store Connect says the app is sold in (sold).")
    static let country = OptionSpec.value("--country", "CC", "The storefront (cn, CHN); default us.")
    static let baseURL = OptionSpec.value(
        "--base-url", "URL", "The lookup API's base URL instead of https://itunes.apple.com (http only on loopback).")
    static let lookupsPerMinute = OptionSpec.value(
        "--lookups-per-minute", "N", "The most lookups this process sends a minute (default 20, Apple's limit).")

    /// How many storefronts a command's App Store source has.
    enum Storefronts {
        /// `--lookup FILE[,FILE…]`, or the app in `--countries`.
        case many
        /// `--lookup FILE` of one storefront, or the app in `--country` (default us).
        case one
    }

    /// The App Store source the flags name: stored lookups (with the storefronts they should
    /// cover, given `--countries`), or the app looked up now.
    ///
    /// Only flags are read (and files), nothing is sent: a bad flag is found before any request.
    static func source(_ arguments: ParsedArguments, command: String, storefronts: Storefronts) throws(CLIError)
        -> AppStoreSource
    {
        let live = [id.name, bundleID.name, country.name, "--apple-id"].filter { arguments.value($0) != nil }
        let selection = try self.selection(arguments, command: command)
        if let files = arguments.value(lookup.name) {
            guard live.isEmpty else {
                throw .usage(
                    "\(command): give --lookup, or --id/--bundle-id with the storefronts, not both (\(live[0]))")
            }
            return .stored(try storedParts(files, command: command, storefronts: storefronts), expected: selection)
        }
        guard !live.isEmpty else {
            throw .usage(
                storefronts == .many
                    ? "\(command): give --lookup FILE[,FILE…], or one of --id or --bundle-id with --countries"
                    : "\(command): give --lookup FILE, or one of --id or --bundle-id (with --country)")
        }
        let app = try self.app(arguments, command: command)
        let client = try self.client(arguments, command: command)
        switch storefronts {
        case .many:
            guard let selection else {
                throw .usage("\(command): give --lookup FILE[,FILE…], or one of --id or --bundle-id with --countries")
            }
            return .live(app, storefronts: selection, client: client)
        case .one:
            let one = try arguments.country(command: command) ?? StorefrontCountry.unitedStates
            return .live(app, storefronts: .listed([one]), client: client)
        }
    }

    /// `--countries`: a list, `all` or `sold` (which needs App Store Connect credentials), or `nil`.
    static func selection(_ arguments: ParsedArguments, command: String) throws(CLIError) -> StorefrontSelection? {
        switch arguments.value(countries.name) {
        case nil: return nil
        case "all": return .all
        case "sold":
            guard AppStoreConnectOptions.isRequested(arguments) else {
                throw .usage(
                    "\(command): --countries sold needs App Store Connect credentials (\(AppStoreConnectOptions.help))")
            }
            return .sold
        default: return try arguments.countries(command: command).map { .listed($0) }
        }
    }

    /// The releases of stored lookups, one file a sweep's part: every release must name its
    /// storefront (for `.many`), one storefront in all (for `.one`), and every part must be of
    /// the same app.
    static func storedParts(_ files: String, command: String, storefronts: Storefronts) throws(CLIError)
        -> [StoreRelease]
    {
        var releases: [StoreRelease] = []
        var first: (path: String, app: String)?
        for path in files.split(separator: ",").map(String.init) {
            let stored = try StoredLookupFile.releases(path, flag: lookup.name, command: command)
            if storefronts == .many, let nameless = stored.first(where: { $0.country == nil }) {
                throw .badInput(
                    "\(command): --lookup \(path): cannot tell the storefront of \(nameless.name ?? "an app") (no "
                        + "country in its trackViewUrl); use the output of storerelease lookup --country")
            }
            if storefronts == .one, stored.count != 1 {
                throw .badInput("\(command): --lookup \(path): \(stored.count) releases; give one storefront's lookup")
            }
            for release in stored {
                let app = release.appID ?? release.bundleID ?? ""
                if let first, app != first.app {
                    throw .badInput(
                        "\(command): --lookup \(path) is of app \(app), not \(first.app) as \(first.path) is: a part of "
                            + "another sweep")
                }
                if first == nil { first = (path, app) }
            }
            releases += stored
        }
        return releases
    }

    /// A client for `--base-url`, with the given timeout and cache-busting.
    static func client(
        _ arguments: ParsedArguments, command: String, timeout: Duration = .seconds(10), bustsCaches: Bool = false
    ) throws(CLIError) -> AppStoreLookupClient {
        let configuration = HTTPClientConfiguration(baseURL: try arguments.baseURL(command: command), timeout: timeout)
        var perMinute = 20
        if let text = arguments.value(lookupsPerMinute.name) {
            guard let value = Int(text), (1...6000).contains(value) else {
                throw .usage("\(command): --lookups-per-minute \(text.debugDescription) is not a number from 1 to 6000")
            }
            perMinute = value
        }
        do throws(AppStoreLookupError) {
            return try AppStoreLookupClient(
                configuration: configuration, bustsCaches: bustsCaches, rateLimiter: RateLimiter(requests: perMinute))
        } catch {
            throw .usage("\(command): \(error)")
        }
    }

    /// The app `--id` (or its alias `--apple-id`) or `--bundle-id` names: exactly one of them, one id.
    static func app(_ arguments: ParsedArguments, command: String) throws(CLIError) -> AppStoreApp {
        let apps = try self.apps(arguments, command: command)
        guard apps.count == 1, let app = apps.first else {
            throw .usage("\(command): give one of --id ID or --bundle-id ID")
        }
        return app
    }

    /// The apps `--id ID[,ID…]` (or its alias `--apple-id`) or `--bundle-id` names: exactly one of the flags.
    static func apps(_ arguments: ParsedArguments, command: String) throws(CLIError) -> [AppStoreApp] {
        guard arguments.value(id.name) == nil || arguments.value("--apple-id") == nil else {
            throw .usage("\(command): give --id or --apple-id, not both")
        }
        let appleIDs = try arguments.appStoreIDs("--apple-id", command: command)
        let ids = try arguments.appStoreIDs(command: command) ?? appleIDs
        let bundleID = arguments.value(self.bundleID.name)
        guard (ids == nil) != (bundleID == nil) else {
            throw .usage("\(command): give one of --id ID or --bundle-id ID")
        }
        if let ids { return ids.map(AppStoreApp.id) }
        return [.bundleID(bundleID ?? "")]
    }

    /// The CLI error for a failed lookup: bad requests exit 2, everything else 1.
    static func failure(_ error: AppStoreLookupError, command: String) -> CLIError {
        if case .invalidRequest(let message) = error { return .usage("\(command): \(message)") }
        return .failure("\(command): \(error)")
    }
}

extension CLIError {
    /// The CLI error for a store that could not be read: each client's bad requests exit 2,
    /// stored lookups without an App Store id too, everything else 1.
    static func source(_ error: ReleaseSourceError, command: String) -> CLIError {
        switch error {
        case .appStore(let error): AppStoreOptions.failure(error, command: command)
        case .play(let error): PlayOptions.failure(error, command: command)
        case .appStoreConnect(let error): AppStoreConnectOptions.failure(error, command: command)
        case .noAppStoreID, .availabilityNeeded: .badInput("\(command): \(error)")
        case .manifest: .failure("\(command): \(error)")
        }
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
