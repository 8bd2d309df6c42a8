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
            AppStoreOptions.table(.app), PlayOptions.table(.live), StatusCommand.format, AppStoreConnectOptions.table(),
        ],
        examples: [
            "storerelease availability --id 414478124 --asc-token-file Tests/Fixtures/asc/token.txt  # \"available\""
        ],
        run: { arguments throws(CLIError) in
            try await StatusCommand.printRead(arguments, text: \WhereSold.text) {
                sources, app, connect throws(CLIError) in
                let play = sources.play.package == nil ? nil : try sources.play.source()
                do throws(ReleaseSourceError) {
                    return try await WhereSold.read(app: app, appStoreConnect: connect, play: play)
                } catch {
                    throw CLIError(error, arguments.command)
                }
            }
        }
    )
}
