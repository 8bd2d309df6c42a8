/// Google Play's `AppUpdateOptions`: the update type to start, and whether Play may delete assets.
///
/// Asset pack deletion is off by default; check the update is allowed without it first.
public struct AppUpdateOptions: Sendable, Hashable, Codable {
    /// The flow to start: flexible or immediate.
    public var appUpdateType: AppUpdateType
    /// Whether Play may delete asset packs to make room for the update.
    public var allowAssetPackDeletion: Bool

    /// Options for a type, with or without asset pack deletion.
    public init(appUpdateType: AppUpdateType, allowAssetPackDeletion: Bool = false) {
        self.appUpdateType = appUpdateType
        self.allowAssetPackDeletion = allowAssetPackDeletion
    }

    /// `AppUpdateOptions.defaultOptions(type)`: the type, no asset pack deletion.
    public static func defaultOptions(_ type: AppUpdateType) -> AppUpdateOptions {
        AppUpdateOptions(appUpdateType: type)
    }
}
