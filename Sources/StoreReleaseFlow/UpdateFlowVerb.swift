import StoreReleaseCore

/// The update flow's vocabulary, declared once.
///
/// Every verb a script, the simulator, `--help` and the docs use, what it takes, and which
/// stores have it.
public enum UpdateFlowVerb: String, Sendable, Hashable, CaseIterable {
    /// Play knows of an update (`setUpdateAvailable VERSION_CODE [flexible|immediate]`).
    case setUpdateAvailable
    /// Play knows of no update.
    case setUpdateNotAvailable
    /// The update's priority, 0–5.
    case setUpdatePriority
    /// Days since Play learned of the update, or `null`.
    case setClientVersionStalenessDays
    /// An install error code later calls fail with.
    case setInstallErrorCode
    /// Why Play does not allow a type now, and whether asset-pack deletion would allow it.
    ///
    /// Not in Google's fake: its record's preconditions are always empty.
    case setUpdatePreconditions
    /// The user accepts the prompt.
    case userAcceptsUpdate
    /// The user rejects the prompt (or leaves Play's immediate screen).
    case userRejectsUpdate
    /// Play starts downloading.
    case downloadStarts
    /// The download's size.
    case setTotalBytesToDownload
    /// The download's progress.
    case setBytesDownloaded
    /// The download finishes.
    case downloadCompletes
    /// The download fails.
    case downloadFails
    /// The user cancels the download.
    case userCancelsDownload
    /// The install finishes.
    case installCompletes
    /// The install fails.
    case installFails
    /// The app starts an update flow.
    case startUpdateFlow
    /// The app installs a downloaded update.
    case completeUpdate
    /// The app asks for the update record.
    case getAppUpdateInfo
    /// The version the App Store serves.
    case setStoreVersion
    /// The version installed on the device.
    case setInstalledVersion
    /// The app starts again with a version installed.
    case relaunch

    /// The verb's arguments as a script writes them (`VERSION_CODE [flexible|immediate]`).
    public var arguments: String {
        switch self {
        case .setUpdateAvailable: "VERSION_CODE [flexible|immediate]"
        case .setUpdatePriority: "PRIORITY"
        case .setClientVersionStalenessDays: "DAYS|null"
        case .setInstallErrorCode: "CODE"
        case .setTotalBytesToDownload, .setBytesDownloaded: "BYTES"
        case .startUpdateFlow: "flexible|immediate [allowAssetPackDeletion]"
        case .setUpdatePreconditions:
            "flexible|immediate PRECONDITION[,PRECONDITION…]|none [allowedWithAssetPackDeletion]"
        case .setStoreVersion, .setInstalledVersion, .relaunch: "VERSION"
        case .setUpdateNotAvailable, .userAcceptsUpdate, .userRejectsUpdate, .downloadStarts, .downloadCompletes,
            .downloadFails, .userCancelsDownload, .installCompletes, .installFails, .completeUpdate, .getAppUpdateInfo:
            ""
        }
    }

    /// Which stores' flows have the verb.
    public var stores: [Store] {
        switch self {
        case .getAppUpdateInfo, .startUpdateFlow, .userAcceptsUpdate, .userRejectsUpdate: [.googlePlay, .appStore]
        case .setStoreVersion, .setInstalledVersion, .relaunch: [.appStore]
        case .setUpdateAvailable, .setUpdateNotAvailable, .setUpdatePriority, .setClientVersionStalenessDays,
            .setInstallErrorCode, .setUpdatePreconditions, .downloadStarts, .setTotalBytesToDownload,
            .setBytesDownloaded, .downloadCompletes,
            .downloadFails, .userCancelsDownload, .installCompletes, .installFails, .completeUpdate:
            [.googlePlay]
        }
    }

    /// The verbs of a store's flow, in declaration order.
    public static func verbs(of store: Store) -> [UpdateFlowVerb] {
        allCases.filter { $0.stores.contains(store) }
    }

    /// `setUpdateAvailable VERSION_CODE [flexible|immediate]`.
    public var usage: String { arguments.isEmpty ? rawValue : "\(rawValue) \(arguments)" }
}
