import StoreReleaseCore

/// Google's `FakeAppUpdateManager`, in Swift, for both stores.
///
/// Drive an update flow in a test and watch what an app would see.
///
/// The methods have the fake's names. The observers (``isConfirmationDialogVisible``,
/// ``isImmediateFlowVisible``, ``isInstallSplashScreenVisible``, ``typeForUpdateInProgress``)
/// answer as the fake's do; ``installStates`` is the install-state listener, which hears flexible
/// flows only, as with the fake; ``requestUpdateFlow()`` is play-core-ktx's result stream.
///
/// Deliberate differences, each a marked row of the parity table and listed in the Android parity
/// guide: what the fake ignores silently (accepting an update no dialog offered, completing a
/// download that never started) throws an ``UpdateFlowError`` here, and the state stays as it was.
///
/// ```swift
/// var fake = UpdateFlowSimulator()
/// try fake.setUpdateAvailable(2)
/// try fake.startUpdateFlow(.flexible)
/// try fake.userAcceptsUpdate()
/// ```
public struct UpdateFlowSimulator: Sendable {
    private var machine: UpdateFlowMachine
    private let listener: AsyncStream<InstallState>.Continuation
    private var flows: [AsyncStream<AppUpdateResult>.Continuation] = []

    /// What an `InstallStateUpdatedListener` registered now would be told, in order.
    public let installStates: AsyncStream<InstallState>

    /// A simulator with no update available.
    ///
    /// - Parameters:
    ///   - store: ``Store/googlePlay`` (the fake's flow) or ``Store/appStore``.
    ///   - packageName: The package name reported in update records and install states.
    public init(store: Store = .googlePlay, packageName: String = "com.example.app") {
        machine = UpdateFlowMachine(store: store, packageName: packageName)
        (installStates, listener) = AsyncStream.makeStream(of: InstallState.self)
    }

    /// Play's `unregisterListener`: ``installStates`` ends after what it was already told.
    ///
    /// A test that has driven the flow calls it, then reads every state the listener heard
    /// without waiting for one that will never come.
    public func unregisterListener() {
        listener.finish()
    }

    // MARK: Observers

    /// The flexible update's confirmation dialog is shown.
    public var isConfirmationDialogVisible: Bool { machine.isConfirmationDialogVisible }
    /// The immediate update's full-screen flow is shown.
    public var isImmediateFlowVisible: Bool { machine.isImmediateFlowVisible }
    /// The install splash screen is shown (after `completeUpdate()`).
    public var isInstallSplashScreenVisible: Bool { machine.isInstallSplashScreenVisible }
    /// The type of the flow under way, `nil` when none.
    public var typeForUpdateInProgress: AppUpdateType? { machine.typeInProgress }
    /// The store whose flow this is.
    public var store: Store { machine.store }
    /// How many times the App Store page was opened for the user (App Store flow: each accepted prompt).
    public private(set) var storeVisits = 0

    // MARK: The app's calls

    /// The current update record.
    ///
    /// - Throws: the install error code set with ``setInstallErrorCode(_:)``, as Play's task fails.
    public mutating func getAppUpdateInfo() throws(UpdateFlowError) -> AppUpdateInfo {
        try apply(machine.event(.getAppUpdateInfo, .getAppUpdateInfo)) ?? machine.appUpdateInfo
    }

    /// Starts an update flow: shows the confirmation dialog (flexible) or the immediate screen.
    ///
    /// - Throws: `ERROR_INSTALL_NOT_ALLOWED` when the type is not allowed now, as with the fake
    ///   (an update in progress allows none; real Play resumes an immediate one).
    public mutating func startUpdateFlow(_ options: AppUpdateOptions) throws(UpdateFlowError) {
        let type = options.appUpdateType
        try apply(
            machine.event(
                .startUpdateFlow(type, allowAssetPackDeletion: options.allowAssetPackDeletion), .startUpdateFlow(type)))
    }

    /// Starts an update flow of a type with the default options.
    public mutating func startUpdateFlow(_ type: AppUpdateType) throws(UpdateFlowError) {
        try startUpdateFlow(.defaultOptions(type))
    }

    /// Installs a downloaded update (`completeUpdate()`).
    ///
    /// - Throws: `ERROR_DOWNLOAD_NOT_PRESENT`, `ERROR_INSTALL_IN_PROGRESS`, or the install error
    ///   code in force.
    public mutating func completeUpdate() throws(UpdateFlowError) { try apply(.googlePlay(.completeUpdate)) }

    /// play-core-ktx's `requestUpdateFlow()`: the update's state now, then what listeners hear.
    ///
    /// DOWNLOADED, FAILED, CANCELED or UNKNOWN ends the stream.
    public mutating func requestUpdateFlow() throws(UpdateFlowError) -> AsyncStream<AppUpdateResult> {
        let info = try getAppUpdateInfo()
        let (stream, continuation) = AsyncStream.makeStream(of: AppUpdateResult.self)
        switch info.updateAvailability {
        case .updateAvailable, .developerTriggeredUpdateInProgress:
            if info.installStatus == .downloaded {
                continuation.yield(.downloaded)
                continuation.finish()
            } else {
                continuation.yield(.available(info))
                flows.append(continuation)
            }
        default:
            continuation.yield(.notAvailable)
            continuation.finish()
        }
        return stream
    }

    // MARK: The user and Play (the fake's harness)

    /// Play knows of an update to `versionCode`, of both types or only `type`.
    public mutating func setUpdateAvailable(_ versionCode: Int, type: AppUpdateType? = nil) throws(UpdateFlowError) {
        try apply(.googlePlay(.setUpdateAvailable(versionCode: versionCode, type: type)))
    }
    /// No update any more; staleness is forgotten, priority and versionCode kept (as the fake does).
    public mutating func setUpdateNotAvailable() throws(UpdateFlowError) {
        try apply(.googlePlay(.setUpdateNotAvailable))
    }
    /// The update's priority (0–5). Refused when no update is available.
    public mutating func setUpdatePriority(_ priority: Int) throws(UpdateFlowError) {
        try apply(.googlePlay(.setUpdatePriority(priority)))
    }
    /// Days since Play learned of the update (`nil`: unknown). Refused when no update is available.
    public mutating func setClientVersionStalenessDays(_ days: Int?) throws(UpdateFlowError) {
        try apply(.googlePlay(.setClientVersionStalenessDays(days)))
    }
    /// Why Play does not allow `type` now (`INSUFFICIENT_STORAGE`…).
    ///
    /// With `allowedWithAssetPackDeletion`, a flow started with asset-pack deletion allowed is
    /// allowed; an empty set allows the type again. Refused when no update is available. Google's
    /// fake has no such call (its record's preconditions are always empty).
    public mutating func setUpdatePreconditions(
        _ failed: Set<UpdatePrecondition>, for type: AppUpdateType, allowedWithAssetPackDeletion: Bool = false
    ) throws(UpdateFlowError) {
        try apply(
            .googlePlay(
                .setUpdatePreconditions(
                    type, failed: failed, allowedWithAssetPackDeletion: allowedWithAssetPackDeletion)))
    }
    /// An install error code that `getAppUpdateInfo` and `completeUpdate` then fail with.
    public mutating func setInstallErrorCode(_ code: InstallErrorCode) throws(UpdateFlowError) {
        try apply(.googlePlay(.setInstallErrorCode(code)))
    }
    /// The user accepts the prompt: PENDING on Play, the store opens on the App Store.
    public mutating func userAcceptsUpdate() throws(UpdateFlowError) {
        try apply(machine.event(.userAcceptsUpdate, .userAcceptsUpdate))
    }
    /// The user declines the prompt, or leaves Play's immediate screen before the install.
    ///
    /// Leaving the immediate screen cancels the update; an App Store immediate prompt cannot be
    /// declined.
    public mutating func userRejectsUpdate() throws(UpdateFlowError) {
        try apply(machine.event(.userRejectsUpdate, .userRejectsUpdate))
    }
    /// Play starts downloading (after the user accepted).
    public mutating func downloadStarts() throws(UpdateFlowError) { try apply(.googlePlay(.downloadStarts)) }
    /// The download's size, while downloading.
    public mutating func setTotalBytesToDownload(_ bytes: Int64) throws(UpdateFlowError) {
        try apply(.googlePlay(.setTotalBytesToDownload(bytes)))
    }
    /// Progress, while downloading; at most the total.
    public mutating func setBytesDownloaded(_ bytes: Int64) throws(UpdateFlowError) {
        try apply(.googlePlay(.setBytesDownloaded(bytes)))
    }
    /// The download finishes: DOWNLOADED; an immediate update then installs by itself.
    public mutating func downloadCompletes() throws(UpdateFlowError) { try apply(.googlePlay(.downloadCompletes)) }
    /// The download fails: FAILED is announced, then the flow resets.
    public mutating func downloadFails() throws(UpdateFlowError) { try apply(.googlePlay(.downloadFails)) }
    /// The user cancels the download: CANCELED is announced, then the flow resets.
    public mutating func userCancelsDownload() throws(UpdateFlowError) { try apply(.googlePlay(.userCancelsDownload)) }
    /// The install finishes: INSTALLED is announced, and there is no update any more.
    public mutating func installCompletes() throws(UpdateFlowError) { try apply(.googlePlay(.installCompletes)) }
    /// The install fails: FAILED is announced; the update is still available.
    public mutating func installFails() throws(UpdateFlowError) { try apply(.googlePlay(.installFails)) }

    // MARK: The App Store's harness

    /// The version the App Store serves.
    public mutating func setStoreVersion(_ version: Version) throws(UpdateFlowError) {
        try apply(.appStore(.setStoreVersion(version)))
    }
    /// The version installed on the device.
    public mutating func setInstalledVersion(_ version: Version) throws(UpdateFlowError) {
        try apply(.appStore(.setInstalledVersion(version)))
    }
    /// The app starts again with `version` installed (after the user visited the store, or not).
    public mutating func relaunch(_ version: Version) throws(UpdateFlowError) {
        try apply(.appStore(.relaunch(version)))
    }

    // MARK: Effects

    /// Applies an event and performs every action the machine returns.
    ///
    /// - Returns: The record handed out, when the event delivered one.
    @discardableResult
    private mutating func apply(_ event: UpdateFlowEvent) throws(UpdateFlowError) -> AppUpdateInfo? {
        var delivered: AppUpdateInfo?
        for action in try machine.handle(event) {
            switch action {
            case .announce(let status): announce(status)
            case .deliver(let info): delivered = info
            case .openStore: storeVisits += 1
            }
        }
        return delivered
    }

    /// Tells the listener, and every ktx flow, of a status.
    private mutating func announce(_ status: InstallStatus) {
        let info = machine.appUpdateInfo
        let state = InstallState(
            installStatus: status, installErrorCode: info.installErrorCode, bytesDownloaded: info.bytesDownloaded,
            totalBytesToDownload: info.totalBytesToDownload, packageName: info.packageName)
        listener.yield(state)
        for flow in flows {
            flow.yield(status == .downloaded ? .downloaded : .inProgress(state))
        }
        if status == .unknown || status == .downloaded || status == .failed || status == .canceled {
            for flow in flows { flow.finish() }
            flows.removeAll()
        }
    }
}
