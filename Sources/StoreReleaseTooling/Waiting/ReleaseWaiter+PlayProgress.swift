import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension ReleaseWaiter {
    /// How far a Play track has taken the release awaited.
    ///
    /// Of the releases carrying the version (or versionCode, or a newer one), the one furthest
    /// along counts: completed, then in progress, then halted.
    ///
    /// Closed on purpose, so a caller's `switch` needs no `default`: these are the states a wait
    /// can be in, whatever Play reports. A status or lifecycle state Play adds later arrives in
    /// the payload of ``other(_:)`` or ``notPublished(_:)`` (their types keep unknown values),
    /// never as a new case. A new case would be a breaking change of the package, as a new
    /// ``Until`` would.
    public enum PlayProgress: Sendable, Hashable {
        /// No release on the track carries it.
        case absent
        /// A release carries it, but Play has not published it (in review, a draft…).
        case notPublished(PlayReleaseSummary.LifecycleState)
        /// Published and halted: users who have it keep it, nobody new gets it.
        case halted(userFraction: Double?)
        /// Being rolled out to a fraction of the track's users, in some countries or everywhere.
        case rollingOut(userFraction: Double?, countryTargeting: PlayTrackRelease.CountryTargeting?)
        /// Completed: every user of the track gets it.
        case completed
        /// Listed as published, but with a status in the track that serves nobody.
        ///
        /// A draft, or a status Play adds later.
        case other(PlayTrackRelease.Status)

        /// What the track's releases show of `version` or `versionCode`.
        init(releases: [PlayTrackRelease], version: Version?, versionCode: VersionCode?) {
            func rank(_ release: PlayTrackRelease) -> (Int, Int) {
                let status = release.status
                let order = status == .completed ? 3 : status == .inProgress ? 2 : status == .halted ? 1 : 0
                return (order, release.highestVersionCode?.rawValue ?? 0)
            }
            let carrying = releases.filter { $0.carries(version: version, versionCode: versionCode) }
            guard let best = carrying.max(by: { rank($0) < rank($1) }) else {
                self = .absent
                return
            }
            switch best.status {
            case .completed: self = .completed
            case .inProgress:
                self = .rollingOut(userFraction: best.userFraction, countryTargeting: best.countryTargeting)
            case .halted: self = .halted(userFraction: best.userFraction)
            case let status: self = .other(status)
            }
        }

        /// Whether the track has taken it as far as `until` asks.
        public func isDone(_ until: Until) -> Bool {
            switch self {
            case .completed: return true
            case .rollingOut: return until == .live
            case .absent, .notPublished, .halted, .other: return false
            }
        }

        /// What is true, in words: `rolling out on Google Play (production): 20% in us, ca`.
        public func sentence(track: String) -> String {
            let place = "on Google Play (\(track))"
            switch self {
            case .absent:
                return "not \(place)"
            case .notPublished(let state):
                let name = state.rawValue.replacingOccurrences(of: "RELEASE_LIFECYCLE_STATE_", with: "")
                return "not published \(place) yet: \(name.lowercased().replacingOccurrences(of: "_", with: " "))"
            case .halted(let fraction):
                return
                    "halted \(place)\(CrossStoreReport.percent(fraction).map { " at \($0)" } ?? ""): nobody new gets it"
            case .rollingOut(let fraction, let targeting):
                let share = CrossStoreReport.percent(fraction)
                guard let targeting, !targeting.countries.isEmpty else {
                    return "rolling out \(place)" + (share.map { ": \($0) of users" } ?? "")
                }
                let countries =
                    targeting.countries.map { $0.lowercased() }.joined(separator: ", ")
                    + (targeting.includeRestOfWorld ? " and the rest of the world" : "")
                return "rolling out \(place): " + (share.map { "\($0) in " } ?? "in ") + countries
            case .completed:
                return "fully rolled out \(place)"
            case .other(let status):
                return "\(status) \(place)"
            }
        }
    }
}
