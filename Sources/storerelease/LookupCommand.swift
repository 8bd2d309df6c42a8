import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease lookup (--id ID[,ID…] | --bundle-id ID) [--country CC] [--base-url URL] [--timeout S]`.
    static let lookup = Command(
        name: "lookup",
        synopsis: "lookup (--id ID[,ID…] | --bundle-id ID) [--country CC] [--entity E] [--base-url URL] [--timeout S]",
        summary: "Looks apps up in the App Store and prints their releases as a JSON array.",
        discussion: """
            Asks the iTunes lookup API, with retries on 5xx, 429 and dropped connections, at most
            20 requests a minute, and ids batched 200 a request. Prints a JSON array of releases
            (keys: store, appID, bundleID, name, version, versionCode, country, releaseDate,
            releaseNotes, minimumOSVersion, storeURL, updatePriority, clientVersionStalenessDays,
            allowedUpdateTypes), in the order the ids were given.
            An app sold only in some countries is found only in their storefronts: give --country.
            Exit status: 0 all found; 1 the lookup failed or an app was not found (the message
            names the storefront; the apps found are still printed); 2 bad flags or ids.
            """,
        options: [
            .value("--id", "ID[,ID…]", "App Store ids (the number in …/id414478124), comma-separated."),
            AppStoreOptions.bundleID,
            AppStoreOptions.country,
            .value("--entity", "E", "The platform: software (iOS, default), ipadSoftware, macSoftware, tvSoftware."),
            AppStoreOptions.baseURL,
            .value("--timeout", "S", "Seconds one request may take (default 10)."),
        ],
        examples: [
            "storerelease lookup --id 414478124 --country cn",
            "storerelease lookup --bundle-id com.tinyspeck.slackmacgap --entity macSoftware",
        ],
        run: { arguments throws(CLIError) in
            let command = "lookup"
            try arguments.requireOnlyFlags("lookup")
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
}
