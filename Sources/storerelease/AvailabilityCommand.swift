import StoreReleaseKit

extension Command {
    /// `storerelease availability (--id ID | --bundle-id ID) ASC [--package PKG [--track NAME]] [--format json|text]`.
    static let availability = Command(
        name: "availability",
        synopsis:
            "availability (--id ID | --bundle-id ID) ASC [--package PKG [--track NAME] [--play-base-url URL] "
            + "[--play-token-file FILE]] [--format json|text]",
        summary: "Prints where the app is sold: App Store Connect's territories and a Play track's countries.",
        discussion: """
            App Store Connect: the app's appAvailabilityV2 and every territory availability
            (paged), as storefront codes: {"available": [cc…], "notAvailable": [cc…]}; a
            territory the app was removed from (CANNOT_SELL) is not available. Google Play, with
            --package: the track's countryAvailability, read through an edit that is always
            deleted: {"track", "countries": [cc…], "restOfWorld", "syncWithProduction"}. A store
            not asked is null.
            \(AppStoreConnectOptions.help)
            \(PlayOptions.tokenHelp)
            Exit status: 0 printed; 1 a store refused or failed; 2 bad flags or no credentials.
            """,
        options: [
            AppStoreOptions.id, AppStoreOptions.bundleID, PlayOptions.package, PlayOptions.track, PlayOptions.baseURL,
            PlayOptions.tokenFile, .value("--format", "json|text", "JSON for machines (default), lines for people."),
        ] + AppStoreConnectOptions.specs,
        examples: [
            "storerelease availability --id 414478124 --asc-token-file Tests/Fixtures/asc/token.txt  # \"available\""
        ],
        run: { arguments throws(CLIError) in
            let name = "availability"
            try arguments.requireOnlyFlags()
            let format = arguments.value("--format") ?? "json"
            guard ["json", "text"].contains(format) else {
                throw .usage("availability: --format \(format.debugDescription) is not json or text")
            }
            let app = try AppStoreOptions.app(arguments, command: name)
            guard let connect = try AppStoreConnectOptions.source(arguments, command: name) else {
                throw .usage("availability: no App Store Connect credentials: \(AppStoreConnectOptions.help)")
            }
            let play: PlaySource? =
                arguments.value(PlayOptions.package.name) == nil
                ? nil : try PlayOptions.source(arguments, command: name)
            let sold: WhereSold
            do throws(ReleaseSourceError) {
                sold = try await WhereSold.read(app: app, appStoreConnect: connect, play: play)
            } catch {
                throw .source(error, command: name)
            }
            AppStoreConnectOptions.warnIfLow(connect.client, command: name)
            if format == "text" { StandardStreams.print(sold.text) } else { try JSONOutput.print(sold) }
            return 0
        }
    )
}
