import StoreReleaseCore

/// Either store's update flow, for the owners that serve both: the simulator and scripts.
///
/// An event of one store sent to the other's flow is refused here, the one place that can
/// happen; each store's machine takes only its own events.
enum UpdateFlowMachine: Sendable, Hashable {
    case googlePlay(PlayUpdateFlow)
    case appStore(AppStoreUpdateFlow)

    /// A fresh flow; a manifest has no flow of its own and gets Play's.
    init(store: Store, packageName: String = "com.example.app") {
        self =
            store == .appStore
            ? .appStore(AppStoreUpdateFlow(packageName: packageName))
            : .googlePlay(PlayUpdateFlow(packageName: packageName))
    }

    var store: Store {
        switch self {
        case .googlePlay: .googlePlay
        case .appStore: .appStore
        }
    }

    /// Applies an event of this flow's store; one of the other store is refused.
    mutating func handle(_ event: UpdateFlowEvent) throws(UpdateFlowError) -> [UpdateFlowAction] {
        switch (self, event) {
        case (.googlePlay(var flow), .googlePlay(let event)):
            let actions = try flow.handle(event)
            self = .googlePlay(flow)
            return actions
        case (.appStore(var flow), .appStore(let event)):
            let actions = try flow.handle(event)
            self = .appStore(flow)
            return actions
        case (.googlePlay, .appStore(let event)):
            throw .unsupported(event.verb.rawValue, store: .googlePlay)
        case (.appStore, .googlePlay(let event)):
            throw .unsupported(event.verb.rawValue, store: .appStore)
        }
    }

    /// The event for a verb both stores have, in this flow's store.
    func event(_ play: PlayFlowEvent, _ appStore: AppStoreFlowEvent) -> UpdateFlowEvent {
        switch self {
        case .googlePlay: .googlePlay(play)
        case .appStore: .appStore(appStore)
        }
    }

    var appUpdateInfo: AppUpdateInfo {
        switch self {
        case .googlePlay(let flow): flow.appUpdateInfo
        case .appStore(let flow): flow.appUpdateInfo
        }
    }

    var typeInProgress: AppUpdateType? {
        switch self {
        case .googlePlay(let flow): flow.typeInProgress
        case .appStore(let flow): flow.typeInProgress
        }
    }

    var isConfirmationDialogVisible: Bool {
        switch self {
        case .googlePlay(let flow): flow.isConfirmationDialogVisible
        case .appStore(let flow): flow.state == .prompting(.flexible)
        }
    }

    var isImmediateFlowVisible: Bool { typeInProgress == .immediate }

    var isInstallSplashScreenVisible: Bool {
        switch self {
        case .googlePlay(let flow): flow.isInstallSplashScreenVisible
        case .appStore: false
        }
    }
}
