import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease lookup (--id ID[,ID…] | --bundle-id ID) [--country CC | --countries CC,…|all|sold [--shard K/N]] …`.
    static let lookup = Command(
        name: "lookup",
        synopsis:
            "lookup (--id ID[,ID…] | --bundle-id ID) [--country CC | --countries CC[,CC…]|all|sold [--shard K/N] [ASC]] "
            + "[--entity E] [--base-url URL] [--timeout S] [--quiet]",
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
            --lookup part1.json,…,partN.json --countries …' merges the parts. A sweep says how far
            it has come on stderr (the storefronts looked up of all, and how long the lookup limit
            holds it back): a line at the start and at least every 10 s, one line with a bar on a
            terminal; nothing of it goes to stdout, and --quiet leaves it out.
            \(AppStoreConnectOptions.help)
            Exit status: 0 all found (or a --shard part with no storefront in it: []); 1 the
            lookup failed or an app was not found (the message names the storefronts and ids;
            the apps found are still printed); 2 bad flags, ids or storefronts.
            """,
        options: [
            AppStoreOptions.table([.id, .bundleID, .country, .countries], id: LookupCommand.ids), LookupCommand.shard,
            LookupCommand.entity, AppStoreOptions.table([.client]), CommonOptions.timeout, CommonOptions.quiet,
            AppStoreConnectOptions.table(),
        ],
        examples: [
            "storerelease lookup --id 414478124 --country cn",
            "storerelease lookup --bundle-id com.tinyspeck.slackmacgap --entity macSoftware",
            "storerelease lookup --id 414478124 --countries all --shard 3/32  # exit 1, \"country\" : \"cn\"",
        ],
        run: { arguments throws(CLIError) in try await LookupCommand.run(arguments) }
    )
}

enum LookupCommand {
    static let ids = AppStoreOptions.id.help(
        "App Store ids (the number in …/id414478124), comma-separated.", valueName: "ID[,ID…]")
    static let shard = Option<Shard>("--shard", "K/N", "Only part K of N of the storefronts (1 ≤ K ≤ N ≤ 64).")
    static let entity = Option<AppStoreEntity>(
        "--entity", "E", "The platform: software (iOS, default), ipadSoftware, macSoftware, tvSoftware.")

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let sources = try SourceOptions(arguments)
        let entity = try arguments.value(entity)
        let client = try sources.appStore.client(
            timeout: try arguments.value(CommonOptions.timeout)?.duration ?? .seconds(10))
        guard sources.appStore.selection != nil else {
            try arguments.refuse(shard, goesWith: "\(AppStoreOptions.countries)")
            return try await lookUp(sources.appStore, entity: entity, client: client)
        }
        return try await sweep(
            sources, shard: try arguments.value(shard) ?? .whole, entity: entity, client: client,
            quiet: arguments.has(CommonOptions.quiet))
    }

    /// `lookup --id …` or `--bundle-id …` in one storefront (`--country`, else the API's default).
    static func lookUp(_ options: AppStoreOptions, entity: AppStoreEntity?, client: AppStoreLookupClient)
        async throws(CLIError) -> Int32
    {
        guard (options.ids == nil) != (options.bundleID == nil) else {
            throw .usage("lookup: give exactly one of \(AppStoreOptions.id) or \(AppStoreOptions.bundleID)")
        }
        let country = options.country
        let releases: [StoreRelease]
        var missing: [Int] = []
        do throws(HTTPClientError) {
            if let bundleID = options.bundleID {
                releases = [try await client.lookup(bundleID: bundleID, country: country, entity: entity)]
            } else {
                (releases, missing) = try await client.releases(
                    ids: options.ids ?? [], country: country, entity: entity)
            }
        } catch {
            throw CLIError(error, "lookup")
        }
        if !releases.isEmpty { try JSONOutput.print(releases) }
        guard missing.isEmpty else {
            let query =
                missing.count == 1
                ? "App Store id \(missing[0])" : "App Store ids \(missing.map(String.init).joined(separator: ","))"
            throw .failure("lookup: \(HTTPClientError.lookup(.notFound(query: query, country: country)))")
        }
        return 0
    }

    /// `lookup --countries …`: every app in each storefront of the selection (or of its shard).
    ///
    /// Prints the releases found; a storefront without a result for an app is named on stderr,
    /// exit 1 (a part with no storefront in it prints `[]`, exit 0).
    static func sweep(
        _ sources: SourceOptions, shard: Shard, entity: AppStoreEntity?, client: AppStoreLookupClient, quiet: Bool
    ) async throws(CLIError) -> Int32 {
        let options = sources.appStore
        guard options.country == nil, let selection = options.selection else {
            throw .usage("lookup: give \(AppStoreOptions.country) or \(AppStoreOptions.countries), not both")
        }
        let connect = try sources.connect.source()
        let apps = try options.apps()
        let result: StorefrontLookup
        let line = ProgressLine(
            command: "lookup", limiter: client.rateLimiter, lookupsPerMinute: options.lookupsPerMinute, quiet: quiet)
        await line?.start()
        var progress: (@Sendable (StorefrontSweepProgress) -> Void)?
        if let line { progress = { line.sweep($0) } }
        do throws(ReleaseSourceError) {
            result = try await selection.lookup(
                apps, part: shard.part, of: shard.parts, client: client, entity: entity, appStoreConnect: connect,
                progress: progress)
        } catch {
            line?.finish()
            throw CLIError(error, "lookup")
        }
        line?.finish()
        try JSONOutput.print(result.found)
        if let missing = result.missingDescription { throw .failure("lookup: \(missing)") }
        return 0
    }
}
