import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease storefronts [--format json|text]`: the App Store's storefront catalogue.
    static let storefronts = Command(
        name: "storefronts",
        synopsis: "storefronts [--format json|text]",
        summary: "Prints every App Store storefront: its code, StoreKit's code and its name.",
        discussion: """
            The catalogue 'storerelease parity --countries all' sweeps: every storefront of the
            App Store, each an App Store Connect territory. JSON (default) is an array of
            {country, alpha3, name}: country is the lower-case ISO 3166-1 alpha-2 code the lookup
            API takes (cn), alpha3 is StoreKit's Storefront.countryCode and App Store Connect's
            territory id (CHN). Text is one storefront a line.
            Exit status: 0 printed; 2 bad flags.
            """,
        options: [StorefrontsCommand.format],
        examples: [
            "storerelease storefronts --format text  # cn   CHN  China mainland",
            "storerelease storefronts  # \"alpha3\" : \"USA\"",
        ],
        run: { arguments throws(CLIError) in
            try arguments.requireOnlyFlags()
            switch try arguments.value(StorefrontsCommand.format) ?? .json {
            case .json:
                try JSONOutput.print(AppStoreStorefront.all)
            case .text:
                let lines = AppStoreStorefront.all.map { storefront in
                    storefront.country.code.padding(toLength: 5, withPad: " ", startingAt: 0)
                        + storefront.alpha3.padding(toLength: 5, withPad: " ", startingAt: 0) + storefront.name
                }
                StandardStreams.print(lines.joined(separator: "\n") + "\n")
            }
            return 0
        }
    )
}

enum StorefrontsCommand {
    static let format: Option<TextFormat> = CommonOptions.format("JSON for machines (default), a line each for people.")
}
