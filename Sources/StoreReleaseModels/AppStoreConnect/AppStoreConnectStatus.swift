import Foundation
import StoreReleaseCore

/// App Store Connect's view of an app.
///
/// The version users can download (or could, until the app was removed from sale), its phased
/// release, the newest version above it on its way to users (in review, approved, waiting), and
/// the newest above it that is not (a draft, or rejected).
public struct AppStoreConnectStatus: Sendable, Hashable, Codable, EveryKeyEncodable {
    /// The version users can download.
    public struct Live: Sendable, Hashable, Codable, EveryKeyEncodable {
        /// The version string, as Apple sent it (``parsedVersion`` reads it).
        public let version: String
        /// Apple's state (`READY_FOR_DISTRIBUTION`); one Apple adds later keeps its name.
        public let state: AppStoreVersion.State
        /// Its phased release, if it has one.
        public let phasedRelease: Phase?
        /// Whether the app is removed from sale: nobody new can download it.
        ///
        /// `appStoreState` says `DEVELOPER_REMOVED_FROM_SALE` or `REMOVED_FROM_SALE`;
        /// `appVersionState` has no such value.
        public let removedFromSale: Bool

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case version, state, phasedRelease, removedFromSale
        }

        /// The version string read as a version, `nil` when Apple sent one that is not.
        public var parsedVersion: Version? { Version(version) }
    }

    /// A phased release as the status reports it.
    public struct Phase: Sendable, Hashable, Codable, EveryKeyEncodable {
        /// Apple's state (`ACTIVE`); one Apple adds later keeps its name.
        public let state: PhasedRelease.State
        /// The day (1–7), if started.
        public let day: Int?
        /// The share of automatic updates that get it, in percent.
        public let percent: Int

        /// Whether it is active or paused.
        public var isInProgress: Bool { state.isInProgress }

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case state, day, percent
        }
    }

    /// A version above the live one, not downloadable.
    ///
    /// Either ``AppStoreConnectStatus/pending`` or ``AppStoreConnectStatus/draft``.
    public struct Pending: Sendable, Hashable, Codable {
        /// The version string, as Apple sent it (``parsedVersion`` reads it).
        public let version: String
        /// Apple's state (`IN_REVIEW`, `PENDING_DEVELOPER_RELEASE`, `REJECTED`…).
        public let state: AppStoreVersion.State

        /// The version string read as a version, `nil` when Apple sent one that is not.
        public var parsedVersion: Version? { Version(version) }
    }

    /// The states of a version that is not on its way to users: being prepared, or turned back.
    public static let draftStates: Set<AppStoreVersion.State> = Set(
        ["PREPARE_FOR_SUBMISSION", "REJECTED", "METADATA_REJECTED", "DEVELOPER_REJECTED", "INVALID_BINARY"].map(
            AppStoreVersion.State.init(rawValue:)))

    /// The app's App Store id.
    public let appID: String
    /// The version users can download, or `nil` when none is.
    public let live: Live?
    /// The newest version above ``live`` on its way to users, or `nil`.
    public let pending: Pending?
    /// The newest version above ``live`` that is not on its way (``draftStates``), or `nil`.
    public let draft: Pending?

    /// The status of an app with these versions.
    ///
    /// The live version is the highest that users can download (`READY_FOR_DISTRIBUTION`, or the
    /// deprecated `READY_FOR_SALE`), or that was until the app was removed from sale. Above it,
    /// the pending one is the highest on its way to users (waiting for review or export
    /// compliance, in review, accepted, pending release, processing; a state Apple adds later
    /// counts here too, since it is not known to be a draft), and the draft the highest being
    /// prepared or rejected (``draftStates``). Replaced versions are neither.
    public init(appID: String, versions: [AppStoreVersion]) {
        self.appID = appID
        let newestFirst = versions.sorted { a, b in
            switch (a.version, b.version) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (a.createdDate ?? .distantPast) > (b.createdDate ?? .distantPast)
            }
        }
        let liveVersion = newestFirst.first { $0.isLiveOrRemoved }
        live = liveVersion.map { version in
            Live(
                version: version.versionString, state: version.state,
                phasedRelease: version.phasedRelease.map {
                    Phase(state: $0.state, day: $0.currentDayNumber, percent: $0.percent)
                }, removedFromSale: version.isRemovedFromSale)
        }
        let above = newestFirst.filter { candidate in
            guard !candidate.isLiveOrRemoved, !candidate.state.isRetired else { return false }
            guard let floor = liveVersion?.version else { return true }
            return candidate.version.map { $0 > floor } ?? false
        }
        let drafts = above.filter { Self.draftStates.contains($0.state) }
        pending = above.first { !Self.draftStates.contains($0.state) }.map {
            Pending(version: $0.versionString, state: $0.state)
        }
        draft = drafts.first.map { Pending(version: $0.versionString, state: $0.state) }
    }

    /// A status with these parts, as a stored snapshot reads it back.
    init(appID: String, live: Live?, pending: Pending?, draft: Pending?) {
        self.appID = appID
        self.live = live
        self.pending = pending
        self.draft = draft
    }

    /// Whether the live version's phased release is active or paused.
    public var phasedReleaseInProgress: Bool {
        live?.phasedRelease.map { $0.isInProgress } ?? false
    }

    /// Whether the app is removed from sale (its live version says so).
    public var removedFromSale: Bool { live?.removedFromSale ?? false }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case appID, live, pending, draft
    }

    /// The status for people, a line each.
    public var text: String {
        var lines = ["App Store Connect, app \(appID)"]
        if let live {
            var line = "  live     \(live.version) (\(live.state))"
            if let phase = live.phasedRelease {
                line +=
                    ", phased release \(phase.state)" + (phase.day.map { " day \($0)" } ?? "")
                    + ": \(phase.percent)% of automatic updates"
            }
            if live.removedFromSale { line += ", removed from sale" }
            lines.append(line)
        } else {
            lines.append("  live     none")
        }
        lines.append("  pending  " + (pending.map { "\($0.version) (\($0.state))" } ?? "none"))
        if let draft { lines.append("  draft    \(draft.version) (\(draft.state))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
