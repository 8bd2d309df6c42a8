import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore
@testable import StoreReleaseFlow

/// A version of the tables below; a malformed literal is a bug in this file.
func version(_ text: String) -> Version {
    guard let version = Version(text) else { preconditionFailure("not a version: \(text)") }
    return version
}

/// What `FakeAppUpdateManager` keeps (shared/reference/play-in-app-updates.md §3, "Internal
/// state"), as an app and a test can observe it.
struct FakeState: Hashable, CustomStringConvertible {
    var status: InstallStatus = .unknown
    var updateAvailable = false
    var typeInProgress: AppUpdateType?
    var dialog = false
    var immediate = false
    var splash = false
    var bytes: Int64 = 0
    var total: Int64 = 0
    var errorCode: InstallErrorCode = .noError
    var versionCode = 0
    var staleness: Int?
    var priority = 0
    /// The types `getAppUpdateInfo` allows (filled only while availability is UPDATE_AVAILABLE).
    var allowed: [AppUpdateType] = []

    var description: String {
        var parts = ["status \(status.name)", updateAvailable ? "available vc \(versionCode)" : "not available"]
        if let typeInProgress { parts.append("type \(typeInProgress.jsonName)") }
        if dialog { parts.append("dialog") }
        if immediate { parts.append("immediate screen") }
        if splash { parts.append("splash") }
        if bytes != 0 || total != 0 { parts.append("\(bytes)/\(total) bytes") }
        if errorCode != .noError { parts.append("error \(errorCode.rawValue)") }
        if let staleness { parts.append("stale \(staleness)") }
        if priority != 0 { parts.append("priority \(priority)") }
        parts.append("allowed [\(allowed.map(\.jsonName).joined(separator: ","))]")
        return parts.joined(separator: ", ")
    }

    /// The fake's state as the machine shows it.
    init(_ flow: PlayUpdateFlow) {
        let info = flow.appUpdateInfo
        status = flow.installStatus
        updateAvailable = flow.offer.available
        typeInProgress = flow.typeInProgress
        dialog = flow.isConfirmationDialogVisible
        immediate = flow.isImmediateFlowVisible
        splash = flow.isInstallSplashScreenVisible
        (bytes, total) = flow.progress
        errorCode = flow.errorCode
        versionCode = flow.offer.versionCode
        staleness = flow.offer.stalenessDays
        priority = flow.offer.priority
        allowed = info.allowedUpdateTypes
    }

    init() {}
}

/// `FakeAppUpdateManager` itself, transcribed from its method bodies (§3): every guard that
/// fails is a silent no-op. The parity test runs it beside the machine.
struct FakeModel {
    var state = FakeState()
    var allowedTypes: [AppUpdateType] = []

    /// What availability the fake derives (§3, "Derived updateAvailability").
    var availability: UpdateAvailability {
        if !state.updateAvailable { return .updateNotAvailable }
        return [.unknown, .installed, .failed, .canceled].contains(state.status)
            ? .updateAvailable : .developerTriggeredUpdateInProgress
    }

    /// The state with the fake's `getAppUpdateInfo` allowed types filled in.
    var observed: FakeState {
        var observed = state
        observed.allowed = availability == .updateAvailable ? allowedTypes : []
        return observed
    }

    /// A Task that fails, or a start that returns `false`: the error code's name.
    struct Failure: Error, Equatable {
        let code: String
    }

    /// Applies an event; returns what listeners hear, or the failure a Task or a `false` return gives.
    mutating func handle(_ event: PlayFlowEvent) -> Result<[InstallStatus], Failure> {
        var heard: [InstallStatus] = []
        func tell(_ status: InstallStatus) {
            if state.typeInProgress == .flexible { heard.append(status) }
        }
        switch event {
        case .setUpdateAvailable(let versionCode, let type):
            state.updateAvailable = true
            allowedTypes = type.map { [$0] } ?? AppUpdateType.allValues
            state.versionCode = versionCode
        case .setUpdateNotAvailable:
            state.updateAvailable = false
            state.staleness = nil
        case .setUpdatePriority(let priority):
            if state.updateAvailable { state.priority = priority }
        case .setClientVersionStalenessDays(let days):
            if state.updateAvailable { state.staleness = days }
        case .setInstallErrorCode(let code):
            state.errorCode = code
        case .getAppUpdateInfo:
            if state.errorCode != .noError { return .failure(Failure(code: state.errorCode.name)) }
        case .setUpdatePreconditions:
            return .failure(Failure(code: "notInTheFake"))
        case .startUpdateFlow(let type, _):
            // The fake fills both asset-pack variants of an allowed type: the option changes nothing.
            guard availability == .updateAvailable, allowedTypes.contains(type) else {
                return .failure(Failure(code: InstallErrorCode.errorInstallNotAllowed.name))
            }
            if type == .flexible { state.dialog = true } else { state.immediate = true }
            state.typeInProgress = type
        case .userAcceptsUpdate:
            if state.dialog || state.immediate {
                state.status = .pending
                state.dialog = false
                tell(.pending)
            }
        case .userRejectsUpdate:
            if state.dialog || state.immediate {
                state.dialog = false
                state.immediate = false
                state.typeInProgress = nil
                state.status = .unknown
            }
        case .downloadStarts:
            if state.status == .pending {
                state.status = .downloading
                tell(.downloading)
            }
        case .setTotalBytesToDownload(let total):
            if state.status == .downloading {
                state.total = total
                tell(.downloading)
            }
        case .setBytesDownloaded(let bytes):
            if state.status == .downloading, bytes <= state.total {
                state.bytes = bytes
                tell(.downloading)
            }
        case .downloadCompletes:
            if state.status == .pending || state.status == .downloading {
                state.status = .downloaded
                state.bytes = 0
                state.total = 0
                tell(.downloaded)
                if state.typeInProgress == .immediate, state.errorCode == .noError {
                    state.status = .installing
                    state.splash = true
                    tell(.installing)
                }
            }
        case .downloadFails, .userCancelsDownload:
            if state.status == .pending || state.status == .downloading {
                tell(event == .downloadFails ? .failed : .canceled)
                state.status = .unknown
                state.typeInProgress = nil
                state.immediate = false
            }
        case .completeUpdate:
            if state.errorCode != .noError { return .failure(Failure(code: state.errorCode.name)) }
            switch state.status {
            case .downloaded:
                state.status = .installing
                state.splash = true
                tell(.installing)
            case .installing: return .failure(Failure(code: InstallErrorCode.errorInstallInProgress.name))
            default: return .failure(Failure(code: InstallErrorCode.errorDownloadNotPresent.name))
            }
        case .installCompletes:
            if state.status == .installing {
                tell(.installed)
                let errorCode = state.errorCode
                state = FakeState()
                state.errorCode = errorCode
            }
        case .installFails:
            if state.status == .installing {
                tell(.failed)
                state.status = .unknown
                state.typeInProgress = nil
                state.splash = false
                state.immediate = false
            }
        }
        return .success(heard)
    }
}

/// The Play states the tables start from, each reached by real events.
enum PlayStart: String, CaseIterable, Sendable {
    case noUpdate, available, onlyImmediate, stale, dialog, immediateScreen, pendingF, pendingI
    case downloadingF, downloadingI, downloadedF, downloadedI, installingF, installingI, errorSet

    var events: [PlayFlowEvent] {
        let available: [PlayFlowEvent] = [.setUpdateAvailable(versionCode: 2, type: nil)]
        func flow(_ type: AppUpdateType) -> [PlayFlowEvent] { available + [.startUpdateFlow(type)] }
        func downloading(_ type: AppUpdateType) -> [PlayFlowEvent] {
            flow(type) + [.userAcceptsUpdate, .downloadStarts, .setTotalBytesToDownload(100), .setBytesDownloaded(50)]
        }
        switch self {
        case .noUpdate: return []
        case .available: return available
        case .onlyImmediate: return [.setUpdateAvailable(versionCode: 2, type: .immediate)]
        case .stale: return available + [.setClientVersionStalenessDays(3), .setUpdatePriority(4)]
        case .dialog: return flow(.flexible)
        case .immediateScreen: return flow(.immediate)
        case .pendingF: return flow(.flexible) + [.userAcceptsUpdate]
        case .pendingI: return flow(.immediate) + [.userAcceptsUpdate]
        case .downloadingF: return downloading(.flexible)
        case .downloadingI: return downloading(.immediate)
        case .downloadedF: return downloading(.flexible) + [.downloadCompletes]
        // An immediate update stays DOWNLOADED only when completing itself failed on an error.
        case .downloadedI:
            return downloading(.immediate) + [
                .setInstallErrorCode(.errorInstallNotAllowed), .downloadCompletes, .setInstallErrorCode(.noError),
            ]
        case .installingF: return downloading(.flexible) + [.downloadCompletes, .completeUpdate]
        case .installingI: return downloading(.immediate) + [.downloadCompletes]
        case .errorSet: return available + [.setInstallErrorCode(.errorInstallNotAllowed)]
        }
    }

    /// The machine in this state; every setup event must be accepted.
    var machine: PlayUpdateFlow {
        var flow = PlayUpdateFlow()
        for event in events {
            do throws(UpdateFlowError) {
                _ = try flow.handle(event)
            } catch {
                Issue.record("setting up \(self): \(event) refused: \(error)")
            }
        }
        return flow
    }

    /// The fake in this state.
    var fake: FakeModel {
        var fake = FakeModel()
        for event in events { _ = fake.handle(event) }
        return fake
    }
}

/// What a row expects: a new state with the statuses listeners hear and the record handed out,
/// or a refusal with the state unchanged.
enum Expected: Hashable, CustomStringConvertible {
    case to(FakeState, heard: [InstallStatus] = [], delivers: Bool = false)
    case refused(String)

    var description: String {
        switch self {
        case .to(let state, let heard, let delivers):
            "→ \(state); heard [\(heard.map(\.name).joined(separator: ", "))]\(delivers ? "; delivers the record" : "")"
        case .refused(let code): "refused \(code), state unchanged"
        }
    }
}

/// One row of the reference table.
struct PlayRow: CustomStringConvertible {
    let from: PlayStart
    let event: PlayFlowEvent
    let expected: Expected
    /// Why the machine deliberately differs from the fake here; `nil` where it matches.
    let deviation: Deviation?

    var description: String { "\(from) + \(event) \(expected)" }
}

/// The deliberate differences from the fake; the Android parity guide lists each by its text.
enum Deviation: String, CaseIterable {
    case refusesIgnored =
        "An event the fake ignores silently (its guard fails) is refused with an error; the state is unchanged."
    case secondPrompt =
        "Starting a flow while a prompt is already shown is refused (flowAlreadyShown); the fake shows it again, or shows both screens."
    case secondAccept =
        "Accepting again on an immediate update already accepted is refused (alreadyAccepted); the fake sets PENDING again, even from DOWNLOADING."
    case leaveDuringInstall =
        "Leaving the immediate screen while the update installs is refused (ERROR_INSTALL_IN_PROGRESS); the fake resets the flow."
    case progressCleared =
        "Download progress is kept only while downloading; the fake keeps the last bytes after a download fails, is canceled or is left."
    case preconditions =
        "setUpdatePreconditions makes a type not allowed for the reasons Play names, and allowed again with asset-pack deletion if asked; the fake has no such call (its failed preconditions are always empty)."
}

@Suite struct UpdateFlowParityTableTests {
    /// A state after `start`, with changes.
    static func state(_ start: PlayStart, _ change: (inout FakeState) -> Void = { _ in }) -> FakeState {
        var state = FakeState(start.machine)
        change(&state)
        return state
    }

    static let idleAvailable = state(.available)
    static let both = AppUpdateType.allValues

    /// The reference table, row by row (§3, "State × event table", and the setters above it).
    static let rows: [PlayRow] = [
        // Setters.
        PlayRow(
            from: .noUpdate, event: .setUpdateAvailable(versionCode: 2, type: nil), expected: .to(idleAvailable),
            deviation: nil),
        PlayRow(
            from: .noUpdate, event: .setUpdateAvailable(versionCode: 7, type: .immediate),
            expected: .to(
                state(.noUpdate) {
                    $0.updateAvailable = true
                    $0.versionCode = 7
                    $0.allowed = [.immediate]
                }),
            deviation: nil),
        PlayRow(
            from: .stale, event: .setUpdateNotAvailable,
            expected: .to(
                state(.stale) {
                    $0.updateAvailable = false
                    $0.staleness = nil
                    $0.allowed = []
                }),
            deviation: nil),
        PlayRow(
            from: .available, event: .setUpdatePriority(5), expected: .to(state(.available) { $0.priority = 5 }),
            deviation: nil),
        PlayRow(
            from: .noUpdate, event: .setUpdatePriority(5), expected: .refused("updateNotAvailable"),
            deviation: .refusesIgnored),
        PlayRow(
            from: .available,
            event: .setUpdatePreconditions(
                .flexible, failed: [.insufficientStorage], allowedWithAssetPackDeletion: true),
            expected: .to(state(.available) { $0.allowed = [.immediate] }), deviation: .preconditions),
        PlayRow(
            from: .available, event: .startUpdateFlow(.flexible, allowAssetPackDeletion: true),
            expected: .to(
                state(.available) {
                    $0.dialog = true
                    $0.typeInProgress = .flexible
                }), deviation: nil),
        PlayRow(
            from: .available, event: .setClientVersionStalenessDays(3),
            expected: .to(state(.available) { $0.staleness = 3 }), deviation: nil),
        PlayRow(
            from: .noUpdate, event: .setClientVersionStalenessDays(3), expected: .refused("updateNotAvailable"),
            deviation: .refusesIgnored),
        PlayRow(
            from: .pendingF, event: .setInstallErrorCode(.errorInstallNotAllowed),
            expected: .to(state(.pendingF) { $0.errorCode = .errorInstallNotAllowed }), deviation: nil),
        PlayRow(
            from: .available, event: .getAppUpdateInfo, expected: .to(idleAvailable, delivers: true), deviation: nil),
        PlayRow(
            from: .pendingF, event: .getAppUpdateInfo, expected: .to(state(.pendingF), delivers: true), deviation: nil),
        PlayRow(
            from: .errorSet, event: .getAppUpdateInfo, expected: .refused("ERROR_INSTALL_NOT_ALLOWED"), deviation: nil),
        // Starting a flow.
        PlayRow(
            from: .available, event: .startUpdateFlow(.flexible),
            expected: .to(
                state(.available) {
                    $0.dialog = true
                    $0.typeInProgress = .flexible
                }), deviation: nil),
        PlayRow(
            from: .available, event: .startUpdateFlow(.immediate),
            expected: .to(
                state(.available) {
                    $0.immediate = true
                    $0.typeInProgress = .immediate
                }), deviation: nil),
        PlayRow(
            from: .errorSet, event: .startUpdateFlow(.flexible),
            expected: .to(state(.dialog) { $0.errorCode = .errorInstallNotAllowed }), deviation: nil),
        PlayRow(
            from: .noUpdate, event: .startUpdateFlow(.flexible), expected: .refused("ERROR_INSTALL_NOT_ALLOWED"),
            deviation: nil),
        PlayRow(
            from: .onlyImmediate, event: .startUpdateFlow(.flexible), expected: .refused("ERROR_INSTALL_NOT_ALLOWED"),
            deviation: nil),
        PlayRow(
            from: .pendingI, event: .startUpdateFlow(.immediate), expected: .refused("ERROR_INSTALL_NOT_ALLOWED"),
            deviation: nil),
        PlayRow(
            from: .downloadingF, event: .startUpdateFlow(.flexible), expected: .refused("ERROR_INSTALL_NOT_ALLOWED"),
            deviation: nil),
        PlayRow(
            from: .dialog, event: .startUpdateFlow(.flexible), expected: .refused("flowAlreadyShown"),
            deviation: .secondPrompt),
        // The user's answer.
        PlayRow(
            from: .dialog, event: .userAcceptsUpdate,
            expected: .to(
                state(.dialog) {
                    $0.status = .pending
                    $0.dialog = false
                    $0.allowed = []
                }, heard: [.pending]),
            deviation: nil),
        PlayRow(
            from: .immediateScreen, event: .userAcceptsUpdate,
            expected: .to(
                state(.immediateScreen) {
                    $0.status = .pending
                    $0.allowed = []
                }), deviation: nil),
        PlayRow(from: .dialog, event: .userRejectsUpdate, expected: .to(idleAvailable), deviation: nil),
        PlayRow(from: .immediateScreen, event: .userRejectsUpdate, expected: .to(idleAvailable), deviation: nil),
        PlayRow(from: .pendingI, event: .userRejectsUpdate, expected: .to(idleAvailable), deviation: nil),
        PlayRow(
            from: .downloadingI, event: .userRejectsUpdate, expected: .to(idleAvailable), deviation: .progressCleared),
        PlayRow(from: .downloadedI, event: .userRejectsUpdate, expected: .to(idleAvailable), deviation: nil),
        PlayRow(
            from: .pendingI, event: .userAcceptsUpdate, expected: .refused("alreadyAccepted"), deviation: .secondAccept),
        PlayRow(
            from: .downloadingI, event: .userAcceptsUpdate, expected: .refused("alreadyAccepted"),
            deviation: .secondAccept),
        PlayRow(
            from: .installingI, event: .userRejectsUpdate, expected: .refused("ERROR_INSTALL_IN_PROGRESS"),
            deviation: .leaveDuringInstall),
        PlayRow(
            from: .available, event: .userAcceptsUpdate, expected: .refused("noFlowVisible"), deviation: .refusesIgnored
        ),
        PlayRow(
            from: .pendingF, event: .userRejectsUpdate, expected: .refused("noFlowVisible"), deviation: .refusesIgnored),
        // Downloading.
        PlayRow(
            from: .pendingF, event: .downloadStarts,
            expected: .to(state(.pendingF) { $0.status = .downloading }, heard: [.downloading]), deviation: nil),
        PlayRow(
            from: .pendingI, event: .downloadStarts, expected: .to(state(.pendingI) { $0.status = .downloading }),
            deviation: nil),
        PlayRow(from: .dialog, event: .downloadStarts, expected: .refused("notPending"), deviation: .refusesIgnored),
        PlayRow(
            from: .downloadingF, event: .setTotalBytesToDownload(400),
            expected: .to(state(.downloadingF) { $0.total = 400 }, heard: [.downloading]), deviation: nil),
        PlayRow(
            from: .downloadingF, event: .setBytesDownloaded(90),
            expected: .to(state(.downloadingF) { $0.bytes = 90 }, heard: [.downloading]), deviation: nil),
        PlayRow(
            from: .downloadingF, event: .setBytesDownloaded(101), expected: .refused("bytesExceedTotal"),
            deviation: .refusesIgnored),
        PlayRow(
            from: .pendingF, event: .setTotalBytesToDownload(5), expected: .refused("notDownloading"),
            deviation: .refusesIgnored),
        PlayRow(
            from: .pendingF, event: .downloadCompletes,
            expected: .to(state(.pendingF) { $0.status = .downloaded }, heard: [.downloaded]), deviation: nil),
        PlayRow(
            from: .downloadingF, event: .downloadCompletes,
            expected: .to(
                state(.downloadingF) {
                    $0.status = .downloaded
                    $0.bytes = 0
                    $0.total = 0
                }, heard: [.downloaded]),
            deviation: nil),
        PlayRow(
            from: .downloadingI, event: .downloadCompletes,
            expected: .to(
                state(.downloadingI) {
                    $0.status = .installing
                    $0.splash = true
                    $0.bytes = 0
                    $0.total = 0
                }),
            deviation: nil),
        PlayRow(
            from: .downloadedF, event: .downloadCompletes, expected: .refused("noDownloadInProgress"),
            deviation: .refusesIgnored),
        PlayRow(from: .pendingF, event: .downloadFails, expected: .to(idleAvailable, heard: [.failed]), deviation: nil),
        PlayRow(
            from: .downloadingF, event: .downloadFails, expected: .to(idleAvailable, heard: [.failed]),
            deviation: .progressCleared),
        PlayRow(
            from: .downloadingF, event: .userCancelsDownload, expected: .to(idleAvailable, heard: [.canceled]),
            deviation: .progressCleared),
        PlayRow(from: .pendingI, event: .userCancelsDownload, expected: .to(idleAvailable), deviation: nil),
        PlayRow(
            from: .available, event: .downloadFails, expected: .refused("noDownloadInProgress"),
            deviation: .refusesIgnored),
        // Completing and installing.
        PlayRow(
            from: .downloadedF, event: .completeUpdate,
            expected: .to(
                state(.downloadedF) {
                    $0.status = .installing
                    $0.splash = true
                }, heard: [.installing]),
            deviation: nil),
        PlayRow(
            from: .downloadedI, event: .completeUpdate,
            expected: .to(
                state(.downloadedI) {
                    $0.status = .installing
                    $0.splash = true
                }), deviation: nil),
        PlayRow(
            from: .installingF, event: .completeUpdate, expected: .refused("ERROR_INSTALL_IN_PROGRESS"), deviation: nil),
        PlayRow(
            from: .pendingF, event: .completeUpdate, expected: .refused("ERROR_DOWNLOAD_NOT_PRESENT"), deviation: nil),
        PlayRow(
            from: .noUpdate, event: .completeUpdate, expected: .refused("ERROR_DOWNLOAD_NOT_PRESENT"), deviation: nil),
        PlayRow(
            from: .errorSet, event: .completeUpdate, expected: .refused("ERROR_INSTALL_NOT_ALLOWED"), deviation: nil),
        PlayRow(
            from: .installingF, event: .installCompletes, expected: .to(FakeState(), heard: [.installed]),
            deviation: nil),
        PlayRow(from: .installingI, event: .installCompletes, expected: .to(FakeState()), deviation: nil),
        PlayRow(
            from: .installingF, event: .installFails, expected: .to(idleAvailable, heard: [.failed]), deviation: nil),
        PlayRow(from: .installingI, event: .installFails, expected: .to(idleAvailable), deviation: nil),
        PlayRow(
            from: .downloadedF, event: .installCompletes, expected: .refused("notInstalling"),
            deviation: .refusesIgnored),
    ]

    @Test func everyRowOfTheTableHolds() {
        for row in Self.rows {
            var flow = row.from.machine
            let before = flow
            let outcome: Result<[UpdateFlowAction], UpdateFlowError>
            do throws(UpdateFlowError) {
                outcome = .success(try flow.handle(row.event))
            } catch {
                outcome = .failure(error)
            }
            switch (row.expected, outcome) {
            case (.to(let state, let heard, let delivers), .success(let actions)):
                #expect(FakeState(flow) == state, "\(row)\n   got \(FakeState(flow))")
                let announced = actions.compactMap { if case .announce(let s) = $0 { s } else { nil } }
                #expect(announced == heard, "\(row)")
                let delivered = actions.compactMap { if case .deliver(let info) = $0 { info } else { nil } }
                #expect(delivered == (delivers ? [flow.appUpdateInfo] : []), "\(row)")
                #expect(!actions.contains(.openStore), "\(row)")
            case (.refused(let code), .failure(let error)):
                #expect(error.code == code, "\(row)")
                #expect(flow == before, "a refused event changed the state: \(row)")
            case (_, .success), (_, .failure):
                Issue.record("\(row)\n   got \(outcome)")
            }
        }
    }

    /// Each row against the fake itself: where no deviation is marked, the fake does exactly
    /// what the row says; where one is, the fake does something else.
    @Test func theFakeAgreesWithEveryRowNotMarkedAsADeviation() {
        for row in Self.rows {
            var fake = row.from.fake
            #expect(fake.observed == FakeState(row.from.machine), "the start state differs: \(row.from)")
            let before = fake.observed
            let outcome = fake.handle(row.event)
            let matches: Bool
            switch (row.expected, outcome) {
            case (.to(let state, let heard, _), .success(let fakeHeard)):
                matches = fake.observed == state && fakeHeard == heard
            case (.refused(let code), .failure(let failure)):
                matches = code == failure.code && fake.observed == before
            case (.refused, .success), (.to, .failure):
                matches = false
            }
            #expect(matches == (row.deviation == nil), "\(row): the fake gives \(outcome), \(fake.observed)")
        }
    }

    /// Every state × every event against the fake: the machine does what the fake does, or the
    /// difference is one of the listed deviations.
    @Test func noUnlistedDifferenceInAnyStateForAnyEvent() {
        let events: [PlayFlowEvent] = [
            .setUpdateAvailable(versionCode: 9, type: nil), .setUpdateAvailable(versionCode: 9, type: .flexible),
            .setUpdateNotAvailable, .setUpdatePriority(3), .setClientVersionStalenessDays(2),
            .setClientVersionStalenessDays(nil), .setInstallErrorCode(.errorInstallNotAllowed),
            .setInstallErrorCode(.noError), .userAcceptsUpdate, .userRejectsUpdate, .downloadStarts,
            .setTotalBytesToDownload(1000), .setBytesDownloaded(10), .setBytesDownloaded(5000), .downloadCompletes,
            .downloadFails, .userCancelsDownload, .installCompletes, .installFails, .startUpdateFlow(.flexible),
            .startUpdateFlow(.immediate), .completeUpdate, .getAppUpdateInfo,
        ]
        var compared = 0
        for start in PlayStart.allCases {
            for event in events {
                var flow = start.machine
                let before = flow
                var fake = start.fake
                let fakeBefore = fake.observed
                let fakeOutcome = fake.handle(event)
                let outcome: Result<[InstallStatus], UpdateFlowError>
                do throws(UpdateFlowError) {
                    let actions = try flow.handle(event)
                    outcome = .success(actions.compactMap { if case .announce(let s) = $0 { s } else { nil } })
                } catch {
                    outcome = .failure(error)
                }
                compared += 1
                let context =
                    "\(start) + \(event): machine \(outcome), \(FakeState(flow)); fake \(fakeOutcome), \(fake.observed)"
                switch (outcome, fakeOutcome) {
                case (.success(let heard), .success(let fakeHeard)):
                    let same = FakeState(flow) == fake.observed && heard == fakeHeard
                    let progress =
                        Self.onlyProgressDiffers(FakeState(flow), fake.observed)
                        && [.downloadFails, .userCancelsDownload, .userRejectsUpdate].contains(event)
                    #expect(same || progress, "\(context)")
                case (.failure(let error), .failure(let failure)):
                    #expect(error.code == failure.code && flow == before && fake.observed == fakeBefore, "\(context)")
                case (.failure(let error), .success):
                    // Listed: the fake ignored it (nothing changed), shows the prompt again,
                    // accepts again, or leaves the install.
                    #expect(flow == before, "\(context)")
                    let ignored = fake.observed == fakeBefore
                    let listed = ["alreadyAccepted", "ERROR_INSTALL_IN_PROGRESS", "flowAlreadyShown"].contains(
                        error.code)
                    #expect(ignored || listed, "an unlisted difference: \(context)")
                case (.success, .failure):
                    Issue.record("the machine accepts what the fake refuses: \(context)")
                }
            }
        }
        #expect(compared == PlayStart.allCases.count * 23)
    }

    static func onlyProgressDiffers(_ a: FakeState, _ b: FakeState) -> Bool {
        var a = a
        a.bytes = b.bytes
        a.total = b.total
        return a == b
    }

    @Test func theParityGuideListsEveryDeviation() throws {
        let guide = try String(
            contentsOf: LoopbackServer.packageRoot.appendingPathComponent("Docs/StoreReleaseKit.docc/AndroidParity.md"),
            encoding: .utf8)
        for deviation in Deviation.allCases {
            #expect(guide.contains(deviation.rawValue), "the guide does not list: \(deviation.rawValue)")
            #expect(Self.rows.contains { $0.deviation == deviation }, "no row shows \(deviation)")
        }
    }
}

/// The App Store's flow has no Google fake to follow; its table is this project's own reference,
/// row by row (Docs: "Testing your update flow with the simulator").
@Suite struct AppStoreFlowTableTests {
    enum Start: String, CaseIterable {
        case upToDate, available, promptF, promptI, openedF, openedI

        var events: [AppStoreFlowEvent] {
            let available: [AppStoreFlowEvent] = [
                .setStoreVersion(version("2.0")), .setInstalledVersion(version("1.0")),
            ]
            switch self {
            case .upToDate: return [.setStoreVersion(version("2.0")), .setInstalledVersion(version("2.0"))]
            case .available: return available
            case .promptF: return available + [.startUpdateFlow(.flexible)]
            case .promptI: return available + [.startUpdateFlow(.immediate)]
            case .openedF: return available + [.startUpdateFlow(.flexible), .userAcceptsUpdate]
            case .openedI: return available + [.startUpdateFlow(.immediate), .userAcceptsUpdate]
            }
        }

        var machine: AppStoreUpdateFlow {
            var flow = AppStoreUpdateFlow()
            for event in events { _ = try? flow.handle(event) }
            return flow
        }
    }

    /// What a row expects: the state after (the flow's state, availability, allowed types) and the actions.
    enum Expected {
        case to(AppStoreUpdateFlow.State, UpdateAvailability, allowed: [AppUpdateType], actions: [UpdateFlowAction])
        case refused(String)
    }

    static let both = AppUpdateType.allValues

    static let rows: [(Start, AppStoreFlowEvent, Expected)] = [
        (.upToDate, .getAppUpdateInfo, .to(.idle, .updateNotAvailable, allowed: [], actions: [.deliverRecord])),
        (.available, .getAppUpdateInfo, .to(.idle, .updateAvailable, allowed: both, actions: [.deliverRecord])),
        (
            .promptF, .getAppUpdateInfo,
            .to(.prompting(.flexible), .updateAvailable, allowed: [], actions: [.deliverRecord])
        ),
        (
            .available, .startUpdateFlow(.flexible),
            .to(.prompting(.flexible), .updateAvailable, allowed: [], actions: [])
        ),
        (
            .available, .startUpdateFlow(.immediate),
            .to(.prompting(.immediate), .updateAvailable, allowed: [], actions: [])
        ),
        (.upToDate, .startUpdateFlow(.flexible), .refused("updateNotAvailable")),
        (.promptF, .startUpdateFlow(.flexible), .refused("flowAlreadyShown")),
        (.openedF, .startUpdateFlow(.immediate), .refused("storeOpened")),
        (
            .promptF, .userAcceptsUpdate,
            .to(.storeOpened(.flexible), .developerTriggeredUpdateInProgress, allowed: [], actions: [.openStore])
        ),
        (
            .promptI, .userAcceptsUpdate,
            .to(.storeOpened(.immediate), .developerTriggeredUpdateInProgress, allowed: [], actions: [.openStore])
        ),
        (.available, .userAcceptsUpdate, .refused("noFlowVisible")),
        (.promptF, .userRejectsUpdate, .to(.idle, .updateAvailable, allowed: both, actions: [])),
        (.promptI, .userRejectsUpdate, .refused("promptNotDismissible")),
        (.openedF, .userRejectsUpdate, .refused("noFlowVisible")),
        (
            .openedF, .relaunch(version("2.0")),
            .to(.idle, .updateNotAvailable, allowed: [], actions: [.announce(.installed)])
        ),
        (.openedI, .relaunch(version("1.0")), .to(.idle, .updateAvailable, allowed: both, actions: [])),
        (.promptF, .relaunch(version("2.0")), .to(.idle, .updateNotAvailable, allowed: [], actions: [])),
        (.available, .setStoreVersion(version("3.0")), .to(.idle, .updateAvailable, allowed: both, actions: [])),
        (.available, .setInstalledVersion(version("2.0")), .to(.idle, .updateNotAvailable, allowed: [], actions: [])),
    ]

    @Test func everyRowOfTheAppStoreTableHolds() {
        for (start, event, expected) in Self.rows {
            var flow = start.machine
            let before = flow
            let row = "\(start) + \(event)"
            do throws(UpdateFlowError) {
                let actions = try flow.handle(event)
                guard case .to(let state, let availability, let allowed, let expectedActions) = expected else {
                    Issue.record("\(row): accepted, expected \(expected)")
                    continue
                }
                #expect(flow.state == state && flow.updateAvailability == availability, "\(row): \(flow.state)")
                #expect(flow.appUpdateInfo.allowedUpdateTypes == allowed, "\(row)")
                let shown = actions.map { action -> UpdateFlowAction in
                    if case .deliver(let info) = action {
                        #expect(info == flow.appUpdateInfo, "\(row)")
                        return .deliverRecord
                    }
                    return action
                }
                #expect(shown == expectedActions, "\(row)")
            } catch {
                guard case .refused(let code) = expected else {
                    Issue.record("\(row): refused \(error), expected \(expected)")
                    continue
                }
                #expect(error.code == code && flow == before, "\(row)")
            }
        }
    }
}

extension UpdateFlowAction {
    /// Any `deliver`, for tables that check the record separately.
    static let deliverRecord = UpdateFlowAction.deliver(
        AppUpdateInfo(
            packageName: "table", availableVersionCode: 0, updateAvailability: .updateNotAvailable,
            installStatus: .unknown, updatePriority: 0, clientVersionStalenessDays: nil, bytesDownloaded: 0,
            totalBytesToDownload: 0, installErrorCode: .noError, allowedUpdateTypes: []))
}
