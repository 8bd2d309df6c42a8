import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension ReleaseSnapshot {
    /// The events from `old` to this snapshot, in a stable order.
    ///
    /// The App Store's storefronts by code, then Play's releases by versionCode, then App Store
    /// Connect's versions, then Play's App Recovery actions by id (when both snapshots read them:
    /// one that appeared, went or changed status), then each store's health (when both snapshots
    /// recorded it: a verdict that changed, or a new version's first); no change, no events.
    public func events(since old: ReleaseSnapshot) -> [ReleaseEvent] {
        var changes: [ReleaseEvent.Change] = []
        if let new = appStore?.storefronts, let before = old.appStore?.storefronts {
            for country in Set(new.keys).union(before.keys).sorted(by: { $0.code < $1.code }) {
                switch (before[country], new[country]) {
                case (nil, let now?):
                    changes.append(.storefrontAdded(country: country, version: now.version))
                case (let was?, nil):
                    changes.append(.storefrontRemoved(country: country, version: was.version))
                case (let was?, let now?) where was.version != now.version:
                    changes.append(
                        .storefrontUpdated(
                            country: country, from: was.version, to: now.version, lagSeconds: lag(now.version)))
                default:
                    break
                }
            }
        }
        if let new = googlePlay?.releases, let before = old.googlePlay?.releases {
            // A release without a versionCode is one, keyed 0 (below every code).
            let was = Dictionary(
                before.map { ($0.versionCode?.rawValue ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
            let now = Dictionary(
                new.map { ($0.versionCode?.rawValue ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
            for code in Set(was.keys).union(now.keys).sorted() {
                let versionCode = VersionCode(rawValue: code)
                switch (was[code], now[code]) {
                case (nil, let release?):
                    changes.append(
                        .playReleaseAdded(
                            versionCode: versionCode, version: release.version, status: release.status,
                            userFraction: release.userFraction))
                case (.some, nil):
                    changes.append(.playReleaseRemoved(versionCode: versionCode))
                case (let a?, let b?):
                    if a.status != b.status {
                        changes.append(.playStatusChanged(versionCode: versionCode, from: a.status, to: b.status))
                    }
                    if a.userFraction != b.userFraction {
                        changes.append(
                            .playRolloutChanged(versionCode: versionCode, from: a.userFraction, to: b.userFraction))
                    }
                    if a.lifecycle != b.lifecycle {
                        changes.append(.playReviewChanged(versionCode: versionCode, from: a.lifecycle, to: b.lifecycle))
                    }
                case (nil, nil):
                    break
                }
            }
        }
        if let new = appStoreConnect, let before = old.appStoreConnect {
            let was = before.states
            let now = new.states
            for version in Set(was.keys).union(now.keys).sorted() where was[version] != now[version] {
                changes.append(.ascStateChanged(version: VersionText(version), from: was[version], to: now[version]))
            }
            if let live = new.live, before.live?.version == live.version,
                before.live?.phasedRelease.map(\.key) != live.phasedRelease.map(\.key)
            {
                changes.append(
                    .phasedReleaseChanged(
                        version: VersionText(live.version), from: before.live?.phasedRelease, to: live.phasedRelease))
            }
        }
        if let new = playRecoveryActions, let before = old.playRecoveryActions {
            let was = Dictionary(before.map { ($0.appRecoveryID, $0) }, uniquingKeysWith: { first, _ in first })
            let now = Dictionary(new.map { ($0.appRecoveryID, $0) }, uniquingKeysWith: { first, _ in first })
            let ids = Set(was.keys).union(now.keys).sorted { ($0.count, $0) < ($1.count, $1) }
            for id in ids where was[id]?.status != now[id]?.status {
                changes.append(
                    .playRecoveryChanged(
                        appRecoveryID: id, versionCodes: (now[id] ?? was[id])?.versionCodes ?? [],
                        from: was[id]?.status, to: now[id]?.status))
            }
        }
        if let new = health, let before = old.health {
            for (store, record) in new.stores {
                let was = before.record(of: store)
                let from = was?.version == record.version ? was?.verdict : nil
                if from != record.verdict {
                    changes.append(
                        .healthChanged(store: store, version: record.version, from: from, to: record.verdict))
                }
            }
        }
        if let now = forceUpdate(), now.safe, let version = now.version {
            let before = old.forceUpdate()
            if before?.safe != true || before?.version != version { changes.append(.forceUpdateSafe(version: version)) }
        }
        return changes.map { ReleaseEvent($0, at: takenAt, since: old.takenAt) }
    }

    /// Seconds from when App Store Connect first showed `version` ready to this snapshot.
    ///
    /// `nil` when it never did (or was not asked).
    func lag(_ version: Version?) -> Int? {
        guard let version, let ready = firstSeen.liveSince(version) else { return nil }
        return Int(takenAt.timeIntervalSince(ready))
    }
}

extension AppStoreConnectStatus {
    /// Each version App Store Connect shows and its state.
    var states: [String: AppStoreVersion.State] {
        var states: [String: AppStoreVersion.State] = [:]
        for entry in [draft, pending].compactMap({ $0 }) { states[entry.version] = entry.state }
        if let live { states[live.version] = live.state }
        return states
    }

    /// The versions App Store Connect shows, each in its state: the live one, the pending one,
    /// the draft (those whose text is a version).
    var versionStates: [(Version, AppStoreVersion.State)] {
        let shown = [live.map { ($0.version, $0.state) }] + [pending, draft].map { $0.map { ($0.version, $0.state) } }
        return shown.compactMap { entry in
            entry.flatMap { text, state in Version(text).map { ($0, state) } }
        }
    }
}

extension AppStoreConnectStatus.Phase {
    /// What a phased-release event compares: the state and the day.
    var key: String { "\(state)@\(day ?? 0)" }
}

extension ReleaseSnapshot {
    /// Whether forcing an update is safe by this snapshot, and to which version.
    ///
    /// The force gate of ``CrossStoreReport`` over the snapshot's storefronts, Play track and App
    /// Store Connect status as it recorded them, at ``takenAt``, and every store's recorded health
    /// (each not `healthy` a reason); `nil` without both stores.
    public func forceUpdate(releaseDelayHours: Double = 24) -> CrossStoreReport.ForceUpdate? {
        guard appStore != nil, googlePlay != nil else { return nil }
        return ForceGate.forceUpdate(
            ForceGate.Input(self),
            health: health?.stores.compactMap { store, record in record.gateReason(store: store) } ?? [],
            releaseDelayHours: releaseDelayHours, now: takenAt)
    }
}
