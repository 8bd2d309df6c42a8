import StoreReleaseCore

/// The play-core-ktx `AppUpdateResult`: what `requestUpdateFlow()` emits.
public enum AppUpdateResult: Sendable, Hashable {
    /// No update: the flow then ends.
    case notAvailable
    /// An update is available (or an update the app started is in progress); start a flow.
    case available(AppUpdateInfo)
    /// A listener heard a status other than DOWNLOADED.
    case inProgress(InstallState)
    /// Downloaded: call `completeUpdate()`. The flow then ends.
    case downloaded
}
