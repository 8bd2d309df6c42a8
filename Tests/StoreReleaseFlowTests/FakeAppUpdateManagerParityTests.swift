import StoreReleaseCore
import StoreReleaseFlow
import Testing

/// One test per row of FakeAppUpdateManager's state × event table
/// (shared/reference/play-in-app-updates.md §3), run through the public simulator, with the
/// observers and what the listener hears. Where the fake ignores an event silently, the
/// simulator refuses it with an error instead; those tests say so in their names.
@Suite struct FakeAppUpdateManagerParityTests {
    /// Every install status the listener heard, in order: the listener is unregistered first,
    /// so the stream ends after what it was told and nothing is waited for.
    func heard(_ fake: UpdateFlowSimulator) async -> [InstallStatus] {
        fake.unregisterListener()
        var statuses: [InstallStatus] = []
        for await state in fake.installStates { statuses.append(state.installStatus) }
        return statuses
    }

    func flexibleDownloading() throws -> UpdateFlowSimulator {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        try fake.downloadStarts()
        return fake
    }

    func immediateDownloading() throws -> UpdateFlowSimulator {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.immediate)
        try fake.userAcceptsUpdate()
        try fake.downloadStarts()
        return fake
    }

    func expectRefusal(
        _ code: String, _ body: () throws(UpdateFlowError) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do throws(UpdateFlowError) {
            try body()
            Issue.record("expected \(code)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
        }
    }

    // MARK: Preconditions (beyond the fake)

    @Test func aTypeWhosePreconditionsFailStartsOnlyWithAssetPackDeletionAndTheRecordSaysSo() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(42)
        try fake.setUpdatePreconditions([.insufficientStorage], for: .flexible, allowedWithAssetPackDeletion: true)
        let info = try fake.getAppUpdateInfo()
        #expect(
            info.allowedUpdateTypes == [.immediate] && info.failedPreconditions[.flexible] == [.insufficientStorage])
        #expect(info.isUpdateTypeAllowed(AppUpdateOptions(appUpdateType: .flexible, allowAssetPackDeletion: true)))
        // The record the policy decides over (UpdateDecisionTests: flexible, deleting asset packs).
        #expect(info.allowedUpdateTypesWithAssetPackDeletion == [.flexible, .immediate])
        expectRefusal("ERROR_INSTALL_NOT_ALLOWED") { () throws(UpdateFlowError) in try fake.startUpdateFlow(.flexible) }
        try fake.startUpdateFlow(AppUpdateOptions(appUpdateType: .flexible, allowAssetPackDeletion: true))
        try fake.userAcceptsUpdate()
        #expect(try fake.getAppUpdateInfo().installStatus == .pending, "the flow started")
    }

    @Test func aTypeNotAllowedEvenThenIsRefusedNamingWhy() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(42)
        try fake.setUpdatePreconditions([.needStoreToProceed], for: .flexible)
        let info = try fake.getAppUpdateInfo()
        // The record the policy decides over (UpdateDecisionTests: not allowed, the preconditions named).
        #expect(!info.isUpdateTypeAllowed(AppUpdateOptions(appUpdateType: .flexible, allowAssetPackDeletion: true)))
        #expect(info.failedPreconditions[.flexible] == [.needStoreToProceed])
        do throws(UpdateFlowError) {
            try fake.startUpdateFlow(AppUpdateOptions(appUpdateType: .flexible, allowAssetPackDeletion: true))
            Issue.record("a start that Play does not allow")
        } catch {
            #expect(error.code == "ERROR_INSTALL_NOT_ALLOWED" && "\(error)".contains("NEED_STORE_TO_PROCEED"))
        }
        try fake.setUpdatePreconditions([], for: .flexible)
        #expect(
            try fake.getAppUpdateInfo().allowedUpdateTypes == [.flexible, .immediate], "an empty set allows it again")
        try fake.setUpdateNotAvailable()
        expectRefusal("updateNotAvailable") { () throws(UpdateFlowError) in
            try fake.setUpdatePreconditions([.deviceStatus], for: .immediate)
        }
    }

    // MARK: Setters

    @Test func setUpdateAvailableAllowsBothTypesOrTheOneGiven() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(42)
        var info = try fake.getAppUpdateInfo()
        #expect(info.updateAvailability == .updateAvailable && info.availableVersionCode == 42)
        #expect(info.isUpdateTypeAllowed(.flexible) && info.isUpdateTypeAllowed(.immediate))
        #expect(info.isUpdateTypeAllowed(AppUpdateOptions(appUpdateType: .immediate, allowAssetPackDeletion: true)))
        try fake.setUpdateAvailable(43, type: .immediate)
        info = try fake.getAppUpdateInfo()
        #expect(!info.isUpdateTypeAllowed(.flexible) && info.isUpdateTypeAllowed(.immediate))
    }

    @Test func setUpdateNotAvailableClearsStalenessButKeepsPriorityAndVersionCode() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(42)
        try fake.setUpdatePriority(5)
        try fake.setClientVersionStalenessDays(3)
        try fake.setUpdateNotAvailable()
        let info = try fake.getAppUpdateInfo()
        #expect(info.updateAvailability == .updateNotAvailable)
        #expect(info.clientVersionStalenessDays == nil)
        #expect(info.updatePriority == 5 && info.availableVersionCode == 42)
        #expect(info.allowedUpdateTypes.isEmpty)
    }

    @Test func priorityAndStalenessWithoutAnUpdateAreRefusedWhereTheFakeIgnoresThem() {
        var fake = UpdateFlowSimulator()
        expectRefusal("updateNotAvailable") { () throws(UpdateFlowError) in try fake.setUpdatePriority(4) }
        expectRefusal("updateNotAvailable") { () throws(UpdateFlowError) in try fake.setClientVersionStalenessDays(2) }
    }

    @Test func setInstallErrorCodeFailsGetAppUpdateInfoButNotStart() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.setInstallErrorCode(.errorAppNotOwned)
        expectRefusal("ERROR_APP_NOT_OWNED") { () throws(UpdateFlowError) in _ = try fake.getAppUpdateInfo() }
        try fake.startUpdateFlow(.flexible)  // start* is not affected
        #expect(fake.isConfirmationDialogVisible)
    }

    // MARK: Starting a flow

    @Test func idleAvailableStartFlexibleShowsTheConfirmationDialog() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.flexible)
        #expect(fake.isConfirmationDialogVisible && !fake.isImmediateFlowVisible)
        #expect(fake.typeForUpdateInProgress == .flexible)
        let info = try fake.getAppUpdateInfo()
        #expect(info.installStatus == .unknown && info.updateAvailability == .updateAvailable)
    }

    @Test func idleAvailableStartImmediateShowsTheImmediateFlow() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.immediate)
        #expect(fake.isImmediateFlowVisible && !fake.isConfirmationDialogVisible)
        #expect(fake.typeForUpdateInProgress == .immediate)
    }

    @Test func startWhenNotAllowedFailsWithInstallNotAllowed() throws {
        var fake = UpdateFlowSimulator()
        expectRefusal("ERROR_INSTALL_NOT_ALLOWED") { () throws(UpdateFlowError) in try fake.startUpdateFlow(.flexible) }
        try fake.setUpdateAvailable(2, type: .immediate)
        expectRefusal("ERROR_INSTALL_NOT_ALLOWED") { () throws(UpdateFlowError) in try fake.startUpdateFlow(.flexible) }
        #expect(fake.typeForUpdateInProgress == nil)
    }

    @Test func startingAFlowWhileAnUpdateIsInProgressIsNotAllowedAsWithTheFake() throws {
        var fake = try immediateDownloading()
        #expect(try fake.getAppUpdateInfo().updateAvailability == .developerTriggeredUpdateInProgress)
        #expect(try fake.getAppUpdateInfo().allowedUpdateTypes.isEmpty)
        expectRefusal("ERROR_INSTALL_NOT_ALLOWED") { () throws(UpdateFlowError) in try fake.startUpdateFlow(.immediate)
        }
        #expect(fake.isImmediateFlowVisible)
        #expect(try fake.getAppUpdateInfo().installStatus == .downloading)
    }

    @Test func leavingTheImmediateScreenCancelsTheUpdateAndTellsNoListener() async throws {
        var fake = try immediateDownloading()
        try fake.userRejectsUpdate()
        #expect(!fake.isImmediateFlowVisible && fake.typeForUpdateInProgress == nil)
        let info = try fake.getAppUpdateInfo()
        #expect(info.updateAvailability == .updateAvailable && info.installStatus == .unknown)
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        #expect(await heard(fake) == [.pending], "only the flexible flow's PENDING, nothing from the immediate one")
    }

    // MARK: The user's answer

    @Test func dialogVisibleUserAcceptsUpdateIsPendingAndHidesTheDialog() async throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        #expect(!fake.isConfirmationDialogVisible)
        let info = try fake.getAppUpdateInfo()
        #expect(info.installStatus == .pending && info.updateAvailability == .developerTriggeredUpdateInProgress)
        #expect(await heard(fake) == [.pending])
    }

    @Test func immediateVisibleUserAcceptsUpdateKeepsTheImmediateFlowVisible() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.immediate)
        try fake.userAcceptsUpdate()
        #expect(fake.isImmediateFlowVisible)
        #expect(try fake.getAppUpdateInfo().installStatus == .pending)
    }

    @Test func dialogOrImmediateVisibleUserRejectsUpdateHidesBothAndClearsTheType() throws {
        for type in AppUpdateType.allValues {
            var fake = UpdateFlowSimulator()
            try fake.setUpdateAvailable(2)
            try fake.startUpdateFlow(type)
            try fake.userRejectsUpdate()
            #expect(!fake.isConfirmationDialogVisible && !fake.isImmediateFlowVisible)
            #expect(fake.typeForUpdateInProgress == nil)
            #expect(try fake.getAppUpdateInfo().updateAvailability == .updateAvailable)
        }
    }

    @Test func acceptingWithNoFlowVisibleIsRefusedWhereTheFakeIgnoresIt() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        expectRefusal("noFlowVisible") { () throws(UpdateFlowError) in try fake.userAcceptsUpdate() }
        expectRefusal("noFlowVisible") { () throws(UpdateFlowError) in try fake.userRejectsUpdate() }
    }

    // MARK: Downloading

    @Test func pendingDownloadStartsIsDownloading() async throws {
        let fake = try flexibleDownloading()
        var copy = fake
        #expect(try copy.getAppUpdateInfo().installStatus == .downloading)
        #expect(await heard(fake) == [.pending, .downloading])
    }

    @Test func downloadStartsNeedsUserAcceptsUpdateFirst() throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        try fake.startUpdateFlow(.flexible)
        expectRefusal("notPending") { () throws(UpdateFlowError) in try fake.downloadStarts() }
    }

    @Test func downloadingSetTotalBytesAndSetBytesDownloadedAtMostTheTotal() async throws {
        var fake = try flexibleDownloading()
        try fake.setTotalBytesToDownload(1000)
        try fake.setBytesDownloaded(400)
        expectRefusal("bytesExceedTotal") { () throws(UpdateFlowError) in try fake.setBytesDownloaded(1001) }
        let info = try fake.getAppUpdateInfo()
        #expect(info.bytesDownloaded == 400 && info.totalBytesToDownload == 1000)
        #expect(await heard(fake) == [.pending, .downloading, .downloading, .downloading])
    }

    @Test func bytesOutsideADownloadAreRefusedWhereTheFakeIgnoresThem() throws {
        var fake = UpdateFlowSimulator()
        expectRefusal("notDownloading") { () throws(UpdateFlowError) in try fake.setTotalBytesToDownload(5) }
        expectRefusal("notDownloading") { () throws(UpdateFlowError) in try fake.setBytesDownloaded(5) }
    }

    @Test func pendingOrDownloadingDownloadCompletesIsDownloadedWithBytesReset() async throws {
        var fake = try flexibleDownloading()
        try fake.setTotalBytesToDownload(1000)
        try fake.downloadCompletes()
        let info = try fake.getAppUpdateInfo()
        #expect(info.installStatus == .downloaded)
        #expect(info.bytesDownloaded == 0 && info.totalBytesToDownload == 0)
        #expect(!fake.isInstallSplashScreenVisible)
        // downloadStarts can be skipped: PENDING completes too.
        var skipped = UpdateFlowSimulator()
        try skipped.setUpdateAvailable(2)
        try skipped.startUpdateFlow(.flexible)
        try skipped.userAcceptsUpdate()
        try skipped.downloadCompletes()
        #expect(try skipped.getAppUpdateInfo().installStatus == .downloaded)
    }

    @Test func immediateDownloadCompletesInstallsWithoutCompleteUpdate() throws {
        var fake = try immediateDownloading()
        try fake.downloadCompletes()
        #expect(fake.isInstallSplashScreenVisible && fake.isImmediateFlowVisible)
        #expect(try fake.getAppUpdateInfo().installStatus == .installing)
    }

    @Test func pendingOrDownloadingDownloadFailsAnnouncesFailedThenResets() async throws {
        var fake = try flexibleDownloading()
        try fake.downloadFails()
        #expect(fake.typeForUpdateInProgress == nil && !fake.isInstallSplashScreenVisible)
        let info = try fake.getAppUpdateInfo()
        #expect(info.installStatus == .unknown, "FAILED is never visible to getAppUpdateInfo")
        #expect(info.updateAvailability == .updateAvailable)
        #expect(await heard(fake) == [.pending, .downloading, .failed])
    }

    @Test func pendingOrDownloadingUserCancelsDownloadAnnouncesCanceledThenResets() async throws {
        var fake = try immediateDownloading()
        try fake.userCancelsDownload()
        #expect(!fake.isImmediateFlowVisible && fake.typeForUpdateInProgress == nil)
        #expect(try fake.getAppUpdateInfo().installStatus == .unknown)
        var flexible = try flexibleDownloading()
        try flexible.userCancelsDownload()
        #expect(await heard(flexible) == [.pending, .downloading, .canceled])
    }

    // MARK: Completing and installing

    @Test func downloadedCompleteUpdateIsInstallingWithTheSplash() throws {
        var fake = try flexibleDownloading()
        try fake.downloadCompletes()
        try fake.completeUpdate()
        #expect(fake.isInstallSplashScreenVisible)
        #expect(try fake.getAppUpdateInfo().installStatus == .installing)
    }

    @Test func installingCompleteUpdateFailsWithInstallInProgress() throws {
        var fake = try flexibleDownloading()
        try fake.downloadCompletes()
        try fake.completeUpdate()
        expectRefusal("ERROR_INSTALL_IN_PROGRESS") { () throws(UpdateFlowError) in try fake.completeUpdate() }
    }

    @Test func anyOtherStatusCompleteUpdateFailsWithDownloadNotPresent() throws {
        var fake = UpdateFlowSimulator()
        expectRefusal("ERROR_DOWNLOAD_NOT_PRESENT") { () throws(UpdateFlowError) in try fake.completeUpdate() }
        var downloading = try flexibleDownloading()
        expectRefusal("ERROR_DOWNLOAD_NOT_PRESENT") { () throws(UpdateFlowError) in try downloading.completeUpdate() }
    }

    @Test func anyCompleteUpdateWithAnErrorCodeFailsWithItFirst() throws {
        var fake = try flexibleDownloading()
        try fake.downloadCompletes()
        try fake.setInstallErrorCode(.errorInstallNotAllowed)
        expectRefusal("ERROR_INSTALL_NOT_ALLOWED") { () throws(UpdateFlowError) in try fake.completeUpdate() }
        try fake.setInstallErrorCode(.noError)
        try fake.completeUpdate()
    }

    @Test func installingInstallCompletesAnnouncesInstalledThenResetsEverything() async throws {
        var fake = try flexibleDownloading()
        try fake.setUpdatePriority(4)
        try fake.setClientVersionStalenessDays(9)
        try fake.downloadCompletes()
        try fake.completeUpdate()
        try fake.installCompletes()
        let info = try fake.getAppUpdateInfo()
        #expect(info.updateAvailability == .updateNotAvailable && info.installStatus == .unknown)
        #expect(info.availableVersionCode == 0 && info.updatePriority == 0 && info.clientVersionStalenessDays == nil)
        #expect(
            !fake.isInstallSplashScreenVisible && !fake.isImmediateFlowVisible && fake.typeForUpdateInProgress == nil)
        #expect(await heard(fake) == [.pending, .downloading, .downloaded, .installing, .installed])
    }

    @Test func installingInstallFailsAnnouncesFailedAndTheUpdateIsStillAvailable() throws {
        var fake = try immediateDownloading()
        try fake.downloadCompletes()
        try fake.installFails()
        #expect(!fake.isInstallSplashScreenVisible && !fake.isImmediateFlowVisible)
        let info = try fake.getAppUpdateInfo()
        #expect(info.updateAvailability == .updateAvailable && info.installStatus == .unknown)
    }

    @Test func installEventsOutsideAnInstallAreRefusedWhereTheFakeIgnoresThem() throws {
        var fake = try flexibleDownloading()
        expectRefusal("notInstalling") { () throws(UpdateFlowError) in try fake.installCompletes() }
        expectRefusal("notInstalling") { () throws(UpdateFlowError) in try fake.installFails() }
    }

    // MARK: Listeners and the ktx stream

    @Test func immediateFlowsNeverNotifyListeners() async throws {
        // An immediate flow end to end would announce PENDING, DOWNLOADING, DOWNLOADED,
        // INSTALLING, INSTALLED; then a flexible flow announces PENDING, DOWNLOADING, CANCELED.
        // The listener must hear the flexible flow's three and nothing before them.
        var fake = try immediateDownloading()
        try fake.downloadCompletes()
        try fake.installCompletes()
        try fake.setUpdateAvailable(3)
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        try fake.downloadStarts()
        try fake.userCancelsDownload()
        #expect(await heard(fake) == [.pending, .downloading, .canceled])
    }

    @Test func requestUpdateFlowEmitsAvailableThenProgressThenDownloadedAndEnds() async throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        let flow = try fake.requestUpdateFlow()
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        try fake.downloadStarts()
        try fake.downloadCompletes()
        var results: [AppUpdateResult] = []
        for await result in flow { results.append(result) }  // ends after DOWNLOADED
        guard results.count == 4, case .available(let info) = results[0],
            case .inProgress(let pending) = results[1], case .inProgress(let downloading) = results[2]
        else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect(info.availableVersionCode == 2)
        #expect(pending.installStatus == .pending && downloading.installStatus == .downloading)
        #expect(results[3] == .downloaded)
    }

    @Test func requestUpdateFlowWithoutAnUpdateEmitsNotAvailable() async throws {
        var fake = UpdateFlowSimulator()
        var results: [AppUpdateResult] = []
        for await result in try fake.requestUpdateFlow() { results.append(result) }
        #expect(results == [.notAvailable])
    }

    @Test func requestUpdateFlowWhenDownloadedEmitsDownloaded() async throws {
        var fake = try flexibleDownloading()
        try fake.downloadCompletes()
        var results: [AppUpdateResult] = []
        for await result in try fake.requestUpdateFlow() { results.append(result) }
        #expect(results == [.downloaded])
    }

    @Test func aCanceledDownloadEndsTheKtxStream() async throws {
        var fake = UpdateFlowSimulator()
        try fake.setUpdateAvailable(2)
        let flow = try fake.requestUpdateFlow()
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        try fake.userCancelsDownload()
        var statuses: [InstallStatus] = []
        for await result in flow {
            if case .inProgress(let state) = result { statuses.append(state.installStatus) }
        }
        #expect(statuses == [.pending, .canceled])
    }

    // MARK: The App Store

    @Test func appStoreAcceptOpensTheStoreAndTheNextLaunchDecides() async throws {
        var fake = UpdateFlowSimulator(store: .appStore)
        try fake.setStoreVersion(Version(parsing: "8.0.10"))
        try fake.setInstalledVersion(Version(parsing: "8.0.2"))
        #expect(try fake.getAppUpdateInfo().updateAvailability == .updateAvailable)
        try fake.startUpdateFlow(.immediate)
        expectRefusal("promptNotDismissible") { () throws(UpdateFlowError) in try fake.userRejectsUpdate() }
        try fake.userAcceptsUpdate()
        #expect(try fake.getAppUpdateInfo().installStatus == .pending)
        try fake.relaunch(Version(parsing: "8.0.2"))  // the user came back without updating
        #expect(try fake.getAppUpdateInfo().updateAvailability == .updateAvailable)
        try fake.startUpdateFlow(.flexible)
        try fake.userAcceptsUpdate()
        try fake.relaunch(Version(parsing: "8.0.10"))
        #expect(try fake.getAppUpdateInfo().updateAvailability == .updateNotAvailable)
        #expect(await heard(fake) == [.installed])
    }

    @Test func appStoreNeverPromptsWhenTheInstalledBuildIsNewer() throws {
        var fake = UpdateFlowSimulator(store: .appStore)
        try fake.setStoreVersion(Version(parsing: "1.0"))
        try fake.setInstalledVersion(Version(parsing: "1.1"))  // in review
        #expect(try fake.getAppUpdateInfo().updateAvailability == .updateNotAvailable)
        expectRefusal("updateNotAvailable") { () throws(UpdateFlowError) in try fake.startUpdateFlow(.flexible) }
    }
}
