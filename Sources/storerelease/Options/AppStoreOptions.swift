import Foundation
import StoreReleaseKit

/// The App Store flags the commands share, read once: stored lookups, or the app and its
/// storefronts with the lookup API's base URL and rate; the client and the source they make,
/// and what their failures exit with.
struct AppStoreOptions {
    static let lookup = Option<FileList>(
        "--lookup", "FILE[,FILE…]",
        "Stored lookups (API responses, or what storerelease lookup prints), one a storefront.")
    static let id = Option<AppStoreIDs>("--id", "ID", "The App Store id (the number in …/id414478124).")
    /// `--apple-id`, the same as `--id` (`parity`).
    static let appleID = id.renamed("--apple-id", help: "The same as --id.")
    static let bundleID = Option<String>("--bundle-id", "ID", "The bundle id (com.tencent.xin), instead of the id.")
    static let countries = Option<StorefrontSelection>(
        "--countries", "CC[,CC…]|all|sold",
        "The storefronts (cn, CHN), every storefront (all; without App Store Connect, one with no result is "
            + "missing but no disagreement), or those App Store Connect says the app is sold in (sold).")
    static let country = Option<StorefrontCountry>("--country", "CC", "The storefront (cn, CHN); default us.")
    static let baseURL = Option<BaseURL>(
        "--base-url", "URL", "The lookup API's base URL instead of https://itunes.apple.com (http only on loopback).")
    static let lookupsPerMinute = Option<LookupRate>(
        "--lookups-per-minute", "N", "The most lookups this process sends a minute (default 20, Apple's limit).")

    /// A flag of the group, or two that go together; help lists them in the order of ``table(_:id:)``.
    enum Flag: Hashable, Sendable {
        /// `--apple-id` is the same as `--id` (`parity`); `client` is the lookup API's (`--base-url`,
        /// `--lookups-per-minute`).
        case lookup, id, appleID, bundleID, country, countries, client
    }

    /// The flags of `flags` in the order help lists them: `--lookup`, `--id` (with `id`'s help),
    /// `--apple-id`, `--bundle-id`, `--country`, `--countries`, `--base-url`, `--lookups-per-minute`.
    static func table(_ flags: Set<Flag>, id: Option<AppStoreIDs> = id) -> OptionTable {
        OptionTable(
            flags,
            of: [
                (.lookup, lookup), (.id, id), (.appleID, appleID), (.bundleID, bundleID), (.country, country),
                (.countries, countries), (.client, OptionTable([baseURL, lookupsPerMinute])),
            ])
    }

    /// How many storefronts a command's App Store source has.
    enum Storefronts {
        /// `--lookup FILE[,FILE…]`, or the app in `--countries`.
        case many
        /// `--lookup FILE` of one storefront, or the app in `--country` (default us).
        case one
    }

    private let arguments: ParsedArguments
    /// The stored lookups `--lookup` names.
    let lookups: [String]?
    /// The ids `--id` (or `--apple-id`) names.
    let ids: [Int]?
    let bundleID: String?
    /// The storefronts `--countries` names.
    let selection: StorefrontSelection?
    /// The storefront `--country` names.
    let country: StorefrontCountry?
    let baseURL: URL
    let lookupsPerMinute: Int

    /// Reads the flags; `connect` says whether App Store Connect credentials were given, which
    /// `--countries sold` needs.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a flag whose value is bad.
    init(_ arguments: ParsedArguments, connect: AppStoreConnectOptions) throws(CLIError) {
        self.arguments = arguments
        guard !arguments.given(Self.id) || !arguments.given(Self.appleID) else {
            throw .usage("\(arguments.command): give \(Self.id) or \(Self.appleID), not both")
        }
        lookups = try arguments.value(Self.lookup)?.paths
        let appleIDs = try arguments.value(Self.appleID)
        ids = (try arguments.value(Self.id) ?? appleIDs)?.ids
        bundleID = try arguments.value(Self.bundleID)
        selection = try arguments.value(Self.countries)
        if selection == .sold, !connect.isRequested {
            throw .usage(
                "\(arguments.command): \(Self.countries) sold needs App Store Connect credentials "
                    + "(\(AppStoreConnectOptions.help))")
        }
        country = try arguments.value(Self.country)
        baseURL = try arguments.value(Self.baseURL)?.url ?? AppStoreLookupRequest.defaultBaseURL
        lookupsPerMinute = try arguments.value(Self.lookupsPerMinute)?.perMinute ?? 20
    }

    /// Whether the flags name the app (`--id`, `--apple-id`, `--bundle-id`).
    var namesApp: Bool { ids != nil || bundleID != nil }

    /// Whether the flags name an App Store side: stored lookups or the app.
    var isGiven: Bool { lookups != nil || namesApp }

    /// The App Store source the flags name: stored lookups (with the storefronts they should
    /// cover, given `--countries`), or the app looked up now.
    ///
    /// Only flags are read (and files), nothing is sent: a bad flag is found before any request.
    func source(storefronts: Storefronts) throws(CLIError) -> AppStoreSource {
        let command = arguments.command
        let given = [
            (Self.id.name, arguments.given(Self.id)), (Self.bundleID.name, bundleID != nil),
            (Self.country.name, country != nil), (Self.appleID.name, arguments.given(Self.appleID)),
        ].filter(\.1).map(\.0)
        if let lookups {
            guard given.isEmpty else {
                throw .usage(
                    "\(command): give \(Self.lookup), or \(Self.id)/\(Self.bundleID) with the storefronts, not both "
                        + "(\(given[0]))")
            }
            return .stored(try storedParts(lookups, storefronts: storefronts), expected: selection)
        }
        let missing =
            storefronts == .many
            ? "\(command): give \(Self.lookup.usage), or one of \(Self.id) or \(Self.bundleID) with \(Self.countries)"
            : "\(command): give \(Self.lookup) FILE, or one of \(Self.id) or \(Self.bundleID) (with \(Self.country))"
        guard !given.isEmpty else { throw .usage(missing) }
        let app = try app()
        let client = try client()
        switch storefronts {
        case .many:
            guard let selection else { throw .usage(missing) }
            return .live(app, storefronts: selection, client: client)
        case .one:
            return .live(app, storefronts: .listed([country ?? StorefrontCountry.unitedStates]), client: client)
        }
    }

    /// The releases of stored lookups, one file a sweep's part: every release must name its
    /// storefront (for `.many`), one storefront in all (for `.one`), and every part must be of
    /// the same app.
    private func storedParts(_ files: [String], storefronts: Storefronts) throws(CLIError) -> [StoreRelease] {
        let command = arguments.command
        var releases: [StoreRelease] = []
        var first: (path: String, app: String)?
        for path in files {
            let stored = try StoredLookupFile.releases(path, flag: Self.lookup.name, command: command)
            if storefronts == .many, let nameless = stored.first(where: { $0.country == nil }) {
                throw .badInput(
                    "\(command): \(Self.lookup) \(path): cannot tell the storefront of \(nameless.name ?? "an app") (no "
                        + "country in its trackViewUrl); use the output of storerelease lookup \(Self.country)")
            }
            if storefronts == .one, stored.count != 1 {
                throw .badInput(
                    "\(command): \(Self.lookup) \(path): \(stored.count) releases; give one storefront's lookup")
            }
            for release in stored {
                let app = release.appID ?? release.bundleID ?? ""
                if let first, app != first.app {
                    throw .badInput(
                        "\(command): \(Self.lookup) \(path) is of app \(app), not \(first.app) as \(first.path) is: "
                            + "a part of another sweep")
                }
                if first == nil { first = (path, app) }
            }
            releases += stored
        }
        return releases
    }

    /// A client for `--base-url` and `--lookups-per-minute`, with the given timeout and cache-busting.
    func client(timeout: Duration = .seconds(10), bustsCaches: Bool = false) throws(CLIError) -> AppStoreLookupClient {
        let configuration = HTTPClientConfiguration(baseURL: baseURL, timeout: timeout)
        do throws(HTTPClientError) {
            return try AppStoreLookupClient(
                configuration: configuration, bustsCaches: bustsCaches,
                rateLimiter: RateLimiter(requests: lookupsPerMinute))
        } catch {
            throw .usage("\(arguments.command): \(error)")
        }
    }

    /// The app `--id` (or its alias `--apple-id`) or `--bundle-id` names: exactly one of them, one id.
    func app() throws(CLIError) -> AppStoreApp {
        let apps = try apps()
        guard apps.count == 1, let app = apps.first else { throw oneApp }
        return app
    }

    /// The apps `--id ID[,ID…]` (or its alias `--apple-id`) or `--bundle-id` names: exactly one of the flags.
    func apps() throws(CLIError) -> [AppStoreApp] {
        switch (ids, bundleID) {
        case (let ids?, nil): ids.map(AppStoreApp.id)
        case (nil, let bundleID?): [.bundleID(bundleID)]
        case (.some, .some), (nil, nil): throw oneApp
        }
    }

    private var oneApp: CLIError {
        .usage("\(arguments.command): give one of \(Self.id.usage) or \(Self.bundleID.usage)")
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

extension Set<AppStoreOptions.Flag> {
    /// The app: `--id` or `--bundle-id` (`status`, `availability`, the acting commands).
    static var app: Self { [.id, .bundleID] }
    /// The app in storefronts, looked up now (`wait`).
    static var storefronts: Self { [.id, .bundleID, .countries, .client] }
    /// Stored lookups, or the app in storefronts looked up now (`snapshot`, `watch`).
    static var sweep: Self { [.lookup, .id, .bundleID, .countries, .client] }
}
