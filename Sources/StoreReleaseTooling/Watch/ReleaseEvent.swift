import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One change between two snapshots, as a watcher reports it.
///
/// The `id` names one occurrence of a change: the change (never `at`, never a storefront's lag),
/// the snapshot it is counted from (``since``: the last delivered one, for a watcher) and, when
/// the same change happens again before a delivery, its ``occurrence``. It is the same whenever
/// that occurrence is computed, so a batch delivered again in a later round, or by the next
/// watch of the state file, keeps its ids, and a receiver can drop what it has seen without
/// dropping a later occurrence of the same change.
public struct ReleaseEvent: Sendable, Hashable, Encodable {
    /// What changed, with its data.
    public enum Change: Sendable, Hashable {
        /// A storefront serves another version.
        ///
        /// `lagSeconds` is the time since App Store Connect first showed `to` ready, when it did.
        case storefrontUpdated(country: StorefrontCountry, from: Version?, to: Version?, lagSeconds: Int?)
        /// A storefront answers that did not.
        case storefrontAdded(country: StorefrontCountry, version: Version?)
        /// A storefront no longer answers.
        case storefrontRemoved(country: StorefrontCountry, version: Version?)
        /// A release appeared on the Play track.
        case playReleaseAdded(
            versionCode: VersionCode?, version: Version?, status: PlayTrackRelease.Status, userFraction: Double?)
        /// A release left the Play track.
        case playReleaseRemoved(versionCode: VersionCode?)
        /// A Play release's status changed (`inProgress` → `halted`).
        case playStatusChanged(versionCode: VersionCode?, from: PlayTrackRelease.Status, to: PlayTrackRelease.Status)
        /// A Play rollout's share changed (0.2 → 0.5).
        case playRolloutChanged(versionCode: VersionCode?, from: Double?, to: Double?)
        /// A Play release's review state changed (`IN_REVIEW` → `PUBLISHED`).
        case playReviewChanged(
            versionCode: VersionCode?, from: PlayReleaseSummary.LifecycleState?, to: PlayReleaseSummary.LifecycleState?)
        /// An App Store Connect version's state changed.
        case ascStateChanged(version: VersionText, from: AppStoreVersion.State?, to: AppStoreVersion.State?)
        /// The live version's phased release moved (state and day).
        case phasedReleaseChanged(
            version: VersionText, from: AppStoreConnectStatus.Phase?, to: AppStoreConnectStatus.Phase?)
        /// Forcing an update to `version` became safe.
        ///
        /// Every storefront and Play's full rollout serve it, past the release delay, with no
        /// phased release under way.
        case forceUpdateSafe(version: Version)
        /// A store's health verdict changed (`insufficientData` → `regressed`).
        ///
        /// `from` is `nil` for a version the snapshot before did not judge on that store.
        case healthChanged(store: Store, version: Version?, from: HealthVerdict.Kind?, to: HealthVerdict.Kind)
        /// `watch --halt-on regressed` acted on `version`, because `store`'s health of it turned `regressed`.
        ///
        /// The halt plan for it, applied on both stores (``ReleaseWatcher/haltsOnRegression``).
        /// `steps` are the plan's, each with whether it was done and the store's error;
        /// `verified` whether the stores, read again, show the halt; `refusals` why the plan
        /// would not act (nothing was written then); `health` the record that caused it.
        case halted(
            version: Version, store: Store, steps: [ActingStep], verified: Bool?, refusals: [String],
            health: ReleaseSnapshot.StoreHealthRecord)
        /// `watch --rollout` moved `version`'s rollout on `store` from `from` to `to`, read back.
        ///
        /// The fractions are Play's `userFraction`, 1 for completed.
        case rolloutAdvanced(version: Version, store: Store, from: Double?, to: Double)
        /// `watch --rollout` holds `version` where it is, for these reasons.
        ///
        /// Told when the reasons change (their numbers aside), not every round.
        case rolloutHeld(version: Version, reasons: [String])
        /// A Play App Recovery action appeared, changed status or went (`DRAFT` → `ACTIVE`).
        ///
        /// `from` is `nil` for an action the snapshot before did not list, `to` for one this
        /// snapshot does not; `versionCodes` are those it targets.
        case playRecoveryChanged(
            appRecoveryID: String, versionCodes: [VersionCode], from: PlayRecoveryAction.Status?,
            to: PlayRecoveryAction.Status?)
        /// One of the watch's acts an earlier run could not deliver, as it was written then.
        ///
        /// Delivered by the next run before its own events (``Owed``); its `type` is the act's.
        case owed(Owed)
    }

    /// The store an event happened in, as the JSON names it.
    public enum Source: String, Sendable, Hashable, Encodable {
        /// A storefront (and forcing an update, judged over both stores).
        case appStore
        /// The Play track.
        case googlePlay
        /// App Store Connect.
        case appStoreConnect
    }

    /// What changed.
    public let change: Change
    /// When it was seen: the newer snapshot's `takenAt` (written ISO 8601).
    public let at: Date
    /// The `takenAt` of the snapshot it is counted from, when known: part of the ``id``.
    ///
    /// ``ReleaseSnapshot/events(since:)`` sets the older snapshot's; a watcher, the last
    /// delivered snapshot's, which stays the same until the event is delivered.
    public var since: Date?
    /// Which occurrence of the same change counted from the same snapshot this is.
    ///
    /// 1, the first (left out of the ``id``), 2 the next (written `#2`)…
    public var occurrence: Int

    /// Makes an event.
    public init(_ change: Change, at: Date, since: Date? = nil, occurrence: Int = 1) {
        self.change = change
        self.at = at
        self.since = since
        self.occurrence = occurrence
    }

    /// The event's type as the JSON names it (`storefrontUpdated`).
    public var type: String {
        switch change {
        case .storefrontUpdated: "storefrontUpdated"
        case .storefrontAdded: "storefrontAdded"
        case .storefrontRemoved: "storefrontRemoved"
        case .playReleaseAdded: "playReleaseAdded"
        case .playReleaseRemoved: "playReleaseRemoved"
        case .playStatusChanged: "playStatusChanged"
        case .playRolloutChanged: "playRolloutChanged"
        case .playReviewChanged: "playReviewChanged"
        case .ascStateChanged: "ascStateChanged"
        case .phasedReleaseChanged: "phasedReleaseChanged"
        case .forceUpdateSafe: "forceUpdateSafe"
        case .healthChanged: "healthChanged"
        case .playRecoveryChanged: "playRecoveryChanged"
        case .halted: "halted"
        case .rolloutAdvanced: "rolloutAdvanced"
        case .rolloutHeld: "rolloutHeld"
        case .owed(let owed): owed.type
        }
    }

    /// The store it happened in: `appStore`, `googlePlay` or `appStoreConnect`.
    public var store: Source {
        switch change {
        case .storefrontUpdated, .storefrontAdded, .storefrontRemoved: .appStore
        case .playReleaseAdded, .playReleaseRemoved, .playStatusChanged, .playRolloutChanged, .playReviewChanged,
            .playRecoveryChanged:
            .googlePlay
        case .ascStateChanged, .phasedReleaseChanged: .appStoreConnect
        case .forceUpdateSafe: .appStore
        case .healthChanged(let store, _, _, _), .halted(_, let store, _, _, _, _),
            .rolloutAdvanced(_, let store, _, _):
            store == .googlePlay ? .googlePlay : .appStore
        case .rolloutHeld: .googlePlay
        case .owed(let owed): owed.store
        }
    }

    /// The same for the same occurrence of a change, whenever it is computed.
    ///
    /// The type, what changed, the snapshot it is counted from (`@` and its `takenAt`) and the
    /// occurrence after the first (`#2`); never when it was seen, never the lag:
    /// `playStatusChanged:googlePlay:81:inProgress:halted@2021-02-10T03:00:00Z`.
    public var id: String {
        func text(_ value: (any CustomStringConvertible)?) -> String {
            guard let value else { return "-" }
            return value.description
        }
        let parts: [(any CustomStringConvertible)?]
        switch change {
        case .storefrontUpdated(let country, let from, let to, _): parts = [country, from, to]
        case .storefrontAdded(let country, let version): parts = [country, version]
        case .storefrontRemoved(let country, let version): parts = [country, version]
        case .playReleaseAdded(let code, let version, let status, let fraction):
            parts = [code, version, status, fraction]
        case .playReleaseRemoved(let code): parts = [code]
        case .playStatusChanged(let code, let from, let to): parts = [code, from, to]
        case .playRolloutChanged(let code, let from, let to): parts = [code, from, to]
        case .playReviewChanged(let code, let from, let to): parts = [code, from, to]
        case .ascStateChanged(let version, let from, let to): parts = [version, from, to]
        case .phasedReleaseChanged(let version, let from, let to): parts = [version, from?.key, to?.key]
        case .forceUpdateSafe(let version): parts = [version]
        case .healthChanged(_, let version, let from, let to): parts = [version, from?.rawValue, to.rawValue]
        case .playRecoveryChanged(let id, _, let from, let to): parts = [id, from, to]
        case .halted(let version, _, _, _, _, _): parts = [version]
        case .rolloutAdvanced(let version, _, let from, let to): parts = [version, from, to]
        case .rolloutHeld(let version, _): parts = [version]
        case .owed(let owed): return owed.id + (occurrence > 1 ? "#\(occurrence)" : "")
        }
        let counted = since.map { "@" + ISO8601Timestamp.string(from: $0) } ?? ""
        let again = occurrence > 1 ? "#\(occurrence)" : ""
        return ([type, store.rawValue] + parts.map(text)).joined(separator: ":") + counted + again
    }

    /// The event counted from the snapshot taken at `date` (its first occurrence there).
    public func counted(from date: Date) -> ReleaseEvent {
        ReleaseEvent(change, at: at, since: date)
    }

    /// `events` after `earlier`, each counted from `date`, numbered so that no id repeats.
    ///
    /// No id of the result repeats one of `earlier` or of an event before it.
    public static func numbered(_ events: [ReleaseEvent], after earlier: [ReleaseEvent], from date: Date)
        -> [ReleaseEvent]
    {
        var seen = Set(earlier.map(\.id))
        return events.map { event in
            var counted = event.counted(from: date)
            while seen.contains(counted.id) { counted.occurrence += 1 }
            seen.insert(counted.id)
            return counted
        }
    }

    /// The event for people, one sentence ("Play rollout of 81 went 20% → 50%").
    public var sentence: String {
        func share(_ fraction: Double?) -> String { CrossStoreReport.percent(fraction) ?? "100%" }
        func code(_ versionCode: VersionCode?) -> String { versionCode?.description ?? "?" }
        func text(_ version: Version?, else none: String) -> String { version?.description ?? none }
        switch change {
        case .storefrontUpdated(let country, let from, let to, let lag):
            let after = lag.map { ", \(PropagationLag.duration($0)) after App Store Connect showed it ready" } ?? ""
            return "App Store \(country): \(text(from, else: "nothing")) → \(text(to, else: "nothing"))\(after)"
        case .storefrontAdded(let country, let version):
            return "App Store \(country) now answers: \(text(version, else: "no version"))"
        case .storefrontRemoved(let country, let version):
            return "App Store \(country) no longer answers (it served \(text(version, else: "no version")))"
        case .playReleaseAdded(let versionCode, let version, let status, let fraction):
            return "Play: release \(code(versionCode)) (\(text(version, else: "no version"))) added, \(status)"
                + (fraction.map { _ in " at \(share(fraction))" } ?? "")
        case .playReleaseRemoved(let versionCode):
            return "Play: release \(code(versionCode)) left the track"
        case .playStatusChanged(let versionCode, let from, let to):
            return "Play: \(code(versionCode)) \(from) → \(to)"
        case .playRolloutChanged(let versionCode, let from, let to):
            return "Play rollout of \(code(versionCode)) went \(share(from)) → \(share(to))"
        case .playReviewChanged(let versionCode, let from, let to):
            return "Play review of \(code(versionCode)): \(from?.shortName ?? "none") → \(to?.shortName ?? "none")"
        case .ascStateChanged(let version, let from, let to):
            return "App Store Connect: \(version) \(from?.rawValue ?? "new") → \(to?.rawValue ?? "gone")"
        case .phasedReleaseChanged(let version, let from, let to):
            func phase(_ phase: AppStoreConnectStatus.Phase?) -> String {
                phase.map { "\($0.state)" + ($0.day.map { " day \($0)" } ?? "") } ?? "none"
            }
            return "Phased release of \(version): \(phase(from)) → \(phase(to))"
        case .forceUpdateSafe(let version):
            return "Forcing \(version) is now safe"
        case .healthChanged(let store, let version, let from, let to):
            let name = store.displayName
            return "\(name) health of \(text(version, else: "no version")): \(from?.rawValue ?? "new") → \(to.rawValue)"
        case .playRecoveryChanged(let id, let codes, let from, let to):
            let targets = codes.map(\.description).joined(separator: ", ")
            return "Play App Recovery \(id) for \(targets): \(from?.shortName ?? "new") → \(to?.shortName ?? "gone")"
        case .halted(let version, let store, let steps, let verified, let refusals, let health):
            let cause = health.summary(store: store)
            if !refusals.isEmpty {
                return "Not halting \(version), though \(cause): " + refusals.joined(separator: "; ")
            }
            let moves = steps.map { step in
                step.move(store: step.store.displayName)
                    + (step.done ? "" : step.failure.map { " failed (\($0))" } ?? " not done")
            }
            if steps.isEmpty { return "\(version) was already halted on every store when \(cause)" }
            let outcome =
                verified == true ? "verified" : "NOT verified: check both stores by hand (storerelease halt \(version))"
            return "Halted \(version) because \(cause): " + moves.joined(separator: ", ") + "; \(outcome)"
        case .rolloutAdvanced(let version, let store, let from, let to):
            let verb = to >= 1 ? "completed" : "advanced"
            return "Rollout of \(version) \(verb) on \(store.displayName): "
                + "\(from.map(RolloutSchedule.percent) ?? "?") → \(RolloutSchedule.percent(to))"
        case .rolloutHeld(let version, let reasons):
            return "Rollout of \(version) held: " + reasons.joined(separator: "; ")
        case .owed(let owed):
            return owed.sentence
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes `id`, `type`, `store`, `at` and the type's own keys, `null` for what is unknown.
    public func encode(to encoder: any Encoder) throws {
        if case .owed(let owed) = change { return try owed.json.encode(to: encoder) }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id, forKey: Key("id"))
        try c.encode(type, forKey: Key("type"))
        try c.encode(store, forKey: Key("store"))
        try c.encode(ISO8601Timestamp.string(from: at), forKey: Key("at"))
        func put(_ name: String, _ value: (some Encodable)?) throws { try c.encode(value, forKey: Key(name)) }
        /// A change of what `name` names: `{name: subject, from, to}`.
        func moved(_ name: String, _ subject: some Encodable, _ from: (some Encodable)?, _ to: (some Encodable)?) throws
        {
            try put(name, subject)
            try put("from", from)
            try put("to", to)
        }
        switch change {
        case .storefrontUpdated(let country, let from, let to, let lag):
            try moved("country", country, from, to)
            try put("lagSeconds", lag)
        case .storefrontAdded(let country, let version), .storefrontRemoved(let country, let version):
            try put("country", country)
            try put("version", version)
        case .playReleaseAdded(let code, let version, let status, let fraction):
            try put("versionCode", code)
            try put("version", version)
            try put("status", status)
            try put("userFraction", fraction)
        case .playReleaseRemoved(let code):
            try put("versionCode", code)
        case .playStatusChanged(let code, let from, let to):
            try moved("versionCode", code, from, to)
        case .playRolloutChanged(let code, let from, let to):
            try moved("versionCode", code, from, to)
        case .playReviewChanged(let code, let from, let to):
            try moved("versionCode", code, from, to)
        case .ascStateChanged(let version, let from, let to):
            try moved("version", version, from, to)
        case .phasedReleaseChanged(let version, let from, let to):
            try moved(
                "version", version, from.map { PhaseKey(state: $0.state, day: $0.day) },
                to.map { PhaseKey(state: $0.state, day: $0.day) })
        case .forceUpdateSafe(let version):
            try put("version", version)
        case .healthChanged(_, let version, let from, let to):
            try moved("version", version, from, to)
        case .playRecoveryChanged(let id, let codes, let from, let to):
            try put("appRecoveryId", id)
            try moved("versionCodes", codes, from, to)
        case .halted(let version, _, let steps, let verified, let refusals, let health):
            try put("version", version)
            try put("steps", steps)
            try put("verified", verified)
            try put("refusals", refusals)
            try put("health", health)
        case .rolloutAdvanced(let version, _, let from, let to):
            try moved("version", version, from, to)
        case .rolloutHeld(let version, let reasons):
            try put("version", version)
            try put("reasons", reasons)
        case .owed:
            break  // written whole above
        }
    }

    /// A phased release as an event writes it: `{state, day}`.
    private struct PhaseKey: Encodable {
        let state: PhasedRelease.State
        let day: Int?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case state, day
        }

        func encode(to encoder: any Encoder) throws {
            try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
        }
    }
}

extension PlayRecoveryAction.Status {
    /// The status without the API's `RECOVERY_STATUS_` prefix (`ACTIVE`).
    var shortName: String { rawValue.dropping("RECOVERY_STATUS_") }
}

extension PlayReleaseSummary.LifecycleState {
    /// The state without the API's `RELEASE_LIFECYCLE_STATE_` prefix (`IN_REVIEW`).
    var shortName: String { rawValue.dropping("RELEASE_LIFECYCLE_STATE_") }
}

extension String {
    /// The text without `prefix`, or all of it when it does not start with it.
    fileprivate func dropping(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
