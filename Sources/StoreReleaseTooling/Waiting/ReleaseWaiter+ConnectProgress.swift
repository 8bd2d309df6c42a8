import StoreReleaseCore
import StoreReleaseModels

extension ReleaseWaiter {
    /// How far App Store Connect has taken the version awaited.
    ///
    /// Closed on purpose, so a caller's `switch` needs no `default`: these are the states a wait
    /// can be in, whatever Apple reports. A state Apple adds later is carried in a payload
    /// (``AppStoreConnectStatus`` keeps unknown values), never as a new case. A new case would
    /// be a breaking change of the package, as a new ``Until`` would.
    public enum ConnectProgress: Sendable, Hashable {
        /// No version at or above it is ready for distribution.
        ///
        /// The payload is the version on its way (`IN_REVIEW`…), when it is at or above it.
        case notReady(AppStoreConnectStatus.Pending?)
        /// The live version is at or above it, but the app is removed from sale.
        case removedFromSale
        /// Ready for distribution, in a phased release that is active or paused.
        case phasing(AppStoreConnectStatus.Phase)
        /// Ready for distribution, to every user: its phased release is complete, or it has none.
        case ready

        /// What `status` shows of `version`.
        init(_ status: AppStoreConnectStatus, version: Version) {
            guard let live = status.live, let liveVersion = live.parsedVersion, liveVersion >= version else {
                let pending = status.pending.flatMap { pending in
                    pending.parsedVersion.map { $0 >= version } == true ? pending : nil
                }
                self = .notReady(pending)
                return
            }
            if live.removedFromSale {
                self = .removedFromSale
            } else if let phase = live.phasedRelease, phase.isInProgress {
                self = .phasing(phase)
            } else {
                self = .ready
            }
        }

        /// Whether App Store Connect has taken it as far as `until` asks.
        public func isDone(_ until: Until) -> Bool {
            switch self {
            case .ready: return true
            case .phasing: return until == .live
            case .notReady, .removedFromSale: return false
            }
        }

        /// What is true, in words: `ready for distribution on App Store Connect`.
        public var sentence: String {
            switch self {
            case .notReady(let pending):
                return "not ready for distribution on App Store Connect"
                    + (pending.map { ": \($0.version) is \($0.state)" } ?? "")
            case .removedFromSale:
                return "removed from sale on App Store Connect"
            case .phasing(let phase):
                let day = phase.day.map { "day \($0), " } ?? ""
                return "ready for distribution on App Store Connect, in a phased release (\(phase.state), \(day)"
                    + "\(phase.percent)% of automatic updates)"
            case .ready:
                return "ready for distribution on App Store Connect"
            }
        }
    }
}
