import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease lookup (--id ID[,ID…] | --bundle-id ID) [--country CC | --countries CC,…|all|sold [--shard K/N]] …`.
    static let lookup = Command(
        name: "lookup",
        synopsis:
            "lookup (--id ID[,ID…] | --bundle-id ID) [--country CC | --countries CC[,CC…]|all|sold [--shard K/N] [ASC]] "
            + "[--entity E] [--base-url URL] [--timeout S]",
        summary: "Looks apps up in the App Store and prints their releases as a JSON array.",
        discussion: """
            Asks the iTunes lookup API, with retries on 5xx, 429 and dropped connections, at most
            20 requests a minute, and ids batched 200 a request. Prints a JSON array of releases
            (keys: store, appID, bundleID, name, version, versionCode, country, releaseDate,
            releaseNotes, minimumOSVersion, storeURL, updatePriority, clientVersionStalenessDays,
            allowedUpdateTypes), in the order the ids were given.
            An app sold only in some countries is found only in their storefronts: give --country.
            With --countries, every id (or the bundle id) is looked up in each storefront, ids
            200 a request: a list (each storefront once), every App Store storefront (all), or
            those App Store Connect says the app is sold in (sold, with its credentials); the
            releases found are printed, and a storefront without a result for an id is named
            on stderr (exit 1). --shard K/N
            looks up only part K of N of those storefronts (every storefront in exactly one part,
            the same parts everywhere), for a sweep spread over N runners: 'storerelease parity
            --lookup part1.json,…,partN.json --countries …' merges the parts.
            \(AppStoreConnectOptions.help)
            Exit status: 0 all found (or a --shard part with no storefront in it: []); 1 the
            lookup failed or an app was not found (the message names the storefronts and ids;
            the apps found are still printed); 2 bad flags, ids or storefronts.
            """,
        options: [
            .value("--id", "ID[,ID…]", "App Store ids (the number in …/id414478124), comma-separated."),
            AppStoreOptions.bundleID,
            AppStoreOptions.country,
            AppStoreOptions.countries,
            .value("--shard", "K/N", "Only part K of N of the storefronts (1 ≤ K ≤ N ≤ 64)."),
            .value("--entity", "E", "The platform: software (iOS, default), ipadSoftware, macSoftware, tvSoftware."),
            AppStoreOptions.baseURL,
            AppStoreOptions.lookupsPerMinute,
            .value("--timeout", "S", "Seconds each attempt may take in all, the whole answer read (default 10)."),
        ] + AppStoreConnectOptions.specs,
        examples: [
            "storerelease lookup --id 414478124 --country cn",
            "storerelease lookup --bundle-id com.tinyspeck.slackmacgap --entity macSoftware",
            "storerelease lookup --id 414478124 --countries all --shard 3/32  # exit 1, \"country\" : \"cn\"",
        ],
        run: { arguments throws(CLIError) in
            let command = "lookup"
            try arguments.requireOnlyFlags()
            if arguments.value(AppStoreOptions.countries.name) != nil {
                return try await LookupCommand.sweep(arguments)
            }
            if arguments.value("--shard") != nil { throw .usage("lookup: --shard goes with --countries") }
            let ids = try arguments.appStoreIDs(command: command)
            let bundleID = arguments.value("--bundle-id")
            guard (ids == nil) != (bundleID == nil) else {
                throw .usage("lookup: give exactly one of --id or --bundle-id")
            }
            let country = try arguments.country(command: command)
            let entity = try LookupCommand.entity(arguments)
            let configuration = HTTPClientConfiguration(
                baseURL: try arguments.baseURL(command: command),
                timeout: try arguments.seconds("--timeout", command: command, default: .seconds(10)))
            return try await LookupCommand.run(
                ids: ids, bundleID: bundleID, country: country, entity: entity, configuration: configuration)
        }
    )
}

enum LookupCommand {
    static func run(
        ids: [Int]?, bundleID: String?, country: StorefrontCountry?, entity: AppStoreEntity?,
        configuration: HTTPClientConfiguration
    ) async throws(CLIError) -> Int32 {
        let releases: [StoreRelease]
        var missing: [Int] = []
        do throws(AppStoreLookupError) {
            let client = try AppStoreLookupClient(configuration: configuration)
            if let bundleID {
                releases = [try await client.lookup(bundleID: bundleID, country: country, entity: entity)]
            } else {
                (releases, missing) = try await client.releases(ids: ids ?? [], country: country, entity: entity)
            }
        } catch {
            if case .invalidRequest(let message) = error { throw .usage("lookup: \(message)") }
            throw .failure("lookup: \(error)")
        }
        if !releases.isEmpty { try JSONOutput.print(releases) }
        guard missing.isEmpty else {
            let query =
                missing.count == 1
                ? "App Store id \(missing[0])" : "App Store ids \(missing.map(String.init).joined(separator: ","))"
            throw .failure("lookup: \(AppStoreLookupError.notFound(query: query, country: country))")
        }
        return 0
    }

    /// `lookup --countries …`: every app in each storefront of the selection (or of its shard).
    ///
    /// Prints the releases found; a storefront without a result for an app is named on stderr,
    /// exit 1 (a part with no storefront in it prints `[]`, exit 0).
    static func sweep(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        let command = "lookup"
        if arguments.value(AppStoreOptions.country.name) != nil {
            throw .usage("lookup: give --country or --countries, not both")
        }
        let (part, parts) = try shard(arguments)
        let connect = try AppStoreConnectOptions.source(arguments, command: command)
        let apps = try AppStoreOptions.apps(arguments, command: command)
        guard let selection = try AppStoreOptions.selection(arguments, command: command) else {
            throw .usage("lookup: --countries needs storefronts")
        }
        let entity = try entity(arguments)
        let timeout = try arguments.seconds("--timeout", command: command, default: .seconds(10))
        let client = try AppStoreOptions.client(arguments, command: command, timeout: timeout)
        let result: StorefrontLookup
        do throws(ReleaseSourceError) {
            result = try await selection.lookup(
                apps, part: part, of: parts, client: client, entity: entity, appStoreConnect: connect)
        } catch {
            throw .source(error, command: command)
        }
        try JSONOutput.print(result.found)
        if let missing = result.missingDescription { throw .failure("lookup: \(missing)") }
        return 0
    }

    /// `--entity E`, if given.
    static func entity(_ arguments: ParsedArguments) throws(CLIError) -> AppStoreEntity? {
        guard let name = arguments.value("--entity") else { return nil }
        guard let entity = AppStoreEntity(name: name) else {
            throw .usage(
                "lookup: --entity \(name.debugDescription) is not an entity (software, ipadSoftware, macSoftware, tvSoftware)"
            )
        }
        return entity
    }

    /// `--shard K/N`, or the whole (1 of 1).
    static func shard(_ arguments: ParsedArguments) throws(CLIError) -> (Int, Int) {
        guard let text = arguments.value("--shard") else { return (1, 1) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), 1 <= k, k <= n, n <= 64 else {
            throw .usage("lookup: --shard \(text.debugDescription) is not K/N with 1 ≤ K ≤ N ≤ 64 (such as 2/9)")
        }
        return (k, n)
    }
}
