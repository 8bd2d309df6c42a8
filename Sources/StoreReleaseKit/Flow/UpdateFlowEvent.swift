/// One event of the update flow: a `FakeAppUpdateManager` method, an App Store harness step, or
/// one of the app's own calls. Scripts and the exhaustive tests speak in these.
enum UpdateFlowEvent: Sendable, Hashable {
    case setUpdateAvailable(versionCode: Int, type: AppUpdateType?)
    case setUpdateNotAvailable
    case setUpdatePriority(Int)
    case setClientVersionStalenessDays(Int?)
    case setInstallErrorCode(InstallErrorCode)
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
    case startUpdateFlow(AppUpdateType)
    case completeUpdate
    case getAppUpdateInfo
    case setStoreVersion(Version)
    case setInstalledVersion(Version)
    case relaunch(Version)

    /// The method name, as scripts write it.
    var verb: String {
        switch self {
        case .setUpdateAvailable: "setUpdateAvailable"
        case .setUpdateNotAvailable: "setUpdateNotAvailable"
        case .setUpdatePriority: "setUpdatePriority"
        case .setClientVersionStalenessDays: "setClientVersionStalenessDays"
        case .setInstallErrorCode: "setInstallErrorCode"
        case .userAcceptsUpdate: "userAcceptsUpdate"
        case .userRejectsUpdate: "userRejectsUpdate"
        case .downloadStarts: "downloadStarts"
        case .setTotalBytesToDownload: "setTotalBytesToDownload"
        case .setBytesDownloaded: "setBytesDownloaded"
        case .downloadCompletes: "downloadCompletes"
        case .downloadFails: "downloadFails"
        case .userCancelsDownload: "userCancelsDownload"
        case .installCompletes: "installCompletes"
        case .installFails: "installFails"
        case .startUpdateFlow: "startUpdateFlow"
        case .completeUpdate: "completeUpdate"
        case .getAppUpdateInfo: "getAppUpdateInfo"
        case .setStoreVersion: "setStoreVersion"
        case .setInstalledVersion: "setInstalledVersion"
        case .relaunch: "relaunch"
        }
    }
}

extension UpdateFlowStateMachine {
    /// Applies one event.
    mutating func handle(_ event: UpdateFlowEvent) throws(UpdateFlowError) -> [Action] {
        switch event {
        case .setUpdateAvailable(let versionCode, let type):
            try setUpdateAvailable(versionCode: versionCode, type: type)
        case .setUpdateNotAvailable: try setUpdateNotAvailable()
        case .setUpdatePriority(let priority): try setUpdatePriority(priority)
        case .setClientVersionStalenessDays(let days): try setClientVersionStalenessDays(days)
        case .setInstallErrorCode(let code): try setInstallErrorCode(code)
        case .userAcceptsUpdate: try userAcceptsUpdate()
        case .userRejectsUpdate: try userRejectsUpdate()
        case .downloadStarts: try downloadStarts()
        case .setTotalBytesToDownload(let bytes): try setTotalBytesToDownload(bytes)
        case .setBytesDownloaded(let bytes): try setBytesDownloaded(bytes)
        case .downloadCompletes: try downloadCompletes()
        case .downloadFails: try downloadFails()
        case .userCancelsDownload: try userCancelsDownload()
        case .installCompletes: try installCompletes()
        case .installFails: try installFails()
        case .startUpdateFlow(let type): try startUpdateFlow(type)
        case .completeUpdate: try completeUpdate()
        case .getAppUpdateInfo: try getAppUpdateInfo()
        case .setStoreVersion(let version): try setStoreVersion(version)
        case .setInstalledVersion(let version): try setInstalledVersion(version)
        case .relaunch(let version): try relaunch(installedVersion: version)
        }
    }
}
