import StoreReleaseCore

/// An event of Google Play's update flow: a `FakeAppUpdateManager` method or one of the app's calls.
enum PlayFlowEvent: Sendable, Hashable {
    case setUpdateAvailable(versionCode: Int, type: AppUpdateType?)
    case setUpdateNotAvailable
    case setUpdatePriority(Int)
    case setClientVersionStalenessDays(Int?)
    case setInstallErrorCode(InstallErrorCode)
    case setUpdatePreconditions(AppUpdateType, failed: Set<UpdatePrecondition>, allowedWithAssetPackDeletion: Bool)
    case userAcceptsUpdate
    case userRejectsUpdate
    case downloadStarts
    case setTotalBytesToDownload(Int64)
    case setBytesDownloaded(Int64)
    case downloadCompletes
    case downloadFails
    case userCancelsDownload
    case installCompletes
    case installFails
    case startUpdateFlow(AppUpdateType, allowAssetPackDeletion: Bool = false)
    case completeUpdate
    case getAppUpdateInfo

    /// The verb, as scripts write it.
    var verb: UpdateFlowVerb {
        switch self {
        case .setUpdateAvailable: .setUpdateAvailable
        case .setUpdateNotAvailable: .setUpdateNotAvailable
        case .setUpdatePriority: .setUpdatePriority
        case .setClientVersionStalenessDays: .setClientVersionStalenessDays
        case .setInstallErrorCode: .setInstallErrorCode
        case .setUpdatePreconditions: .setUpdatePreconditions
        case .userAcceptsUpdate: .userAcceptsUpdate
        case .userRejectsUpdate: .userRejectsUpdate
        case .downloadStarts: .downloadStarts
        case .setTotalBytesToDownload: .setTotalBytesToDownload
        case .setBytesDownloaded: .setBytesDownloaded
        case .downloadCompletes: .downloadCompletes
        case .downloadFails: .downloadFails
        case .userCancelsDownload: .userCancelsDownload
        case .installCompletes: .installCompletes
        case .installFails: .installFails
        case .startUpdateFlow: .startUpdateFlow
        case .completeUpdate: .completeUpdate
        case .getAppUpdateInfo: .getAppUpdateInfo
        }
    }
}

/// An event of the App Store's update flow: a harness step or one of the app's calls.
enum AppStoreFlowEvent: Sendable, Hashable {
    case setStoreVersion(Version)
    case setInstalledVersion(Version)
    case getAppUpdateInfo
    case startUpdateFlow(AppUpdateType)
    case userAcceptsUpdate
    case userRejectsUpdate
    case relaunch(Version)

    /// The verb, as scripts write it.
    var verb: UpdateFlowVerb {
        switch self {
        case .setStoreVersion: .setStoreVersion
        case .setInstalledVersion: .setInstalledVersion
        case .getAppUpdateInfo: .getAppUpdateInfo
        case .startUpdateFlow: .startUpdateFlow
        case .userAcceptsUpdate: .userAcceptsUpdate
        case .userRejectsUpdate: .userRejectsUpdate
        case .relaunch: .relaunch
        }
    }
}

/// An event of either store's flow; which store is part of the value, so an event a store does
/// not have cannot be sent to it.
enum UpdateFlowEvent: Sendable, Hashable {
    case googlePlay(PlayFlowEvent)
    case appStore(AppStoreFlowEvent)

    var verb: UpdateFlowVerb {
        switch self {
        case .googlePlay(let event): event.verb
        case .appStore(let event): event.verb
        }
    }
}
