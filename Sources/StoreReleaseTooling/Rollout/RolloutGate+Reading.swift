import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension RolloutGate.Situation {
    /// The situation of `version` as the stores were read for advance, with their health.
    ///
    /// - Parameters:
    ///   - version: The version rolled out.
    ///   - reading: Play's track and review states, App Store Connect's versions.
    ///   - health: Each store's health of the version, as judged.
    ///   - state: What was kept of the rollout: when the step began and which pause the gate made
    ///     (both only for the version they were kept for: ``RolloutState/pausedByGate(_:)``).
    ///   - now: The time to judge against.
    public init(
        _ version: Version, reading: ActingReading, health: ReleaseHealthReport?, state: RolloutState?, now: Date
    ) {
        let play = reading.googlePlay?.track.release(of: version)
        let phased = reading.appStoreConnect?.versions?.first { $0.isVersion(version) }?.phasedRelease
        var judged: [Store: RolloutGate.Health] = [:]
        for store in health?.stores ?? [] { judged[store.store] = RolloutGate.Health(store) }
        let fraction = play.map(\.rolloutFraction)
        self.init(
            play: play, playChangesInReview: reading.googlePlay?.hasChangesInReview ?? false, phased: phased,
            phasedPausedByGate: state?.pausedByGate(version) ?? false, health: judged,
            stepBegan: state.map { $0.stepBegan(version, fraction: fraction, now: now) }, now: now)
    }
}
