/// The update flow of both stores, as one pure state machine.
///
/// Each event is a `mutating` method that returns what the caller must do (announce install
/// statuses to listeners, open the store, hand out an update record) or throws an
/// ``UpdateFlowError`` and leaves the state as it was. The owner performs the effects; nothing
/// here does I/O.
///
/// Google Play follows `FakeAppUpdateManager` (app-update 2.x) row by row: check → available →
/// flow started (confirmation dialog or immediate screen) → accepted (PENDING) → DOWNLOADING →
/// DOWNLOADED → complete → INSTALLING → INSTALLED, with rejection, cancellation, failures and
/// error codes. The App Store has the same phases where they exist: available → prompt
/// (flexible: dismissible; immediate: blocking) → accepted opens the store (PENDING) → the next
/// launch with the new version is INSTALLED, with an older one the update is available again.
struct UpdateFlowStateMachine: Sendable, Hashable {
    /// Where the flow is. The update type travels with every phase of a started flow.
    enum Phase: Sendable, Hashable {
        /// No flow: nothing shown, nothing downloading.
        case idle
        /// The prompt is shown: Play's confirmation dialog (flexible) or immediate screen; the
        /// App Store's dismissible (flexible) or blocking (immediate) alert.
        case prompting(AppUpdateType)
        /// Accepted: Play will download (PENDING); on the App Store, the store is open.
        case pending(AppUpdateType)
        /// Play is downloading.
        case downloading(AppUpdateType)
        /// Downloaded, waiting for `completeUpdate()` (an immediate update gets here only when
        /// its automatic completion failed on an error code).
        case downloaded(AppUpdateType)
        /// Installing: the install splash screen is shown.
        case installing(AppUpdateType)
    }

    /// What the owner must do after an event.
    enum Action: Sendable, Hashable {
        /// Tell install-state listeners (Play: flexible flows only, as the fake does).
        case announce(InstallStatus)
        /// Hand out this update record (`getAppUpdateInfo` succeeded).
        case deliver(AppUpdateInfo)
        /// Open the App Store page.
        case openStore
        /// Show the immediate update screen again (resuming an update in progress).
        case resumeImmediateFlow
    }

    let store: Store
    private(set) var phase: Phase = .idle

    // Google Play's side, as FakeAppUpdateManager keeps it.
    private(set) var packageName: String
    private(set) var updateAvailable = false
    private(set) var availableVersionCode = 0
    private(set) var allowedTypes: [AppUpdateType] = []
    private(set) var stalenessDays: Int?
    private(set) var priority = 0
    private(set) var bytesDownloaded: Int64 = 0
    private(set) var totalBytes: Int64 = 0
    private(set) var errorCode: InstallErrorCode = .noError

    // The App Store's side.
    private(set) var storeVersion: Version?
    private(set) var installedVersion: Version?

    init(store: Store, packageName: String = "com.example.app") {
        self.store = store
        self.packageName = packageName
    }

    // MARK: Derived state

    /// The type of the flow in progress, `nil` when idle.
    var typeInProgress: AppUpdateType? {
        switch phase {
        case .idle: nil
        case .prompting(let type), .pending(let type), .downloading(let type), .downloaded(let type),
            .installing(let type):
            type
        }
    }

    var installStatus: InstallStatus {
        switch phase {
        case .idle, .prompting: .unknown
        case .pending: .pending
        case .downloading: .downloading
        case .downloaded: .downloaded
        case .installing: .installing
        }
    }

    /// Whether an update is available at all (Play: set by the harness; App Store: the store's
    /// version is newer than the installed one).
    var isUpdateAvailable: Bool {
        if store == .appStore {
            guard let storeVersion, let installedVersion else { return false }
            return storeVersion > installedVersion
        }
        return updateAvailable
    }

    /// As the fake derives it: not available; available while no flow has been accepted;
    /// in progress after.
    var updateAvailability: UpdateAvailability {
        guard isUpdateAvailable else { return .updateNotAvailable }
        return installStatus == .unknown ? .updateAvailable : .developerTriggeredUpdateInProgress
    }

    var isConfirmationDialogVisible: Bool { phase == .prompting(.flexible) }
    var isImmediateFlowVisible: Bool { typeInProgress == .immediate }
    var isInstallSplashScreenVisible: Bool {
        if case .installing = phase { return true }
        return false
    }

    /// The record `getAppUpdateInfo` returns now. Types are allowed only while the update is
    /// available and no flow is under way, as the fake fills its intents.
    var appUpdateInfo: AppUpdateInfo {
        let availability = updateAvailability
        let versionCode = store == .appStore ? 0 : availableVersionCode
        return AppUpdateInfo(
            packageName: packageName, availableVersionCode: versionCode, updateAvailability: availability,
            installStatus: installStatus, updatePriority: priority, clientVersionStalenessDays: stalenessDays,
            bytesDownloaded: bytesDownloaded, totalBytesToDownload: totalBytes, installErrorCode: errorCode,
            allowedUpdateTypes: availability == .updateAvailable ? allowedTypes : [])
    }

    // MARK: Harness events (Play)

    mutating func setUpdateAvailable(versionCode: Int, type: AppUpdateType? = nil) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setUpdateAvailable")
        updateAvailable = true
        allowedTypes = type.map { [$0] } ?? AppUpdateType.allValues
        availableVersionCode = versionCode
        return []
    }

    mutating func setUpdateNotAvailable() throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setUpdateNotAvailable")
        updateAvailable = false
        stalenessDays = nil
        return []
    }

    mutating func setUpdatePriority(_ value: Int) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setUpdatePriority")
        guard updateAvailable else { throw .updateNotAvailable }
        priority = value
        return []
    }

    mutating func setClientVersionStalenessDays(_ days: Int?) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setClientVersionStalenessDays")
        guard updateAvailable else { throw .updateNotAvailable }
        stalenessDays = days
        return []
    }

    mutating func setInstallErrorCode(_ code: InstallErrorCode) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setInstallErrorCode")
        errorCode = code
        return []
    }

    // MARK: Harness events (App Store)

    mutating func setStoreVersion(_ version: Version) throws(UpdateFlowError) -> [Action] {
        try requireStore(.appStore, "setStoreVersion")
        storeVersion = version
        return []
    }

    mutating func setInstalledVersion(_ version: Version) throws(UpdateFlowError) -> [Action] {
        try requireStore(.appStore, "setInstalledVersion")
        installedVersion = version
        return []
    }

    /// The app starts again with `version` installed: after the store was opened, the new
    /// version means INSTALLED; an older one means the update is available again.
    mutating func relaunch(installedVersion version: Version) throws(UpdateFlowError) -> [Action] {
        try requireStore(.appStore, "relaunch")
        let installedNow = storeVersion.map { version >= $0 } ?? false
        installedVersion = version
        let wasOpened: Bool
        if case .pending = phase { wasOpened = true } else { wasOpened = false }
        phase = .idle
        return wasOpened && installedNow ? [.announce(.installed)] : []
    }

    // MARK: The app's calls

    mutating func getAppUpdateInfo() throws(UpdateFlowError) -> [Action] {
        if store == .googlePlay, errorCode != .noError {
            throw UpdateFlowError(errorCode, "getAppUpdateInfo fails with install error \(errorCode.summary)")
        }
        return [.deliver(appUpdateInfo)]
    }

    mutating func startUpdateFlow(_ type: AppUpdateType) throws(UpdateFlowError) -> [Action] {
        switch phase {
        case .idle:
            break
        case .prompting:
            throw .flowAlreadyShown
        case .pending(let current), .downloading(let current), .downloaded(let current), .installing(let current):
            // The guide: on every entry point, resume an immediate update in progress.
            if store == .googlePlay, type == .immediate, current == .immediate { return [.resumeImmediateFlow] }
            if store == .appStore { throw .storeOpened }
            throw UpdateFlowError(.errorInstallNotAllowed, "an update is already in progress (\(installStatus.name))")
        }
        if store == .appStore {
            guard isUpdateAvailable else { throw .notStartedOnAppStore }
        } else {
            guard updateAvailable, allowedTypes.contains(type) else {
                throw UpdateFlowError(
                    .errorInstallNotAllowed,
                    updateAvailable
                        ? "\(type.jsonName) updates are not allowed for this update" : "no update is available")
            }
        }
        phase = .prompting(type)
        return []
    }

    mutating func userAcceptsUpdate() throws(UpdateFlowError) -> [Action] {
        guard case .prompting(let type) = phase else { throw .noFlowVisible }
        phase = .pending(type)
        if store == .appStore { return [.openStore] }
        return announce(.pending, type)
    }

    mutating func userRejectsUpdate() throws(UpdateFlowError) -> [Action] {
        guard case .prompting(let type) = phase else { throw .noFlowVisible }
        if store == .appStore, type == .immediate { throw .promptNotDismissible }
        phase = .idle
        return []
    }

    mutating func completeUpdate() throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "completeUpdate")
        guard errorCode == .noError else {
            throw UpdateFlowError(errorCode, "completeUpdate fails with install error \(errorCode.summary)")
        }
        switch phase {
        case .downloaded(let type):
            phase = .installing(type)
            return announce(.installing, type)
        case .installing:
            throw UpdateFlowError(.errorInstallInProgress, "the update is already installing")
        case .idle, .prompting, .pending, .downloading:
            throw UpdateFlowError(.errorDownloadNotPresent, "no downloaded update to install")
        }
    }

    // MARK: Harness events: download and install (Play)

    mutating func downloadStarts() throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "downloadStarts")
        guard case .pending(let type) = phase else { throw .notPending }
        phase = .downloading(type)
        return announce(.downloading, type)
    }

    mutating func setTotalBytesToDownload(_ bytes: Int64) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setTotalBytesToDownload")
        guard case .downloading(let type) = phase else { throw .notDownloading }
        totalBytes = bytes
        return announce(.downloading, type)
    }

    mutating func setBytesDownloaded(_ bytes: Int64) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "setBytesDownloaded")
        guard case .downloading(let type) = phase else { throw .notDownloading }
        guard bytes <= totalBytes else { throw .bytesExceedTotal }
        bytesDownloaded = bytes
        return announce(.downloading, type)
    }

    mutating func downloadCompletes() throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "downloadCompletes")
        let type: AppUpdateType
        switch phase {
        case .pending(let current), .downloading(let current): type = current
        case .idle, .prompting, .downloaded, .installing: throw .noDownloadInProgress
        }
        phase = .downloaded(type)
        bytesDownloaded = 0
        totalBytes = 0
        var actions = announce(.downloaded, type)
        // An immediate update completes itself; an error code leaves it downloaded.
        if type == .immediate, errorCode == .noError {
            phase = .installing(type)
            actions += announce(.installing, type)
        }
        return actions
    }

    mutating func downloadFails() throws(UpdateFlowError) -> [Action] {
        try endDownload(with: .failed, "downloadFails")
    }

    mutating func userCancelsDownload() throws(UpdateFlowError) -> [Action] {
        try endDownload(with: .canceled, "userCancelsDownload")
    }

    mutating func installCompletes() throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "installCompletes")
        guard case .installing(let type) = phase else { throw .notInstalling }
        let actions = announce(.installed, type)
        // The fake's full reset: the installed version is the new one.
        phase = .idle
        updateAvailable = false
        availableVersionCode = 0
        stalenessDays = nil
        priority = 0
        bytesDownloaded = 0
        totalBytes = 0
        return actions
    }

    mutating func installFails() throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, "installFails")
        guard case .installing(let type) = phase else { throw .notInstalling }
        phase = .idle
        return announce(.failed, type)  // The update is still available.
    }

    // MARK: Helpers

    private mutating func endDownload(with status: InstallStatus, _ event: String) throws(UpdateFlowError) -> [Action] {
        try requireStore(.googlePlay, event)
        switch phase {
        case .pending(let type), .downloading(let type):
            phase = .idle
            return announce(status, type)
        case .idle, .prompting, .downloaded, .installing:
            throw .noDownloadInProgress
        }
    }

    /// Listeners hear flexible flows only, as with the fake.
    private func announce(_ status: InstallStatus, _ type: AppUpdateType) -> [Action] {
        type == .flexible ? [.announce(status)] : []
    }

    private func requireStore(_ wanted: Store, _ event: String) throws(UpdateFlowError) {
        guard store == wanted else { throw .unsupported(event, store: store) }
    }
}
