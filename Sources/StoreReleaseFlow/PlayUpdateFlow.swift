import StoreReleaseCore

/// Google Play's update flow, as `FakeAppUpdateManager` (app-update 2.x) runs it, as a pure
/// state machine.
///
/// The state is where the flow is (``State``, each case carrying its data) and what Play offers
/// (``Offer``). Each event is one exhaustive `switch` over the state; it returns the actions the
/// owner performs, or throws an ``UpdateFlowError`` and changes nothing. Where this differs from
/// the fake on purpose, the Android parity guide lists it, and the parity table marks the row.
struct PlayUpdateFlow: Sendable, Hashable {
    /// Where the flow is.
    enum State: Sendable, Hashable {
        /// Nothing shown, nothing downloading.
        case idle
        /// The confirmation dialog (flexible) or the immediate update screen is shown.
        case prompting(AppUpdateType)
        /// Accepted; Play will download (PENDING). The immediate screen stays up.
        case pending(AppUpdateType)
        /// Downloading, with the progress Play reports.
        case downloading(AppUpdateType, bytes: Int64, total: Int64)
        /// Downloaded, waiting for `completeUpdate()` (an immediate update stays here only when
        /// an install error code stopped it completing itself).
        case downloaded(AppUpdateType)
        /// Installing: the install splash screen is shown.
        case installing(AppUpdateType)
    }

    /// What Play offers, as the fake's setters leave it.
    struct Offer: Sendable, Hashable {
        var available = false
        var versionCode = 0
        var allowedTypes: [AppUpdateType] = []
        var stalenessDays: Int?
        var priority = 0
        /// Why Play does not allow a type now (`setUpdatePreconditions`); empty: allowed.
        var failed: [AppUpdateType: Set<UpdatePrecondition>] = [:]
        /// The types Play would allow once asset packs may be deleted, though their preconditions fail.
        var allowedWithAssetPackDeletion: Set<AppUpdateType> = []

        /// Whether Play starts `type` now, with asset-pack deletion allowed or not.
        func allows(_ type: AppUpdateType, deletingAssetPacks: Bool) -> Bool {
            guard available, allowedTypes.contains(type) else { return false }
            if failed[type]?.isEmpty ?? true { return true }
            return deletingAssetPacks && allowedWithAssetPackDeletion.contains(type)
        }
    }

    let packageName: String
    private(set) var state: State = .idle
    private(set) var offer = Offer()
    private(set) var errorCode: InstallErrorCode = .noError

    init(packageName: String = "com.example.app") {
        self.packageName = packageName
    }

    // MARK: What the app sees

    /// The type of the flow under way, `nil` when idle.
    var typeInProgress: AppUpdateType? {
        switch state {
        case .idle: nil
        case .prompting(let type), .pending(let type), .downloading(let type, _, _), .downloaded(let type),
            .installing(let type):
            type
        }
    }

    var installStatus: InstallStatus {
        switch state {
        case .idle, .prompting: .unknown
        case .pending: .pending
        case .downloading: .downloading
        case .downloaded: .downloaded
        case .installing: .installing
        }
    }

    /// As the fake derives it: not available; available while no flow has been accepted; in
    /// progress after.
    var updateAvailability: UpdateAvailability {
        guard offer.available else { return .updateNotAvailable }
        return installStatus == .unknown ? .updateAvailable : .developerTriggeredUpdateInProgress
    }

    var isConfirmationDialogVisible: Bool { state == .prompting(.flexible) }
    var isImmediateFlowVisible: Bool { typeInProgress == .immediate }
    var isInstallSplashScreenVisible: Bool { installStatus == .installing }

    var progress: (bytes: Int64, total: Int64) {
        switch state {
        case .downloading(_, let bytes, let total): (bytes, total)
        case .idle, .prompting, .pending, .downloaded, .installing: (0, 0)
        }
    }

    /// The record `getAppUpdateInfo` hands out: types are allowed only while the update is
    /// available and no flow is under way, as the fake fills its intents.
    var appUpdateInfo: AppUpdateInfo {
        let availability = updateAvailability
        return AppUpdateInfo(
            packageName: packageName, availableVersionCode: offer.versionCode, updateAvailability: availability,
            installStatus: installStatus, updatePriority: offer.priority,
            clientVersionStalenessDays: offer.stalenessDays, bytesDownloaded: progress.bytes,
            totalBytesToDownload: progress.total, installErrorCode: errorCode,
            allowedUpdateTypes: availability == .updateAvailable
                ? offer.allowedTypes.filter { offer.allows($0, deletingAssetPacks: false) } : [],
            failedPreconditions: offer.available ? offer.failed.filter { !$0.value.isEmpty } : [:],
            allowedUpdateTypesWithAssetPackDeletion: availability == .updateAvailable
                ? offer.allowedTypes.filter { offer.allows($0, deletingAssetPacks: true) } : [])
    }

    // MARK: Events

    /// Applies one event.
    mutating func handle(_ event: PlayFlowEvent) throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch event {
        case .setUpdateAvailable(let versionCode, let type):
            offer.available = true
            offer.versionCode = versionCode
            offer.allowedTypes = type.map { [$0] } ?? AppUpdateType.allValues
            offer.failed = [:]
            offer.allowedWithAssetPackDeletion = []
            return []
        case .setUpdateNotAvailable:
            offer.available = false
            offer.stalenessDays = nil
            offer.failed = [:]
            offer.allowedWithAssetPackDeletion = []
            return []
        case .setUpdatePreconditions(let type, let failed, let deleting):
            if !offer.available { throw .updateNotAvailable }
            offer.failed[type] = failed
            if deleting && !failed.isEmpty {
                offer.allowedWithAssetPackDeletion.insert(type)
            } else {
                offer.allowedWithAssetPackDeletion.remove(type)
            }
            return []
        case .setUpdatePriority(let priority):
            if !offer.available { throw .updateNotAvailable }
            offer.priority = priority
            return []
        case .setClientVersionStalenessDays(let days):
            if !offer.available { throw .updateNotAvailable }
            offer.stalenessDays = days
            return []
        case .setInstallErrorCode(let code):
            errorCode = code
            return []
        case .getAppUpdateInfo:
            if errorCode != .noError {
                throw UpdateFlowError(errorCode, "getAppUpdateInfo fails with install error \(errorCode.summary)")
            }
            return [.deliver(appUpdateInfo)]
        case .startUpdateFlow(let type, let deleting): return try startUpdateFlow(type, deletingAssetPacks: deleting)
        case .userAcceptsUpdate: return try userAcceptsUpdate()
        case .userRejectsUpdate: return try userRejectsUpdate()
        case .downloadStarts: return try downloadStarts()
        case .setTotalBytesToDownload(let total): return try setTotalBytesToDownload(total)
        case .setBytesDownloaded(let bytes): return try setBytesDownloaded(bytes)
        case .downloadCompletes: return try downloadCompletes()
        case .downloadFails: return try endDownload(.failed)
        case .userCancelsDownload: return try endDownload(.canceled)
        case .completeUpdate: return try completeUpdate()
        case .installCompletes: return try installCompletes()
        case .installFails: return try installFails()
        }
    }

    private mutating func startUpdateFlow(_ type: AppUpdateType, deletingAssetPacks: Bool) throws(UpdateFlowError)
        -> [UpdateFlowAction]
    {
        switch state {
        case .idle:
            guard offer.allows(type, deletingAssetPacks: deletingAssetPacks) else {
                var why =
                    offer.available
                    ? "\(type.jsonName) updates are not allowed for this update" : "no update is available"
                if offer.available, offer.allowedTypes.contains(type), let failed = offer.failed[type] {
                    why =
                        "\(type.jsonName) updates are not allowed now: "
                        + failed.sorted { $0.rawValue < $1.rawValue }.map(\.name).joined(separator: ", ")
                    if offer.allowedWithAssetPackDeletion.contains(type) {
                        why += " (allowAssetPackDeletion would allow it)"
                    }
                }
                throw UpdateFlowError(.errorInstallNotAllowed, why)
            }
            state = .prompting(type)
            return []
        case .prompting:
            throw .flowAlreadyShown
        case .pending, .downloading, .downloaded, .installing:
            // The fake's record has no intents while an update is in progress, so a second
            // start is not allowed; real Play resumes an immediate update (UpdatePolicy says
            // resumeImmediate, and the app calls startUpdateFlow on the real manager).
            throw UpdateFlowError(
                .errorInstallNotAllowed,
                "an update is already in progress (\(installStatus.name)): no update type is allowed")
        }
    }

    private mutating func userAcceptsUpdate() throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .prompting(let type):
            state = .pending(type)
            return announce(.pending, type)
        case .pending(let type), .downloading(let type, _, _), .downloaded(let type), .installing(let type):
            throw type == .immediate ? .alreadyAccepted : .noFlowVisible
        case .idle:
            throw .noFlowVisible
        }
    }

    private mutating func userRejectsUpdate() throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .prompting:
            state = .idle
            return []
        case .pending(let type), .downloading(let type, _, _), .downloaded(let type):
            // Leaving Play's immediate screen cancels the flow; immediate flows tell no listener.
            guard type == .immediate else { throw .noFlowVisible }
            state = .idle
            return []
        case .installing(let type):
            throw type == .immediate ? .cannotLeaveInstall : .noFlowVisible
        case .idle:
            throw .noFlowVisible
        }
    }

    private mutating func downloadStarts() throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .pending(let type):
            state = .downloading(type, bytes: 0, total: 0)
            return announce(.downloading, type)
        case .idle, .prompting, .downloading, .downloaded, .installing:
            throw .notPending
        }
    }

    private mutating func setTotalBytesToDownload(_ total: Int64) throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .downloading(let type, let bytes, _):
            state = .downloading(type, bytes: bytes, total: total)
            return announce(.downloading, type)
        case .idle, .prompting, .pending, .downloaded, .installing:
            throw .notDownloading
        }
    }

    private mutating func setBytesDownloaded(_ bytes: Int64) throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .downloading(let type, _, let total):
            if bytes > total { throw .bytesExceedTotal }
            state = .downloading(type, bytes: bytes, total: total)
            return announce(.downloading, type)
        case .idle, .prompting, .pending, .downloaded, .installing:
            throw .notDownloading
        }
    }

    private mutating func downloadCompletes() throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .pending(let type), .downloading(let type, _, _):
            state = .downloaded(type)
            // An immediate update installs itself; an install error code stops it downloaded.
            guard type == .immediate, errorCode == .noError else { return announce(.downloaded, type) }
            state = .installing(type)
            return announce(.downloaded, type) + announce(.installing, type)
        case .idle, .prompting, .downloaded, .installing:
            throw .noDownloadInProgress
        }
    }

    private mutating func endDownload(_ status: InstallStatus) throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .pending(let type), .downloading(let type, _, _):
            state = .idle
            return announce(status, type)
        case .idle, .prompting, .downloaded, .installing:
            throw .noDownloadInProgress
        }
    }

    private mutating func completeUpdate() throws(UpdateFlowError) -> [UpdateFlowAction] {
        if errorCode != .noError {
            throw UpdateFlowError(errorCode, "completeUpdate fails with install error \(errorCode.summary)")
        }
        switch state {
        case .downloaded(let type):
            state = .installing(type)
            return announce(.installing, type)
        case .installing:
            throw UpdateFlowError(.errorInstallInProgress, "the update is already installing")
        case .idle, .prompting, .pending, .downloading:
            throw UpdateFlowError(.errorDownloadNotPresent, "no downloaded update to install")
        }
    }

    private mutating func installCompletes() throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .installing(let type):
            // The fake's full reset: the installed version is the new one.
            state = .idle
            offer = Offer()
            return announce(.installed, type)
        case .idle, .prompting, .pending, .downloading, .downloaded:
            throw .notInstalling
        }
    }

    private mutating func installFails() throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch state {
        case .installing(let type):
            state = .idle  // The update is still available.
            return announce(.failed, type)
        case .idle, .prompting, .pending, .downloading, .downloaded:
            throw .notInstalling
        }
    }

    /// Listeners hear flexible flows only, as with the fake.
    private func announce(_ status: InstallStatus, _ type: AppUpdateType) -> [UpdateFlowAction] {
        type == .flexible ? [.announce(status)] : []
    }
}
