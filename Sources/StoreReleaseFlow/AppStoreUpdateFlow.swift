import StoreReleaseCore

/// The App Store's update flow, with the same phases as Play's where they exist, as a pure
/// state machine.
///
/// An update is available while the store's version is newer than the installed one. The app
/// shows a prompt (flexible: dismissible; immediate: blocking); accepting opens the store page
/// (PENDING); the next launch with the new version installed is INSTALLED, with an older one
/// the update is available again.
struct AppStoreUpdateFlow: Sendable, Hashable {
    /// Where the flow is.
    enum State: Sendable, Hashable {
        /// No prompt shown.
        case idle
        /// The prompt is shown: dismissible (flexible) or blocking (immediate).
        case prompting(AppUpdateType)
        /// The user accepted and the store page is open; the next launch tells the outcome.
        case storeOpened(AppUpdateType)
    }

    let packageName: String
    private(set) var state: State = .idle
    private(set) var storeVersion: Version?
    private(set) var installedVersion: Version?

    init(packageName: String = "com.example.app") {
        self.packageName = packageName
    }

    // MARK: What the app sees

    var isUpdateAvailable: Bool {
        guard let storeVersion, let installedVersion else { return false }
        return storeVersion > installedVersion
    }

    var typeInProgress: AppUpdateType? {
        switch state {
        case .idle: nil
        case .prompting(let type), .storeOpened(let type): type
        }
    }

    var installStatus: InstallStatus {
        switch state {
        case .idle, .prompting: .unknown
        case .storeOpened: .pending
        }
    }

    var updateAvailability: UpdateAvailability {
        guard isUpdateAvailable else { return .updateNotAvailable }
        return installStatus == .unknown ? .updateAvailable : .developerTriggeredUpdateInProgress
    }

    /// The record the app reads: both types are allowed while an update is available and no
    /// flow is under way (the app chooses the prompt), none otherwise.
    var appUpdateInfo: AppUpdateInfo {
        let availability = updateAvailability
        return AppUpdateInfo(
            packageName: packageName, availableVersionCode: 0, updateAvailability: availability,
            installStatus: installStatus, updatePriority: 0, clientVersionStalenessDays: nil, bytesDownloaded: 0,
            totalBytesToDownload: 0, installErrorCode: .noError,
            allowedUpdateTypes: availability == .updateAvailable && state == .idle ? AppUpdateType.allValues : [])
    }

    // MARK: Events

    /// Applies one event.
    mutating func handle(_ event: AppStoreFlowEvent) throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch event {
        case .setStoreVersion(let version):
            storeVersion = version
            return []
        case .setInstalledVersion(let version):
            installedVersion = version
            return []
        case .getAppUpdateInfo:
            return [.deliver(appUpdateInfo)]
        case .startUpdateFlow(let type):
            switch state {
            case .idle:
                guard isUpdateAvailable else { throw .notStartedOnAppStore }
                state = .prompting(type)
                return []
            case .prompting: throw .flowAlreadyShown
            case .storeOpened: throw .storeOpened
            }
        case .userAcceptsUpdate:
            switch state {
            case .prompting(let type):
                state = .storeOpened(type)
                return [.openStore]
            case .idle, .storeOpened: throw .noFlowVisible
            }
        case .userRejectsUpdate:
            switch state {
            case .prompting(let type):
                if type == .immediate { throw .promptNotDismissible }
                state = .idle
                return []
            case .idle, .storeOpened: throw .noFlowVisible
            }
        case .relaunch(let version):
            let installedNow = storeVersion.map { version >= $0 } ?? false
            installedVersion = version
            switch state {
            case .storeOpened:
                state = .idle
                return installedNow ? [.announce(.installed)] : []
            case .idle, .prompting:
                state = .idle
                return []
            }
        }
    }
}
