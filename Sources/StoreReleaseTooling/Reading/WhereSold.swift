import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Where the app is sold, from both stores.
///
/// App Store Connect's territories and a Play track's countries.
public struct WhereSold: Sendable, Hashable, Encodable, EveryKeyEncodable {
    /// The App Store's side, as storefront codes.
    public struct AppStore: Sendable, Hashable, Encodable {
        /// Where it is sold (`us`), in code order.
        public let available: [String]
        /// Where it is not, in code order.
        public let notAvailable: [String]
    }

    /// App Store Connect's availability, when asked.
    public let appStore: AppStore?
    /// The Play track's countries, when asked.
    public let googlePlay: PlayCountryAvailability?

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case appStore, googlePlay
    }

    /// Reads where the app is sold from the stores given.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed.
    public static func read(
        app: AppStoreApp, appStoreConnect: AppStoreConnectSource?, play: PlaySource?
    ) async throws(ReleaseSourceError) -> WhereSold {
        var appStore: AppStore?
        if let appStoreConnect {
            let availability = try await appStoreConnect.availability(of: app)
            appStore = AppStore(
                available: availability.available.map(\.code), notAvailable: availability.notAvailable.map(\.code))
        }
        return WhereSold(appStore: appStore, googlePlay: try await play?.availability())
    }

    /// One line a store, for people.
    public var text: String {
        var lines: [String] = []
        if let appStore {
            lines.append(
                "App Store: sold in \(appStore.available.count) storefronts (\(appStore.available.joined(separator: ", "))), "
                    + "not in \(appStore.notAvailable.count)")
        }
        if let play = googlePlay { lines.append("Google Play (\(play.track)): \(play.reach)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
