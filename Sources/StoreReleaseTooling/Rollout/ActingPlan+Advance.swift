import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension ActingPlan {
    /// The plan that carries out the rollout gate's `decision` for `version`: pure, nothing sent.
    ///
    /// `advance` and `complete`: Play's release of the version on the reading's track to the
    /// decision's fraction (`completed` at 100%, in place of the earlier completed release);
    /// lockstep's pause or resume of the phased release as a step of its own. `halt`: the plan
    /// of ``ReleaseAction/halt`` on both stores, for a person to run (`storerelease halt`).
    /// `hold` and `done`: no Play step. The plan carries the decision as ``gate``.
    public static func advance(_ version: Version, reading: ActingReading, decision: RolloutDecision) -> ActingPlan {
        if decision.kind == .halt {
            var plan = ActingPlan(.halt, version: version, reading: reading)
            plan.gate = decision
            return plan
        }
        var steps: [ActingStep] = []
        var refusals: [String] = []
        if decision.kind == .advance || decision.kind == .complete, let play = reading.googlePlay,
            let release = play.track.release(of: version), let to = decision.to
        {
            let completing = decision.kind == .complete
            let change = PlayReleaseChange(
                track: play.track.track, versionCodes: release.versionCodes, from: release.status,
                to: completing ? .completed : .inProgress, version: release.version, fraction: completing ? nil : to)
            do throws(HTTPClientError) {
                guard let json = try? JSONValue(encoding: play.track) else {
                    throw .play(.invalidRequest("the track \(play.track.track) cannot be written back as JSON"))
                }
                let request = try PlayDeveloperAPIClient.trackUpdateRequest(
                    change, track: json, packageName: play.packageName ?? "")
                steps.append(
                    ActingStep(
                        store: .googlePlay, from: "\(release.status) at \(RolloutSchedule.percent(decision.from ?? 0))",
                        to: completing
                            ? "\(PlayTrackRelease.Status.completed)" : "inProgress at \(RolloutSchedule.percent(to))",
                        request: request, operation: .playRelease(change)))
            } catch {
                refusals.append("Google Play: \(error)")
            }
        }
        if let move = decision.phased, let connect = reading.appStoreConnect,
            let phase = connect.versions?.first(where: { $0.isVersion(version) })?.phasedRelease,
            let id = phase.id
        {
            let state: PhasedRelease.State = move == .pause ? .paused : .active
            do throws(HTTPClientError) {
                steps.append(
                    ActingStep(
                        store: .appStore, from: phase.state.rawValue, to: state.rawValue,
                        request: try AppStoreConnectClient.phasedReleaseRequest(id: id, state: state),
                        operation: .phasedRelease(id: id, state: state)))
            } catch {
                refusals.append("App Store Connect: \(error)")
            }
        }
        var plan = ActingPlan(action: .advance, version: version, steps: steps, refusals: refusals)
        plan.gate = decision
        return plan
    }
}
