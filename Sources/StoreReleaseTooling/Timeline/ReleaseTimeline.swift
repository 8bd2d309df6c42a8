import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One version's release over time, both stores, read from a watch's history.
///
/// What `storerelease timeline` draws: Play's rollout of every release the track held during the
/// history, the version's own first (with the rounds that first showed each halted), the phased
/// release's percentage (with the rounds that first showed it paused), the share of storefronts serving each version, each store's crash rate with its
/// interval when the rounds read health, and the rollout gate's decisions when the rounds recorded them.
public struct ReleaseTimeline: Sendable, Hashable {
    /// A value at a round.
    public struct Point: Sendable, Hashable {
        /// When the round was taken.
        public var at: Date
        /// The value: a percentage (0–100), or a fraction for a rate.
        public var value: Double
    }

    /// A Play release's rollout: the share of users per round, and the halts.
    public struct PlayRollout: Sendable, Hashable {
        /// Its versionCode.
        public var versionCode: VersionCode
        /// Its version (the release's name), when the round recorded one.
        public var version: Version?
        /// Percent of users per round (a completed release is 100).
        public var points: [Point]
        /// Whether it was halted at each point.
        public var halted: [Bool]
        /// The rounds that first showed it halted, at its percentage then.
        public var halts: [Point]
    }

    /// The phased release: percent of automatic updates per round, and the pauses.
    public struct PhasedRelease: Sendable, Hashable {
        /// Percent per round (a live version without a phased release, or a complete one, is 100).
        public var points: [Point]
        /// Its day (1–7) per point, when it had one.
        public var days: [Int?]
        /// Whether it was paused at each point.
        public var paused: [Bool]
        /// The rounds that first showed it paused, at its percentage then.
        public var pauses: [Point]
    }

    /// The share of storefronts serving a version per round (percent of those read).
    public struct StorefrontShare: Sendable, Hashable {
        /// The version.
        public var version: Version
        /// Percent of storefronts per round.
        public var points: [Point]
        /// Storefronts serving it, per point.
        public var serving: [Int]
        /// Storefronts read, per point.
        public var read: [Int]
    }

    /// A store's crash rate per round that read it.
    public struct CrashRate: Sendable, Hashable {
        /// The store.
        public var store: Store
        /// When each rate was read.
        public var at: [Date]
        /// The rates with their intervals.
        public var rates: [HealthRate]
    }

    /// The version drawn.
    public var version: Version
    /// The app, as the first round naming it records it.
    public var app: ReleaseSnapshot.App?
    /// The first round's time.
    public var start: Date
    /// The last round's time.
    public var end: Date
    /// The rounds' times.
    public var rounds: [Date]
    /// Play's rollout of each release the track held (drafts aside).
    ///
    /// Those carrying ``version`` come first, lowest versionCode first, then the others, highest
    /// versionCode first.
    public var play: [PlayRollout]
    /// The phased release of ``version``, when App Store Connect showed it live.
    public var phased: PhasedRelease?
    /// The storefronts' shares: ``version`` first, then up to three older versions, newest first.
    public var storefronts: [StorefrontShare]
    /// The crash rates of ``version``, Google Play first, for the stores whose rounds read health.
    public var crashRates: [CrashRate]
    /// The rollout gate's decision in each round that recorded one (`watch --rollout`).
    ///
    /// In time order; empty for a history without them.
    public var gate: [GateRound]
    /// The most storefronts shares drawn.
    public static let storefrontVersionsDrawn = 4
    /// The longest span of rounds drawn: five years (1,826 days).
    ///
    /// A longer one is a clock that was wrong for a round (a round dated 1970 or 9999), and is
    /// refused naming its rounds.
    public static let maximumSpan: TimeInterval = 1826 * 86400

    /// The timeline of `version` (default: the highest version the history saw).
    ///
    /// - Throws: ``ReleaseTimelineError/versionNotSeen(version:seen:)`` when the history never saw
    ///   `version`; ``ReleaseTimelineError/spanTooLong(first:last:)`` when its rounds span more
    ///   than ``maximumSpan``.
    public init(_ history: ReleaseHistory, version: Version? = nil) throws(ReleaseTimelineError) {
        let seen = history.versions
        guard let version = version ?? seen.last, seen.contains(version) else {
            throw .versionNotSeen(version: version, seen: seen)
        }
        let rounds: [ReleaseHistoryRound]
        switch ReleaseHistory.inTimeOrder(history.rounds, within: Self.maximumSpan) {
        case .success(let ordered): rounds = ordered
        case .failure(let span): throw .spanTooLong(first: span.first, last: span.last)
        }
        self.version = version
        app = rounds.lazy.compactMap(\.app).first
        start = rounds.first?.takenAt ?? Date(timeIntervalSince1970: 0)
        end = rounds.last?.takenAt ?? start
        self.rounds = rounds.map(\.takenAt)
        play = Self.play(rounds, version: version)
        phased = Self.phased(rounds, version: version)
        storefronts = Self.storefronts(rounds, version: version)
        crashRates = Self.crashRates(rounds, version: version)
        gate = Self.gate(rounds, version: version)
    }

    /// Each release's share of users per round, and where it was first seen halted: `version`'s
    /// releases first.
    static func play(_ rounds: [ReleaseHistoryRound], version: Version) -> [PlayRollout] {
        var byCode: [VersionCode: PlayRollout] = [:]
        for round in rounds {
            for release in round.googlePlay?.releases ?? [] {
                guard let code = release.versionCode else { continue }
                let percent: Double
                switch release.status {
                case .completed: percent = 100
                case .inProgress, .halted: percent = (release.userFraction ?? 1) * 100
                default: continue
                }
                var rollout =
                    byCode[code]
                    ?? PlayRollout(versionCode: code, version: release.version, points: [], halted: [], halts: [])
                rollout.version = release.version ?? rollout.version
                let isHalted = release.status == .halted
                if isHalted && rollout.halted.last != true {
                    rollout.halts.append(Point(at: round.takenAt, value: percent))
                }
                rollout.points.append(Point(at: round.takenAt, value: percent))
                rollout.halted.append(isHalted)
                byCode[code] = rollout
            }
        }
        let (own, others) = (
            byCode.values.filter { $0.version == version }, byCode.values.filter { $0.version != version }
        )
        return own.sorted { $0.versionCode.rawValue < $1.versionCode.rawValue }
            + others.sorted { $0.versionCode.rawValue > $1.versionCode.rawValue }
    }

    /// The phased release's percentage per round the version was live, and where it was first
    /// seen paused.
    static func phased(_ rounds: [ReleaseHistoryRound], version: Version) -> PhasedRelease? {
        var phased = PhasedRelease(points: [], days: [], paused: [], pauses: [])
        for round in rounds {
            guard let connect = round.appStoreConnect?.first(where: { $0.version.parsed == version }),
                connect.state.isLive
            else { continue }
            let phase = connect.phasedRelease
            let percent = phase.map { $0.state == .complete ? 100 : Double($0.percent) } ?? 100
            let isPaused = phase?.state == .paused
            if isPaused && phased.paused.last != true {
                phased.pauses.append(Point(at: round.takenAt, value: percent))
            }
            phased.points.append(Point(at: round.takenAt, value: percent))
            phased.days.append(phase?.day)
            phased.paused.append(isPaused)
        }
        return phased.points.isEmpty ? nil : phased
    }

    /// The share of storefronts serving `version` and the versions below it, per round.
    static func storefronts(_ rounds: [ReleaseHistoryRound], version: Version) -> [StorefrontShare] {
        let served = Set(rounds.flatMap { $0.storefronts?.keys.map { $0 } ?? [] })
        let drawn = [version] + served.filter { $0 < version }.sorted(by: >).prefix(storefrontVersionsDrawn - 1)
        return drawn.compactMap { shown in
            var share = StorefrontShare(version: shown, points: [], serving: [], read: [])
            for round in rounds {
                guard let storefronts = round.storefronts else { continue }
                let total =
                    storefronts.values.reduce(0) { $0 + $1.count } + (round.storefrontsWithoutRelease?.count ?? 0)
                guard total > 0 else { continue }
                let serving = storefronts[shown]?.count ?? 0
                share.points.append(Point(at: round.takenAt, value: Double(serving) / Double(total) * 100))
                share.serving.append(serving)
                share.read.append(total)
            }
            // From the first round serving it to the first round after that serving it nowhere.
            guard let first = share.serving.firstIndex(where: { $0 > 0 }) else { return nil }
            let last = share.serving[first...].firstIndex(of: 0) ?? share.serving.count - 1
            return StorefrontShare(
                version: shown, points: Array(share.points[first...last]), serving: Array(share.serving[first...last]),
                read: Array(share.read[first...last]))
        }
    }

    /// Each store's crash rate of `version` in the rounds that read it.
    static func crashRates(_ rounds: [ReleaseHistoryRound], version: Version) -> [CrashRate] {
        let stores: [(Store, KeyPath<ReleaseSnapshot.Health, ReleaseSnapshot.StoreHealthRecord?>)] = [
            (.googlePlay, \.googlePlay), (.appStore, \.appStore),
        ]
        return stores.compactMap { store, key in
            var rate = CrashRate(store: store, at: [], rates: [])
            for round in rounds {
                guard let health = round.health?[keyPath: key], let crash = health.crashRate,
                    health.version.map({ $0 == version }) ?? true
                else { continue }
                rate.at.append(round.takenAt)
                rate.rates.append(crash)
            }
            return rate.rates.isEmpty ? nil : rate
        }
    }
}

/// Why a history has no timeline of the version asked for, or none at all.
public enum ReleaseTimelineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A round of the history: its number (from 1, in the order written) and its time.
    public struct Round: Sendable, Hashable {
        /// Its number, from 1, in the order the history holds the rounds.
        public let number: Int
        /// When it was taken.
        public let takenAt: Date
    }

    /// The history never saw `version`.
    ///
    /// `version` is `nil` when none was asked for and the history saw none; `seen` are the
    /// versions it saw, lowest first.
    case versionNotSeen(version: Version?, seen: [Version])
    /// The rounds span more than ``ReleaseTimeline/maximumSpan``: the earliest and the latest.
    case spanTooLong(first: Round, last: Round)

    /// `the history never saw version 9.0; it has 8.0.2, 8.0.10`.
    public var description: String {
        switch self {
        case .versionNotSeen(let version, let seen):
            let has = seen.isEmpty ? "it has none" : "it has \(seen.map(\.description).joined(separator: ", "))"
            return "the history never saw \(version.map { "version \($0)" } ?? "a version"); \(has)"
        case .spanTooLong(let first, let last):
            return "\(ReleaseHistorySpan(first: first, last: last)); a timeline draws at most "
                + "\(Int(ReleaseTimeline.maximumSpan / 86400)) days: was a clock wrong for one of them?"
        }
    }
}
