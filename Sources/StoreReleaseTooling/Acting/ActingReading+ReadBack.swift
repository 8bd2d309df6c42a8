import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension ActingReading {
    /// What this reading, taken after `step` failed, shows of it.
    ///
    /// Done (the store holds the step's state: the write took and its answer was lost), not
    /// done (the state before), or unknown (neither, or the store was not read).
    ///
    /// - Parameters:
    ///   - step: The step that failed.
    ///   - version: The version the plan acts on (the manifest's entry).
    /// - Returns: What the reading shows of the step.
    public func shows(_ step: ActingStep, version: Version) -> ActingStep.ReadBack {
        switch step.operation {
        case .playRelease(let change):
            guard let track = googlePlay?.tracksRead.first(where: { $0.track == change.track }),
                let release = track.releases.first(where: { Set($0.versionCodes) == Set(change.versionCodes) })
            else { return .unknown("a read afterwards finds no release \(change.label) on \(change.track)") }
            if let fraction = change.fraction, release.status == change.to {
                // An advance: the status stays inProgress, the fraction tells.
                return abs((release.userFraction ?? 0) - fraction) < 1e-9
                    ? .done : .unknown("a read afterwards shows \(change.label) at \(release.userFraction ?? 0)")
            }
            return Self.judge(release.status, to: change.to, from: change.from, what: change.label)
        case .phasedRelease(let id, let state):
            guard let phase = appStoreConnect?.versions?.lazy.compactMap(\.phasedRelease).first(where: { $0.id == id })
            else { return .unknown("a read afterwards finds no phased release \(id)") }
            return Self.judge(phase.state, to: state, from: PhasedRelease.State(rawValue: step.from), what: id)
        case .createRecovery(let codes, let regions):
            let made = googlePlay?.recoveryActions?.contains { action in
                Set(codes).isSubset(of: Set(action.versionCodes))
                    && action.regions.map(Set.init) == regions.map(Set.init)
                    && action.status != .canceled
            }
            guard let made else { return .unknown("Google Play was not read afterwards") }
            return made ? .done : .notDone
        case .deployRecovery(let id):
            guard let action = googlePlay?.recoveryActions?.first(where: { $0.appRecoveryID == id }) else {
                return .unknown("a read afterwards finds no App Recovery action \(id ?? "created")")
            }
            return Self.judge(action.status, to: .active, from: .draft, what: action.appRecoveryID)
        case .writeManifest(let path, _, _):
            guard let manifest, manifest.path == path else { return .unknown("the manifest was not read afterwards") }
            return manifest.manifest.blockedVersions.contains(version) ? .done : .notDone
        }
    }

    /// The App Recovery action a create that read back as done made: the newest draft covering
    /// its versionCodes.
    func createdRecovery(by step: ActingStep) -> String? {
        guard case .createRecovery(let codes, _) = step.operation else { return nil }
        return googlePlay?.recoveryActions?.last { action in
            Set(codes).isSubset(of: Set(action.versionCodes)) && action.status == .draft
        }?.appRecoveryID
    }

    private static func judge<State: Equatable & CustomStringConvertible>(
        _ shown: State, to: State, from: State?, what: String
    ) -> ActingStep.ReadBack {
        if shown == to { return .done }
        if shown == from { return .notDone }
        return .unknown("a read afterwards shows \(what) \(shown)")
    }
}
