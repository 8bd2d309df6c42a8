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
    /// Both stores' health, when the round read it: each record's version, verdict, rates and window counts.
    public var health: ReleaseSnapshot.Health?
    /// The rollout gate's decision this round (`watch --rollout`), when it ran.
    public var rollout: RolloutDecision?

    /// A round with these parts.
    public init(
        takenAt: Date, app: ReleaseSnapshot.App?, googlePlay: ReleaseSnapshot.GooglePlay?,
        appStoreConnect: [ConnectVersion]?,
        storefronts: [Version: [StorefrontCountry]]?, storefrontsWithoutRelease: [StorefrontCountry]? = nil,
        health: ReleaseSnapshot.Health? = nil
    ) {
        self.takenAt = takenAt
        self.app = app
        self.googlePlay = googlePlay
        self.appStoreConnect = appStoreConnect
        self.storefronts = storefronts
        self.storefrontsWithoutRelease = storefrontsWithoutRelease
        self.health = health
    }

    /// The round a snapshot records, with what a history line keeps of its health.
    ///
    /// A watch with health sources records health every round.
    public init(_ snapshot: ReleaseSnapshot) {
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
            health: snapshot.health.map {
                ReleaseSnapshot.Health(appStore: $0.appStore?.keptInHistory, googlePlay: $0.googlePlay?.keptInHistory)
            })
    }

    /// Whether `other` shows the same state of both stores, whenever it was taken.
    public func showsSameState(as other: ReleaseHistoryRound) -> Bool {
        var moved = other
        moved.takenAt = takenAt
        return moved == self
    }
}
