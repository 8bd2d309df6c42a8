import Testing

@testable import StoreReleaseKit

/// Every state × every event of the update flow, for both stores, against a table written out
/// by hand from FakeAppUpdateManager's behaviour (shared/reference/play-in-app-updates.md §3).
/// A refused event must leave the whole state unchanged.
/// A version of the tables below; a malformed literal is a bug in this file.
func version(_ text: String) -> Version {
    guard let version = Version(text) else { preconditionFailure("not a version: \(text)") }
    return version
}

@Suite struct UpdateFlowExhaustiveTests {
    typealias Phase = UpdateFlowStateMachine.Phase

    /// The Play states, each reached by real events.
    enum PlayState: String, CaseIterable, Sendable {
        case noUpdate, available, promptingF, promptingI, pendingF, pendingI
        case downloadingF, downloadingI, downloadedF, downloadedI, installingF, installingI

        var machine: UpdateFlowStateMachine {
            var m = UpdateFlowStateMachine(store: .googlePlay)
            func run(_ events: [UpdateFlowEvent]) {
                for event in events { _ = try? m.handle(event) }
            }
            let type: AppUpdateType = rawValue.hasSuffix("I") ? .immediate : .flexible
            let start: [UpdateFlowEvent] = [.setUpdateAvailable(versionCode: 42, type: nil), .startUpdateFlow(type)]
            let download: [UpdateFlowEvent] =
                start + [.userAcceptsUpdate, .downloadStarts, .setTotalBytesToDownload(100)]
            switch self {
            case .noUpdate: break
            case .available: run([.setUpdateAvailable(versionCode: 42, type: nil)])
            case .promptingF, .promptingI: run(start)
            case .pendingF, .pendingI: run(start + [.userAcceptsUpdate])
            case .downloadingF, .downloadingI: run(download)
            case .downloadedF: run(download + [.downloadCompletes])
            // An immediate update stays DOWNLOADED only when completing it failed on an error.
            case .downloadedI:
                run(
                    download + [
                        .setInstallErrorCode(.errorInstallNotAllowed), .downloadCompletes,
                        .setInstallErrorCode(.noError),
                    ])
            case .installingF: run(download + [.downloadCompletes, .completeUpdate])
            case .installingI: run(download + [.downloadCompletes])
            }
            return m
        }
    }

    /// What an event must do: move to a phase (with the update available or not), or be refused.
    enum Outcome: Equatable, CustomStringConvertible {
        case to(Phase, available: Bool)
        case refused(String)

        var description: String {
            switch self {
            case .to(let phase, let available): "to \(phase), available: \(available)"
            case .refused(let code): "refused \(code)"
            }
        }
    }

    static let events: [UpdateFlowEvent] = [
        .setUpdateAvailable(versionCode: 7, type: nil), .setUpdateNotAvailable, .setUpdatePriority(4),
        .setClientVersionStalenessDays(3), .setInstallErrorCode(.errorInstallNotAllowed), .userAcceptsUpdate,
        .userRejectsUpdate, .downloadStarts, .setTotalBytesToDownload(1000), .setBytesDownloaded(10),
        .downloadCompletes, .downloadFails, .userCancelsDownload, .installCompletes, .installFails,
        .startUpdateFlow(.flexible), .startUpdateFlow(.immediate), .completeUpdate, .getAppUpdateInfo,
        .setStoreVersion(version("2.0")), .setInstalledVersion(version("1.0")), .relaunch(version("2.0")),
    ]

    /// The expected outcome of every Play event in every Play state.
    static func expected(_ event: UpdateFlowEvent, in state: PlayState) -> Outcome {
        let phase = state.machine.phase
        let available = state != .noUpdate
        let same = Outcome.to(phase, available: available)
        let type: AppUpdateType = state.rawValue.hasSuffix("I") ? .immediate : .flexible
        switch event {
        case .setUpdateAvailable:
            return .to(phase, available: true)
        case .setUpdateNotAvailable:
            return .to(phase, available: false)
        case .setUpdatePriority, .setClientVersionStalenessDays:
            return available ? same : .refused("updateNotAvailable")
        case .setInstallErrorCode:
            return same
        case .userAcceptsUpdate:
            switch state {
            case .promptingF, .promptingI: return .to(.pending(type), available: true)
            default: return .refused("noFlowVisible")
            }
        case .userRejectsUpdate:
            switch state {
            case .promptingF, .promptingI: return .to(.idle, available: true)
            default: return .refused("noFlowVisible")
            }
        case .downloadStarts:
            switch state {
            case .pendingF, .pendingI: return .to(.downloading(type), available: true)
            default: return .refused("notPending")
            }
        case .setTotalBytesToDownload:
            switch state {
            case .downloadingF, .downloadingI: return same
            default: return .refused("notDownloading")
            }
        case .setBytesDownloaded:
            switch state {
            case .downloadingF, .downloadingI: return same  // 10 <= 100
            default: return .refused("notDownloading")
            }
        case .downloadCompletes:
            switch state {
            case .pendingF, .downloadingF: return .to(.downloaded(.flexible), available: true)
            case .pendingI, .downloadingI: return .to(.installing(.immediate), available: true)
            default: return .refused("noDownloadInProgress")
            }
        case .downloadFails, .userCancelsDownload:
            switch state {
            case .pendingF, .pendingI, .downloadingF, .downloadingI: return .to(.idle, available: true)
            default: return .refused("noDownloadInProgress")
            }
        case .installCompletes:
            switch state {
            case .installingF, .installingI: return .to(.idle, available: false)
            default: return .refused("notInstalling")
            }
        case .installFails:
            switch state {
            case .installingF, .installingI: return .to(.idle, available: true)
            default: return .refused("notInstalling")
            }
        case .startUpdateFlow(let wanted):
            switch state {
            case .noUpdate: return .refused("ERROR_INSTALL_NOT_ALLOWED")
            case .available: return .to(.prompting(wanted), available: true)
            case .promptingF, .promptingI: return .refused("flowAlreadyShown")
            case .pendingI, .downloadingI, .downloadedI, .installingI:
                return wanted == .immediate ? same : .refused("ERROR_INSTALL_NOT_ALLOWED")  // resume
            case .pendingF, .downloadingF, .downloadedF, .installingF: return .refused("ERROR_INSTALL_NOT_ALLOWED")
            }
        case .completeUpdate:
            switch state {
            case .downloadedF, .downloadedI: return .to(.installing(type), available: true)
            case .installingF, .installingI: return .refused("ERROR_INSTALL_IN_PROGRESS")
            default: return .refused("ERROR_DOWNLOAD_NOT_PRESENT")
            }
        case .getAppUpdateInfo:
            return same
        case .setStoreVersion, .setInstalledVersion, .relaunch:
            return .refused("unsupportedInStore")
        }
    }

    /// Applies an event, checks the outcome, and that a refusal changed nothing; returns the state after.
    static func apply(
        _ event: UpdateFlowEvent, to start: UpdateFlowStateMachine, expecting expected: Outcome, in state: String
    ) -> UpdateFlowStateMachine {
        var machine = start
        let outcome: Outcome
        do throws(UpdateFlowError) {
            _ = try machine.handle(event)
            outcome = .to(machine.phase, available: machine.isUpdateAvailable)
        } catch {
            outcome = .refused(error.code)
            #expect(machine == start, "a refused event leaves the state unchanged")
        }
        #expect(outcome == expected, "\(event.verb) in \(state)")
        return machine
    }

    static let playPairs: [(PlayState, Int)] = PlayState.allCases.flatMap { state in
        events.indices.map { (state, $0) }
    }

    @Test(arguments: playPairs)
    func playStateTimesEvent(_ state: PlayState, _ eventIndex: Int) {
        let event = Self.events[eventIndex]
        let machine = Self.apply(event, to: state.machine, expecting: Self.expected(event, in: state), in: "\(state)")
        // Invariants the fake's table implies, after every event.
        #expect(machine.bytesDownloaded <= machine.totalBytes || machine.totalBytes == 0)
        #expect(machine.updateAvailability == Self.derivedAvailability(machine))
    }

    /// The fake's derivation: not available; UPDATE_AVAILABLE while the status is UNKNOWN; in progress otherwise.
    static func derivedAvailability(_ machine: UpdateFlowStateMachine) -> UpdateAvailability {
        if !machine.isUpdateAvailable { return .updateNotAvailable }
        return machine.installStatus == .unknown ? .updateAvailable : .developerTriggeredUpdateInProgress
    }

    @Test func everyPlayStateIsReachedAsNamed() {
        let phases: [PlayState: Phase] = [
            .noUpdate: .idle, .available: .idle, .promptingF: .prompting(.flexible),
            .promptingI: .prompting(.immediate),
            .pendingF: .pending(.flexible), .pendingI: .pending(.immediate), .downloadingF: .downloading(.flexible),
            .downloadingI: .downloading(.immediate), .downloadedF: .downloaded(.flexible),
            .downloadedI: .downloaded(.immediate), .installingF: .installing(.flexible),
            .installingI: .installing(.immediate),
        ]
        for state in PlayState.allCases {
            #expect(state.machine.phase == phases[state], "\(state)")
            #expect(state.machine.isUpdateAvailable == (state != .noUpdate), "\(state)")
            #expect(state.machine.errorCode == .noError, "\(state)")
        }
    }

    // MARK: The App Store

    enum AppStoreState: String, CaseIterable, Sendable {
        case upToDate, available, promptingF, promptingI, storeOpenedF, storeOpenedI

        var machine: UpdateFlowStateMachine {
            var m = UpdateFlowStateMachine(store: .appStore)
            var events: [UpdateFlowEvent] = [.setStoreVersion(version("2.0")), .setInstalledVersion(version("1.0"))]
            switch self {
            case .upToDate: events = [.setStoreVersion(version("2.0")), .setInstalledVersion(version("2.0.0"))]
            case .available: break
            case .promptingF: events.append(.startUpdateFlow(.flexible))
            case .promptingI: events.append(.startUpdateFlow(.immediate))
            case .storeOpenedF: events += [.startUpdateFlow(.flexible), .userAcceptsUpdate]
            case .storeOpenedI: events += [.startUpdateFlow(.immediate), .userAcceptsUpdate]
            }
            for event in events { _ = try? m.handle(event) }
            return m
        }
    }

    static let appStoreEvents: [UpdateFlowEvent] =
        events + [
            .setStoreVersion(version("3.0")), .setInstalledVersion(version("2.0")), .relaunch(version("1.0")),
        ]

    static func expected(_ event: UpdateFlowEvent, in state: AppStoreState) -> Outcome {
        let machine = state.machine
        let phase = machine.phase
        let available = state != .upToDate
        let same = Outcome.to(phase, available: available)
        let type: AppUpdateType = state.rawValue.hasSuffix("I") ? .immediate : .flexible
        switch event {
        case .setUpdateAvailable, .setUpdateNotAvailable, .setUpdatePriority, .setClientVersionStalenessDays,
            .setInstallErrorCode, .downloadStarts, .setTotalBytesToDownload, .setBytesDownloaded, .downloadCompletes,
            .downloadFails, .userCancelsDownload, .installCompletes, .installFails, .completeUpdate:
            return .refused("unsupportedInStore")
        case .getAppUpdateInfo:
            return same
        case .setStoreVersion(let version):
            return .to(phase, available: version > (machine.installedVersion ?? version))
        case .setInstalledVersion(let version):
            return .to(phase, available: (machine.storeVersion ?? version) > version)
        case .relaunch(let version):
            return .to(.idle, available: (machine.storeVersion ?? version) > version)
        case .startUpdateFlow(let wanted):
            switch state {
            case .upToDate: return .refused("updateNotAvailable")
            case .available: return .to(.prompting(wanted), available: true)
            case .promptingF, .promptingI: return .refused("flowAlreadyShown")
            case .storeOpenedF, .storeOpenedI: return .refused("storeOpened")
            }
        case .userAcceptsUpdate:
            switch state {
            case .promptingF, .promptingI: return .to(.pending(type), available: true)
            default: return .refused("noFlowVisible")
            }
        case .userRejectsUpdate:
            switch state {
            case .promptingF: return .to(.idle, available: true)
            case .promptingI: return .refused("promptNotDismissible")
            default: return .refused("noFlowVisible")
            }
        }
    }

    static let appStorePairs: [(AppStoreState, Int)] = AppStoreState.allCases.flatMap { state in
        appStoreEvents.indices.map { (state, $0) }
    }

    @Test(arguments: appStorePairs)
    func appStoreStateTimesEvent(_ state: AppStoreState, _ eventIndex: Int) {
        let event = Self.appStoreEvents[eventIndex]
        let machine = Self.apply(event, to: state.machine, expecting: Self.expected(event, in: state), in: "\(state)")
        #expect(machine.updateAvailability == Self.derivedAvailability(machine))
    }
}
