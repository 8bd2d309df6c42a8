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
            With --countries (one --id or --bundle-id), the app is looked up in each storefront:
            a list, every App Store storefront (all), or those App Store Connect says it is sold
            in (sold, with its credentials); a storefront without it is left out. --shard K/N
            looks up only part K of N of those storefronts (every storefront in exactly one part,
            the same parts everywhere), for a sweep spread over N runners: 'storerelease parity
            --lookup part1.json,…,partN.json --countries …' merges the parts.
            \(AppStoreConnectOptions.help)
            Exit status: 0 all found; 1 the lookup failed or an app was not found (the message
            names the storefront; the apps found are still printed); 2 bad flags or ids.
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
            "storerelease lookup --id 414478124 --countries all --shard 6/32  # \"country\" : \"cn\"",
        ],
        run: { arguments throws(CLIError) in
            let command = "lookup"
            try arguments.requireOnlyFlags("lookup")
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
            var entity: AppStoreEntity?
            if let name = arguments.value("--entity") {
                guard let value = AppStoreEntity(name: name) else {
                    throw .usage(
                        "lookup: --entity \(name.debugDescription) is not an entity (software, ipadSoftware, macSoftware, tvSoftware)"
                    )
                }
                entity = value
            }
            let configuration = AppStoreLookupClient.Configuration(
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
        configuration: AppStoreLookupClient.Configuration
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

    /// `lookup --countries …`: the app in each storefront of the selection (or of its shard).
    static func sweep(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        let command = "lookup"
        if arguments.value(AppStoreOptions.country.name) != nil {
            throw .usage("lookup: give --country or --countries, not both")
        }
        let (part, parts) = try shard(arguments)
        let connect = try AppStoreConnectOptions.source(arguments, command: command)
        let app = try AppStoreOptions.app(arguments, command: command)
        guard let selection = try AppStoreOptions.selection(arguments, command: command) else {
            throw .usage("lookup: --countries needs storefronts")
        }
        let timeout = try arguments.seconds("--timeout", command: command, default: .seconds(10))
        let client = try AppStoreOptions.client(arguments, command: command, timeout: timeout)
        let releases: [StoreRelease]
        do throws(ReleaseSourceError) {
            releases = try await AppStoreSource.live(app, storefronts: selection, client: client)
                .releases(part: part, of: parts, appStoreConnect: connect)
        } catch {
            throw .source(error, command: command)
        }
        try JSONOutput.print(releases)
        return 0
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
