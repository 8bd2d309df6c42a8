import Foundation

/// App Store Connect's view of an app.
///
/// The version users can download, its phased release, and the newest version above it (in
/// review, approved, waiting).
public struct AppStoreConnectStatus: Sendable, Hashable, Encodable {
    /// The version users can download.
    public struct Live: Sendable, Hashable, Encodable {
        /// The version string.
        public let version: String
        /// Apple's state (`READY_FOR_DISTRIBUTION`).
        public let state: String
        /// Its phased release, if it has one.
        public let phasedRelease: Phase?

        enum CodingKeys: String, CodingKey {
            case version, state, phasedRelease
        }

        /// Encodes every key, `null` without a phased release.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(version, forKey: .version)
            try c.encode(state, forKey: .state)
            try c.encode(phasedRelease, forKey: .phasedRelease)
        }
    }

    /// A phased release as the status reports it.
    public struct Phase: Sendable, Hashable, Encodable {
        /// Apple's state (`ACTIVE`).
        public let state: String
        /// The day (1–7), if started.
        public let day: Int?
        /// The share of automatic updates that get it, in percent.
        public let percent: Int

        enum CodingKeys: String, CodingKey {
            case state, day, percent
        }

        /// Encodes every key, `null` for an unknown day.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(state, forKey: .state)
            try c.encode(day, forKey: .day)
            try c.encode(percent, forKey: .percent)
        }
    }

    /// The newest version above the live one, not yet downloadable.
    public struct Pending: Sendable, Hashable, Encodable {
        /// The version string.
        public let version: String
        /// Apple's state (`IN_REVIEW`, `PENDING_DEVELOPER_RELEASE`…).
        public let state: String
    }

    /// The app's App Store id.
    public let appID: String
    /// The version users can download, or `nil` when none is.
    public let live: Live?
    /// The newest version above ``live``, or `nil`.
    public let pending: Pending?

    /// The status of an app with these versions.
    ///
    /// The live version is the highest that users can download (`READY_FOR_DISTRIBUTION`, or the
    /// deprecated `READY_FOR_SALE`); the pending one, the highest above it that is neither
    /// downloadable nor retired (replaced, removed from sale).
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
        let liveVersion = newestFirst.first { $0.state.isLive }
        live = liveVersion.map { version in
            Live(
                version: version.versionString, state: version.state.rawValue,
                phasedRelease: version.phasedRelease.map {
                    Phase(state: $0.state.rawValue, day: $0.currentDayNumber, percent: $0.percent)
                })
        }
        let above = newestFirst.first { candidate in
            guard !candidate.state.isLive, !candidate.state.isRetired else { return false }
            guard let floor = liveVersion?.version else { return true }
            return candidate.version.map { $0 > floor } ?? false
        }
        pending = above.map { Pending(version: $0.versionString, state: $0.state.rawValue) }
        phasedReleaseInProgress = liveVersion?.phasedRelease?.isInProgress ?? false
    }

    /// Whether the live version's phased release is active or paused.
    public let phasedReleaseInProgress: Bool

    enum CodingKeys: String, CodingKey {
        case appID, live, pending
    }

    /// Encodes `appID`, `live` and `pending`, `null` for what there is not.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appID, forKey: .appID)
        try c.encode(live, forKey: .live)
        try c.encode(pending, forKey: .pending)
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
            lines.append(line)
        } else {
            lines.append("  live     none")
        }
        lines.append("  pending  " + (pending.map { "\($0.version) (\($0.state))" } ?? "none"))
        return lines.joined(separator: "\n") + "\n"
    }
}
