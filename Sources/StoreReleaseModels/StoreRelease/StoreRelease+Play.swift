import StoreReleaseCore

extension StoreRelease {
    /// The release a Play update record describes.
    ///
    /// The available `versionCode`, its priority, staleness and allowed types. Play's in-app updates
    /// API has no version name.
    public init(_ info: AppUpdateInfo) {
        self.init(
            store: .googlePlay,
            appID: info.packageName,
            bundleID: info.packageName,
            versionCode: info.versionCode,
            updatePriority: info.updatePriority,
            clientVersionStalenessDays: info.clientVersionStalenessDays,
            allowedUpdateTypes: info.allowedUpdateTypes
        )
    }
}
