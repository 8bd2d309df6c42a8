import StoreReleaseCore

/// What the owner of an update-flow machine must do after an event.
enum UpdateFlowAction: Sendable, Hashable {
    /// Tell install-state listeners (Play: flexible flows only, as the fake does).
    case announce(InstallStatus)
    /// Hand out this update record (`getAppUpdateInfo` succeeded).
    case deliver(AppUpdateInfo)
    /// Open the App Store page.
    case openStore
}
