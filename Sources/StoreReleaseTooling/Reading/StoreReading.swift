import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// What one read of the stores found, typed as the clients returned it.
///
/// ``StoreSources/read(_:)`` makes it, reading each store once in one order; the cross-store
/// report, the snapshot a watcher keeps, the force gate and the manifest are built from it. A
/// store not read is `nil`.
///
/// A new field of a store is added here, once: the client returns it, ``StoreSources/read(_:)``
/// puts it in its store's part, and whatever reports it (``CrossStoreReport``,
/// ``ReleaseSnapshot`` and its events) reads it from this value.
public struct StoreReading: Sendable, Hashable {
    /// The App Store's storefronts.
    public struct AppStore: Sendable, Hashable {
        /// One release a storefront that has the app.
        public var releases: [StoreRelease]
        /// The storefronts the source should answer in; empty when it does not say.
        ///
        /// A sweep's, or those stored lookups were told to cover.
        public var expected: [StorefrontCountry]
        /// Whether where the app is sold is unknown.
        ///
        /// ``expected`` is every storefront of the catalogue (`all`) and App Store Connect's
        /// availability was not read, so a storefront without a result may be one where the app
        /// is not sold.
        public var whereSoldUnknown: Bool

        /// The storefronts' releases.
        public init(releases: [StoreRelease], expected: [StorefrontCountry] = [], whereSoldUnknown: Bool = false) {
            self.releases = releases
            self.expected = expected
            self.whereSoldUnknown = whereSoldUnknown
        }
    }

    /// The Play track.
    public struct GooglePlay: Sendable, Hashable {
        /// The track, as read through an edit (or stored).
        public var track: PlayTrack
        /// The app's package, when the source names it (a stored track does not carry it).
        public var packageName: String?
        /// The track's edit-free list, which gives each release's review state, when asked.
        public var reviewStates: [PlayReleaseSummary]
        /// Where the track is available, when asked (a live sweep).
        public var availability: PlayCountryAvailability?
        /// The App Recovery actions that target the track's versionCodes, when asked (a live source).
        ///
        /// `nil` when not read; empty when Play has none.
        public var recoveryActions: [PlayRecoveryAction]?
        /// Every track of the app, read in the same edit as ``track``, when asked.
        ///
        /// ``Extras/everyTrack``, a live source; `nil` when not read.
        public var tracks: [PlayTrack]?

        /// The track and what was read beside it.
        public init(
            track: PlayTrack, packageName: String? = nil, reviewStates: [PlayReleaseSummary] = [],
            availability: PlayCountryAvailability? = nil, recoveryActions: [PlayRecoveryAction]? = nil,
            tracks: [PlayTrack]? = nil
        ) {
            self.track = track
            self.packageName = packageName
            self.reviewStates = reviewStates
            self.availability = availability
            self.recoveryActions = recoveryActions
            self.tracks = tracks
        }
    }

    /// App Store Connect, about the app the App Store source names.
    public struct AppStoreConnect: Sendable, Hashable {
        /// The app's status on the platform.
        public var status: AppStoreConnectStatus
        /// Where the app is sold, when the storefronts depend on it or a sweep is classified.
        public var availability: AppStoreAvailability?
        /// The versions the status was made from, with their phased releases, when read.
        ///
        /// `nil` when not kept; what a plan to act on the App Store reads.
        public var versions: [AppStoreVersion]?

        /// The status, and where the app is sold if read.
        public init(
            status: AppStoreConnectStatus, availability: AppStoreAvailability? = nil, versions: [AppStoreVersion]? = nil
        ) {
            self.status = status
            self.availability = availability
            self.versions = versions
        }
    }

    /// What a read asks beyond each store's releases.
    public struct Extras: OptionSet, Sendable, Hashable {
        /// In a sweep, where App Store Connect sells the app and where Play serves the track.
        ///
        /// A sweep is `all` or `sold` storefronts; Play is asked for a live source. Every
        /// storefront is classified against them.
        public static let whereSold = Extras(rawValue: 1)
        /// Play's edit-free release list, which gives each release's review state (a live source).
        public static let reviewStates = Extras(rawValue: 2)
        /// Play's App Recovery actions for the track's versionCodes (a live source).
        public static let recoveryActions = Extras(rawValue: 4)
        /// Every track of the app, listed in the edit the track is read through (a live source).
        ///
        /// What a plan to act on Google Play reads, so a round that acts plans on its own read.
        public static let everyTrack = Extras(rawValue: 8)

        /// The bits.
        public let rawValue: Int

        /// The extras of these bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }
    }

    /// The storefronts, when the App Store was read.
    public var appStore: AppStore?
    /// The Play track, when read.
    public var googlePlay: GooglePlay?
    /// App Store Connect, when it was asked.
    public var appStoreConnect: AppStoreConnect?
    /// Each store's health for the version judged, when health sources were given.
    public var health: ReleaseHealthReport?

    /// A reading of whatever was read.
    public init(
        appStore: AppStore? = nil, googlePlay: GooglePlay? = nil, appStoreConnect: AppStoreConnect? = nil,
        health: ReleaseHealthReport? = nil
    ) {
        self.appStore = appStore
        self.googlePlay = googlePlay
        self.appStoreConnect = appStoreConnect
        self.health = health
    }

    /// The version a forced update would require: the newest either store serves to everyone.
    ///
    /// The newest version of the storefronts and that of Play's fully rolled-out release;
    /// `nil` when neither is known.
    public var forceTarget: Version? {
        ForceGate.target(appStore: appStore?.releases ?? [], play: googlePlay?.track)
    }

    /// The newest version either store is releasing: what a regression would make you halt.
    ///
    /// The one rule of which version `snapshot`, `watch` (its history, its `healthChanged`
    /// events) and `watch --halt-on` judge. Google Play: the newest release with users, its fully
    /// rolled-out release, its release in staged rollout and its halted releases (a halt pauses
    /// a release, and its users keep it: halting it does not move the judging to the version
    /// before). The App Store: the newest version a storefront serves, or App Store Connect
    /// shows live (in a phased release or not) and on sale. `nil` when none is known.
    public var newestReleasing: Version? {
        let play = googlePlay.map { [$0.track.rollout?.version] + $0.track.haltedReleases.map(\.version) } ?? []
        let live = appStoreConnect?.status.live.flatMap { live in
            live.state.isLive && !live.removedFromSale ? live.parsedVersion : nil
        }
        return ([forceTarget, live] + play).compactMap { $0 }.max()
    }
}

extension StoreReading.GooglePlay {
    /// Play's newest release with users (by versionCode: completed, in staged rollout or halted),
    /// when its name carries no version (`Spring release`); `nil` when it carries one.
    ///
    /// Which version is being released is then unknown, and judging the one before would pass a
    /// regression: ``StoreSources/read(_:)`` says so instead.
    var releasingWithoutVersion: PlayTrackRelease? {
        let withUsers = track.releases.filter { [.completed, .inProgress, .halted].contains($0.status) }
        let newest = withUsers.max { ($0.highestVersionCode?.rawValue ?? 0) < ($1.highestVersionCode?.rawValue ?? 0) }
        guard let newest, newest.version == nil, newest.highestVersionCode != nil else { return nil }
        return newest
    }

    /// Whether the track has changes Play has not reviewed yet.
    ///
    /// A release `IN_REVIEW`, or not sent for review (``reviewStates``).
    public var hasChangesInReview: Bool {
        reviewStates.contains { $0.lifecycleState == .inReview || $0.lifecycleState == .notSentForReview }
    }

    /// Every track listed in the edit, or the track alone when the others were not listed.
    var tracksRead: [PlayTrack] { tracks ?? [track] }

    /// The versionCodes of `version`'s releases on every track read, each once, lowest first.
    func versionCodes(of version: Version) -> [VersionCode] {
        Set(tracksRead.flatMap { $0.releases.filter { $0.version == version }.flatMap(\.versionCodes) }).sorted()
    }
}
