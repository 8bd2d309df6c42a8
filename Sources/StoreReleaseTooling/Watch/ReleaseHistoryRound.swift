import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One round of a watch as its history keeps it: one JSON line of `watch --history FILE`.
///
/// What a picture of the release over time needs and no more: when the round was taken, which
/// app, the Play track's releases with their status and user fraction, App Store Connect's
/// versions with their state and phased release, which storefronts served which version, and the
/// health verdicts and rates when the round read them. Every key is written, `null` for a store
/// the round did not read.
public struct ReleaseHistoryRound: Sendable, Hashable {
    /// A version App Store Connect showed: the live one, or the one on its way.
    public struct ConnectVersion: Sendable, Hashable {
        /// The version as App Store Connect wrote it (`8.0.10`).
        public var version: VersionText
        /// Apple's state (`READY_FOR_DISTRIBUTION`, `IN_REVIEW`…).
        public var state: AppStoreVersion.State
        /// Its phased release (state, day, percent), for the live version that has one.
        public var phasedRelease: AppStoreConnectStatus.Phase?

        /// Makes a version's state.
        public init(version: VersionText, state: AppStoreVersion.State, phasedRelease: AppStoreConnectStatus.Phase?) {
            self.version = version
            self.state = state
            self.phasedRelease = phasedRelease
        }
    }

    /// One store's health in a round: the version judged, its verdict and its rates.
    public struct HealthRecord: Sendable, Hashable {
        /// The version judged.
        public var version: Version?
        /// `healthy`, `regressed`, `insufficientData` or `unknown`.
        public var verdict: HealthVerdict.Kind
        /// Its crash rate with the 95% interval, when read.
        public var crashRate: HealthRate?
        /// Its ANR rate with the 95% interval (Play only), when read.
        public var anrRate: HealthRate?
        /// The candidate's window counts (round 5 on; `nil` in an older history).
        public var candidate: HealthCounts?
        /// The baseline's window counts at the same age, when there is one.
        public var baseline: HealthCounts?

        /// Makes a store's health.
        public init(version: Version?, verdict: HealthVerdict.Kind, crashRate: HealthRate?, anrRate: HealthRate?) {
            self.version = version
            self.verdict = verdict
            self.crashRate = crashRate
            self.anrRate = anrRate
            candidate = nil
            baseline = nil
        }
    }

    /// Both stores' health in a round.
    public struct Health: Sendable, Hashable, Codable {
        /// The App Store's, when read.
        public var appStore: HealthRecord?
        /// Google Play's, when read.
        public var googlePlay: HealthRecord?

        /// Both stores' health.
        public init(appStore: HealthRecord?, googlePlay: HealthRecord?) {
            self.appStore = appStore
            self.googlePlay = googlePlay
        }

        /// The health a snapshot recorded: each store's version, verdict and rates.
        public init(_ recorded: ReleaseSnapshot.Health) {
            func store(_ record: ReleaseSnapshot.StoreHealthRecord?) -> HealthRecord? {
                record.map {
                    var health = HealthRecord(
                        version: $0.version, verdict: $0.verdict, crashRate: $0.crashRate, anrRate: $0.anrRate)
                    (health.candidate, health.baseline) = ($0.candidate, $0.baseline)
                    return health
                }
            }
            self.init(appStore: store(recorded.appStore), googlePlay: store(recorded.googlePlay))
        }

        /// The health a report gives: each store's candidate, verdict and rates.
        public init(_ report: ReleaseHealthReport) {
            func store(_ health: StoreHealth?) -> HealthRecord? {
                health.map {
                    var health = HealthRecord(
                        version: $0.candidate?.version, verdict: $0.verdict.kind, crashRate: $0.candidate?.crashRate,
                        anrRate: $0.candidate?.anrRate)
                    (health.candidate, health.baseline) = (
                        $0.candidate.map(HealthCounts.init), $0.baseline.map(HealthCounts.init)
                    )
                    return health
                }
            }
            self.init(appStore: store(report.appStore), googlePlay: store(report.googlePlay))
        }
    }

    /// When the round was taken, to the second (written ISO 8601).
    public var takenAt: Date
    /// The app, as the snapshot records it.
    public var app: ReleaseSnapshot.App?
    /// The Play track, when read: the snapshot's record of it.
    ///
    /// Each release with its versionCode, version, status and fraction (a history line keeps no more of it).
    public var googlePlay: ReleaseSnapshot.GooglePlay?
    /// App Store Connect's live version and the one on its way, when read.
    public var appStoreConnect: [ConnectVersion]?
    /// Version → the storefronts serving it, when the App Store was read.
    public var storefronts: [Version: [StorefrontCountry]]?
    /// The storefronts read that serve no version (the app is not sold there).
    public var storefrontsWithoutRelease: [StorefrontCountry]?
    /// Both stores' health, when the round read it.
    public var health: Health?
    /// The rollout gate's decision this round (`watch --rollout`), when it ran.
    public var rollout: RolloutDecision?

    /// A round with these parts.
    public init(
        takenAt: Date, app: ReleaseSnapshot.App?, googlePlay: ReleaseSnapshot.GooglePlay?,
        appStoreConnect: [ConnectVersion]?,
        storefronts: [Version: [StorefrontCountry]]?, storefrontsWithoutRelease: [StorefrontCountry]? = nil,
        health: Health? = nil
    ) {
        self.takenAt = takenAt
        self.app = app
        self.googlePlay = googlePlay
        self.appStoreConnect = appStoreConnect
        self.storefronts = storefronts
        self.storefrontsWithoutRelease = storefrontsWithoutRelease
        self.health = health
    }

    /// The round a snapshot records, with its health.
    ///
    /// The health is `health` when given, else what the snapshot recorded (a watch with health
    /// sources records it every round).
    public init(_ snapshot: ReleaseSnapshot, health: Health? = nil) {
        let storefronts = snapshot.appStore?.storefronts ?? [:]
        var serving: [Version: [StorefrontCountry]] = [:]
        for (country, storefront) in storefronts {
            if let version = storefront.version { serving[version, default: []].append(country) }
        }
        let connect = snapshot.appStoreConnect.map { status in
            [
                status.live.map {
                    ConnectVersion(version: VersionText($0.version), state: $0.state, phasedRelease: $0.phasedRelease)
                },
                status.pending.map {
                    ConnectVersion(version: VersionText($0.version), state: $0.state, phasedRelease: nil)
                },
            ]
            .compactMap { $0 }
        }
        self.init(
            takenAt: snapshot.takenAt, app: snapshot.app,
            googlePlay: snapshot.googlePlay.map { play in
                ReleaseSnapshot.GooglePlay(
                    track: play.track,
                    releases: play.releases.map {
                        ReleaseSnapshot.PlayRelease(
                            versionCode: $0.versionCode, version: $0.version, status: $0.status,
                            userFraction: $0.userFraction)
                    })
            },
            appStoreConnect: connect,
            storefronts: snapshot.appStore == nil ? nil : serving.mapValues { $0.sorted { $0.code < $1.code } },
            storefrontsWithoutRelease: snapshot.appStore == nil
                ? nil : storefronts.filter { $0.value.version == nil }.keys.sorted { $0.code < $1.code },
            health: health ?? snapshot.health.map(Health.init))
    }

    /// Whether `other` shows the same state of both stores, whenever it was taken.
    public func showsSameState(as other: ReleaseHistoryRound) -> Bool {
        var moved = other
        moved.takenAt = takenAt
        return moved == self
    }
}
