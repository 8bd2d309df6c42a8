import StoreReleaseCore

/// Why the update flow refused an event. The state is unchanged.
///
/// ``code`` is Play's error name where Play has one (`ERROR_DOWNLOAD_NOT_PRESENT`), otherwise a
/// camelCase code (`noFlowVisible`). Google's `FakeAppUpdateManager` ignores most of these events
/// silently; here each is an error that says why.
public struct UpdateFlowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code: a Play `InstallErrorCode` name or a camelCase code.
    public let code: String
    /// What was refused and why.
    public let description: String

    init(_ code: String, _ description: String) {
        self.code = code
        self.description = description
    }

    init(_ error: InstallErrorCode, _ description: String) {
        self.init(error.name, description)
    }

    static let noFlowVisible = UpdateFlowError(
        "noFlowVisible", "no update prompt is shown: start the update flow first")
    static let notPending = UpdateFlowError(
        "notPending", "the download can start only after the user accepts the update (PENDING)")
    static let notDownloading = UpdateFlowError("notDownloading", "no download is in progress (DOWNLOADING)")
    static let bytesExceedTotal = UpdateFlowError(
        "bytesExceedTotal", "bytes downloaded cannot exceed the total bytes to download")
    static let noDownloadInProgress = UpdateFlowError(
        "noDownloadInProgress", "no download is pending or in progress")
    static let notInstalling = UpdateFlowError("notInstalling", "no install is in progress (INSTALLING)")
    static let updateNotAvailable = UpdateFlowError(
        "updateNotAvailable", "no update is available (setUpdateAvailable first)")
    static let flowAlreadyShown = UpdateFlowError(
        "flowAlreadyShown", "an update prompt is already shown: the user must accept or reject it first")
    static let promptNotDismissible = UpdateFlowError(
        "promptNotDismissible", "an immediate (blocking) update prompt cannot be rejected")
    static let alreadyAccepted = UpdateFlowError(
        "alreadyAccepted", "the user already accepted this immediate update; its screen has no second accept")
    static let cannotLeaveInstall = UpdateFlowError(
        .errorInstallInProgress, "the update is installing: leaving the screen does not stop it")
    static let storeOpened = UpdateFlowError(
        "storeOpened", "the App Store is open: the next launch tells whether the update was installed")
    static let notStartedOnAppStore = UpdateFlowError(
        "updateNotAvailable", "no newer version in the App Store than the installed one")
    static func unsupported(_ event: String, store: Store) -> UpdateFlowError {
        UpdateFlowError("unsupportedInStore", "\(event) does not exist in the \(store) flow")
    }
}
