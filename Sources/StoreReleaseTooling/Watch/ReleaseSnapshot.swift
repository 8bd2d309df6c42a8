import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Both stores' whole state at one moment, as one JSON document.
///
/// It is what a watcher keeps between rounds and diffs against the next. `firstSeen` remembers when each storefront first served each version and when App Store
/// Connect first showed each version in each state, carried forward from the previous snapshot:
/// the propagation lag is measured from it, not guessed.
public struct ReleaseSnapshot: Sendable, Hashable, Codable {
    /// One storefront's live release.
    public struct Storefront: Sendable, Hashable, Codable, EveryKeyEncodable {
        /// The version it serves.
        public var version: Version?
        /// When that version was released (written ISO 8601).
        public var releaseDate: Date?

        /// Makes a storefront's state.
        public init(version: Version?, releaseDate: Date?) {
            self.version = version
            self.releaseDate = releaseDate
        }

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case version, releaseDate
        }
    }

    /// The App Store's storefronts.
    public struct AppStore: Sendable, Hashable, Codable {
        /// Each storefront's release (written by country code).
        public var storefronts: [StorefrontCountry: Storefront]

        /// The storefronts' releases.
        public init(storefronts: [StorefrontCountry: Storefront]) {
            self.storefronts = storefronts
        }

        /// Encodes the storefronts by code.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(
                Dictionary(uniqueKeysWithValues: storefronts.map { ($0.key.code, $0.value) }), forKey: .storefronts)
        }
    }

    /// One release of the Play track.
    public struct PlayRelease: Sendable, Hashable, Codable {
        /// Its highest versionCode.
        public var versionCode: VersionCode?
        /// Its name, as written in Play Console.
        public var name: String?
        /// The version its name carries.
        public var version: Version?
        /// `draft`, `inProgress`, `halted`, `completed`…
        public var status: PlayTrackRelease.Status
        /// The share of users a staged rollout reaches.
        public var userFraction: Double?
        /// The countries it is limited to.
        public var countries: [String]?
        /// Whether the rest of the world gets it too, beyond ``countries`` (written only when `true`).
        public var includeRestOfWorld: Bool
        /// Play's review state from the edit-free list (`RELEASE_LIFECYCLE_STATE_PUBLISHED`).
        public var lifecycle: PlayReleaseSummary.LifecycleState?

        /// Makes a release's state (a history line's: its versionCode, version, status and fraction).
        public init(
            versionCode: VersionCode?, name: String? = nil, version: Version?, status: PlayTrackRelease.Status,
            userFraction: Double?, countries: [String]? = nil, includeRestOfWorld: Bool = false,
            lifecycle: PlayReleaseSummary.LifecycleState? = nil
        ) {
            self.versionCode = versionCode
            self.name = name
            self.version = version
            self.status = status
            self.userFraction = userFraction
            self.countries = countries
            self.includeRestOfWorld = includeRestOfWorld
            self.lifecycle = lifecycle
        }

        /// The release as a track lists it: the inverse of ``init(_:lifecycle:)``, with the one
        /// versionCode recorded and, without a name (a history line keeps none), one naming the version
        /// as the watch labels it (`81 (8.0.10)`).
        var trackRelease: PlayTrackRelease {
            let named = version.map { version in versionCode.map { "\($0) (\(version))" } ?? version.description }
            return PlayTrackRelease(
                name: name ?? named, versionCodes: versionCode.map { [$0] } ?? [], status: status,
                userFraction: userFraction,
                countryTargeting: countries.map {
                    PlayTrackRelease.CountryTargeting(countries: $0, includeRestOfWorld: includeRestOfWorld)
                })
        }

        /// The state of a release of a track read; `lifecycle` its review state, when read.
        init(_ release: PlayTrackRelease, lifecycle: PlayReleaseSummary.LifecycleState? = nil) {
            self.init(
                versionCode: release.highestVersionCode, name: release.name, version: release.version,
                status: release.status, userFraction: release.userFraction,
                countries: release.countryTargeting?.countries,
                includeRestOfWorld: release.countryTargeting?.includeRestOfWorld ?? false, lifecycle: lifecycle)
        }

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case versionCode, name, version, status, userFraction, countries, lifecycle
        }

        /// Orders releases by their highest versionCode, as ``PlayTrack`` does.
        var sortKey: Int { versionCode?.rawValue ?? 0 }

        /// The key written only when the release reaches the rest of the world beyond its countries.
        enum WorldKeys: String, CodingKey {
            case includeRestOfWorld
        }

        /// Encodes every key, `null` for what is unknown; `includeRestOfWorld` only when `true`.
        public func encode(to encoder: any Encoder) throws {
            try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
            if includeRestOfWorld {
                var c = encoder.container(keyedBy: WorldKeys.self)
                try c.encode(true, forKey: .includeRestOfWorld)
            }
        }
    }

    /// The Play track.
    public struct GooglePlay: Sendable, Hashable, Codable {
        /// The track (`production`).
        public var track: String
        /// Its releases, highest versionCode first.
        public var releases: [PlayRelease]

        /// The track's releases.
        public init(track: String, releases: [PlayRelease]) {
            self.track = track
            self.releases = releases
        }

        /// The state of a track read: its releases, highest versionCode first, each with its review
        /// state when `reviewStates` lists it.
        init(_ track: PlayTrack, reviewStates: [PlayReleaseSummary] = []) {
            let lifecycle = Dictionary(
                reviewStates.flatMap { summary in summary.versionCodes.map { ($0, summary.lifecycleState) } },
                uniquingKeysWith: { first, _ in first })
            self.init(
                track: track.track,
                releases: track.releases.sorted {
                    ($0.highestVersionCode?.rawValue ?? 0) > ($1.highestVersionCode?.rawValue ?? 0)
                }
                .map { release in PlayRelease(release, lifecycle: release.highestVersionCode.flatMap { lifecycle[$0] })
                })
        }

        /// The track this records, each release as ``PlayRelease/trackRelease`` makes it.
        ///
        /// What the rollout gate judges when a history is replayed (``RolloutReplay``).
        var playTrack: PlayTrack {
            PlayTrack(track: track, releases: releases.map(\.trackRelease))
        }

        /// The release every user of the track gets: the `completed` one with the highest versionCode.
        var liveRelease: PlayRelease? {
            newest(.completed)
        }

        /// The release being rolled out to a fraction of users (`inProgress`), if any.
        var rollout: PlayRelease? {
            newest(.inProgress)
        }

        /// The releases whose rollout was stopped (`halted`), newest first: nobody new gets them.
        var haltedReleases: [PlayRelease] {
            releases.filter { $0.status == .halted }.sorted { $0.sortKey > $1.sortKey }
        }

        /// The newest release in `status`, as ``PlayTrack`` finds it: by highest versionCode.
        private func newest(_ status: PlayTrackRelease.Status) -> PlayRelease? {
            releases.filter { $0.status == status }.max { $0.sortKey < $1.sortKey }
        }
    }

    /// When each thing was first seen (written ISO 8601, by version text and code or state).
    public struct FirstSeen: Sendable, Hashable, Codable {
        /// Version → storefront → when the storefront first served it.
        public var appStore: [Version: [StorefrontCountry: Date]]
        /// Version → App Store Connect state → when it was first shown in it.
        public var appStoreConnect: [Version: [AppStoreVersion.State: Date]]

        /// Nothing seen yet.
        public init(
            appStore: [Version: [StorefrontCountry: Date]] = [:],
            appStoreConnect: [Version: [AppStoreVersion.State: Date]] = [:]
        ) {
            self.appStore = appStore
            self.appStoreConnect = appStoreConnect
        }

        /// When App Store Connect was first seen to show `version` live (``AppStoreVersion/State/isLive``).
        func liveSince(_ version: Version) -> Date? {
            (appStoreConnect[version] ?? [:]).filter(\.key.isLive).values.min()
        }

        /// Whether App Store Connect was seen showing `version` in another state no later than
        /// `live`: the watch saw the approval happen.
        func sawApproval(of version: Version, liveSince live: Date) -> Bool {
            (appStoreConnect[version] ?? [:]).contains { state, seen in !state.isLive && seen <= live }
        }

        /// Encodes versions, storefronts and states as text, each date ISO 8601.
        public func encode(to encoder: any Encoder) throws {
            func text<Place>(_ seen: [Version: [Place: Date]], _ name: (Place) -> String) -> [String: [String: String]]
            {
                Dictionary(
                    uniqueKeysWithValues: seen.map { version, byPlace in
                        (
                            version.description,
                            Dictionary(
                                uniqueKeysWithValues: byPlace.map {
                                    (name($0.key), ISO8601Timestamp.string(from: $0.value))
                                })
                        )
                    })
            }
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text(appStore, \.code), forKey: .appStore)
            try c.encode(text(appStoreConnect, \.rawValue), forKey: .appStoreConnect)
        }
    }

    /// Which app the snapshot is of, as far as the stores named it.
    ///
    /// A watcher refuses a state file whose app is another one (``conflict(with:)``).
    public struct App: Sendable, Hashable, Codable, EveryKeyEncodable {
        /// The App Store id (`414478124`).
        public var appStoreID: String?
        /// The App Store bundle id (`com.tencent.xin`).
        public var bundleID: String?
        /// The Play package name.
        public var packageName: String?

        /// Names the app.
        public init(appStoreID: String? = nil, bundleID: String? = nil, packageName: String? = nil) {
            self.appStoreID = appStoreID
            self.bundleID = bundleID
            self.packageName = packageName
        }

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case appStoreID, bundleID, packageName
        }
    }

    /// When the snapshot was taken, to the second (written ISO 8601).
    public var takenAt: Date
    /// The app, as the stores named it; `nil` in a snapshot written before it was recorded.
    public var app: App?
    /// The App Store's storefronts, when read.
    public var appStore: AppStore?
    /// The Play track, when read.
    public var googlePlay: GooglePlay?
    /// App Store Connect's status, when read (as `storerelease status` prints it).
    public var appStoreConnect: AppStoreConnectStatus?
    /// When each version was first seen.
    public var firstSeen: FirstSeen
    /// Play's App Recovery actions for the track's versionCodes, when read.
    ///
    /// A live Play source reads them; written `playRecoveryActions` only then.
    public var playRecoveryActions: [PlayRecoveryAction]?
    /// Each store's health, when health sources were read (written `health` only then).
    public var health: Health?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case takenAt, app, appStore, googlePlay, appStoreConnect, firstSeen
    }

    /// The keys written only when their value is read.
    enum ReadKeys: String, CodingKey {
        case playRecoveryActions, health
    }

    /// How many versions no store shows any more `firstSeen` keeps, newest first.
    ///
    /// Enough to measure the releases before; few enough that a state file watched for years
    /// stays small.
    public static let retiredVersionsKept = 10

    /// Encodes every key, `null` for a store not read; the keys of what was read only then.
    ///
    /// `playRecoveryActions` and `health`.
    public func encode(to encoder: any Encoder) throws {
        try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
        var c = encoder.container(keyedBy: ReadKeys.self)
        try c.encodeIfPresent(playRecoveryActions, forKey: .playRecoveryActions)
        try c.encodeIfPresent(health, forKey: .health)
    }

    /// A snapshot of a reading of the stores (``StoreSources/read(_:)``) taken at `takenAt`.
    ///
    /// `firstSeen` is carried forward from `previous` and extended by what is new now; of the
    /// versions no store shows any more it keeps the ``retiredVersionsKept`` newest. The time is
    /// kept to the second, as it is written.
    public init(_ reading: StoreReading, takenAt: Date, previous: ReleaseSnapshot? = nil) {
        let now = Date(timeIntervalSince1970: takenAt.timeIntervalSince1970.rounded(.down))
        self.takenAt = now
        let releases = reading.appStore?.releases
        let status = reading.appStoreConnect?.status
        app = App(
            appStoreID: releases?.lazy.compactMap(\.appID).first ?? status?.appID,
            bundleID: releases?.lazy.compactMap(\.bundleID).first, packageName: reading.googlePlay?.packageName)
        appStore = releases.map { releases in
            AppStore(
                storefronts: Dictionary(
                    releases.map { release in
                        (
                            release.country ?? .unitedStates,
                            Storefront(version: release.version, releaseDate: release.releaseDate)
                        )
                    }, uniquingKeysWith: { first, _ in first }))
        }
        googlePlay = reading.googlePlay.map { GooglePlay($0.track, reviewStates: $0.reviewStates) }
        appStoreConnect = status
        playRecoveryActions = reading.googlePlay?.recoveryActions
        health = reading.health.map(Health.init)
        var seen = previous?.firstSeen ?? FirstSeen()
        for (country, storefront) in appStore?.storefronts ?? [:] {
            guard let version = storefront.version, seen.appStore[version]?[country] == nil else { continue }
            seen.appStore[version, default: [:]][country] = now
        }
        let connectVersions = status?.versionStates ?? []
        for (version, state) in connectVersions where seen.appStoreConnect[version]?[state] == nil {
            seen.appStoreConnect[version, default: [:]][state] = now
        }
        let shown = Set((appStore?.storefronts.values.compactMap(\.version) ?? []) + connectVersions.map(\.0))
        firstSeen = FirstSeen(
            appStore: Self.pruned(seen.appStore, keeping: shown),
            appStoreConnect: Self.pruned(seen.appStoreConnect, keeping: shown))
    }

    /// A snapshot of what the stores showed at `takenAt`.
    ///
    /// The same as the snapshot of a reading of them
    /// (``init(_:takenAt:previous:)``).
    ///
    /// - Parameters:
    ///   - takenAt: When the stores were read.
    ///   - releases: The storefronts' releases, if the App Store was read.
    ///   - track: The Play track, if read.
    ///   - summaries: The track's edit-free list, which gives each release's review state.
    ///   - status: App Store Connect's status, if read.
    ///   - packageName: The Play package, when the track was read live.
    ///   - previous: The snapshot before, whose `firstSeen` is kept.
    public init(
        takenAt: Date, releases: [StoreRelease]?, track: PlayTrack?, summaries: [PlayReleaseSummary] = [],
        status: AppStoreConnectStatus?, packageName: String? = nil, previous: ReleaseSnapshot? = nil
    ) {
        self.init(
            StoreReading(
                appStore: releases.map { StoreReading.AppStore(releases: $0) },
                googlePlay: track.map {
                    StoreReading.GooglePlay(track: $0, packageName: packageName, reviewStates: summaries)
                },
                appStoreConnect: status.map { StoreReading.AppStoreConnect(status: $0) }),
            takenAt: takenAt, previous: previous)
    }

    /// `seen` without the versions neither shown now nor among the newest retired ones.
    static func pruned<Place>(_ seen: [Version: Place], keeping shown: Set<Version>) -> [Version: Place] {
        let retired = seen.keys.filter { !shown.contains($0) }
        guard retired.count > retiredVersionsKept else { return seen }
        let kept = Set(retired.sorted(by: >).prefix(retiredVersionsKept))
        return seen.filter { shown.contains($0.key) || kept.contains($0.key) }
    }

    /// What makes `other` a snapshot of another app or track, or `nil` when nothing differs.
    ///
    /// Said in a few words; only what both snapshots name is compared.
    ///
    /// A watcher diffs only snapshots of one app: a state file of another would report every
    /// version as changed.
    ///
    /// A Play track read from a file (`--play-track`) carries no package name: when `other`
    /// names a package and this snapshot's track names none, that is a conflict too, since the
    /// file may be another app's track (the package must then be given beside the file).
    public func conflict(with other: ReleaseSnapshot) -> String? {
        if googlePlay != nil, app?.packageName == nil, let package = other.app?.packageName, other.googlePlay != nil {
            return "its package is \(package.debugDescription), and the Play track read now names no package "
                + "(\(FailureHint.packageBesideStoredTrack(package).words))"
        }
        let pairs: [(String, String?, String?)] = [
            ("App Store id", app?.appStoreID, other.app?.appStoreID),
            ("bundle id", app?.bundleID, other.app?.bundleID),
            ("package", app?.packageName, other.app?.packageName),
            ("Play track", googlePlay?.track, other.googlePlay?.track),
        ]
        for case (let what, let mine?, let theirs?) in pairs where mine != theirs {
            return "its \(what) is \(theirs.debugDescription), not \(mine.debugDescription)"
        }
        return nil
    }
}

extension ReleaseSnapshot {
    /// Reads the stores from their sources (each optional) and takes the snapshot.
    ///
    /// One ``StoreSources/read(_:)`` with ``StoreReading/Extras/reviewStates`` and
    /// ``StoreReading/Extras/recoveryActions``: a live Play source is read three ways, the track
    /// through an edit (status, fraction, countries), the edit-free list (each release's review
    /// state) and App Recovery's actions for the track's versionCodes. With `health`, each
    /// store's health is recorded (``health``): of its ``HealthSources/version`` when it names
    /// one, else of the version being released (``StoreReading/newestReleasing``, a staged
    /// rollout included), the version `watch --halt-on` halts, whatever `health`'s
    /// ``HealthSources/candidate`` says.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed.
    public static func take(
        appStore: AppStoreSource?, play: PlaySource?, appStoreConnect: AppStoreConnectSource?,
        health: HealthSources? = nil, now: Date = Date(), previous: ReleaseSnapshot? = nil
    ) async throws(ReleaseSourceError) -> ReleaseSnapshot {
        try await take(
            StoreSources(appStore: appStore, play: play, appStoreConnect: appStoreConnect, health: health), now: now,
            previous: previous)
    }

    /// Reads the stores from `sources` and takes the snapshot.
    ///
    /// As ``take(appStore:play:appStoreConnect:health:now:previous:)`` does.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed.
    public static func take(
        _ sources: StoreSources, now: Date = Date(), previous: ReleaseSnapshot? = nil
    ) async throws(ReleaseSourceError) -> ReleaseSnapshot {
        ReleaseSnapshot(try await releasing(sources).read(extras), takenAt: now, previous: previous)
    }

    /// What a snapshot reads besides the stores' releases: review states and App Recovery's actions.
    static let extras: StoreReading.Extras = [.reviewStates, .recoveryActions]

    /// The sources a snapshot reads, its health judging the version being released.
    static func releasing(_ sources: StoreSources) -> StoreSources {
        var sources = sources
        sources.health?.candidate = .newestReleasing
        return sources
    }
}
