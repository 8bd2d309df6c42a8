import Foundation
import StoreReleaseCore

extension StoreRelease {
    /// The release an App Store lookup result describes.
    ///
    /// The store URL is the payload's `trackViewUrl` only when it is `https` on an Apple host
    /// (see ``AppStoreLinks/trusted(trackViewUrl:)``); otherwise it is built from the `trackId`
    /// and the storefront.
    ///
    /// - Parameters:
    ///   - result: One result of a lookup response.
    ///   - country: The storefront it was looked up in; `nil` when none was given (the API then
    ///     answers for the United States).
    public init(_ result: AppStoreLookupResult, country: StorefrontCountry?) {
        self.init(
            store: .appStore,
            appID: String(result.trackId),
            bundleID: result.bundleId,
            name: result.trackName,
            version: result.version,
            country: country,
            releaseDate: result.currentVersionReleaseDate,
            releaseNotes: result.releaseNotes,
            minimumOSVersion: result.minimumOsVersion,
            storeURL: result.trackViewUrl.flatMap(AppStoreLinks.trusted(trackViewUrl:))
                ?? AppStoreLinks.web(trackId: result.trackId, country: country ?? .unitedStates)
        )
    }
}
