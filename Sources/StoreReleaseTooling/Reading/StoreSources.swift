import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// The three stores' sources, each optional, read together by ``read(_:)``.
///
/// The App Store, Google Play and App Store Connect.
///
/// ```swift
/// let sources = StoreSources(appStore: appStore, play: android)
/// let reading = try await sources.read()
/// print(reading.appStore?.releases.count ?? 0, reading.googlePlay?.track.liveRelease?.version ?? "none")
/// ```
public struct StoreSources: Sendable {
    /// The App Store's storefronts, if read.
    public var appStore: AppStoreSource?
    /// The Play track, if read.
    public var play: PlaySource?
    /// App Store Connect, if asked (about the app the App Store source names).
    public var appStoreConnect: AppStoreConnectSource?
    /// Where each store's health comes from, if it is judged.
    public var health: HealthSources?

    /// The sources; give at least one.
    public init(
        appStore: AppStoreSource? = nil, play: PlaySource? = nil, appStoreConnect: AppStoreConnectSource? = nil,
        health: HealthSources? = nil
    ) {
        self.appStore = appStore
        self.play = play
        self.appStoreConnect = appStoreConnect
        self.health = health
    }

    /// Reads every store given, each once, in one order.
    ///
    /// 1. Where App Store Connect says the app is sold, first, when a live App Store source's
    ///    storefronts are those (`sold`) or a sweep is classified (``StoreReading/Extras/whereSold``).
    /// 2. The App Store's storefronts.
    /// 3. App Store Connect, about the app it names (``AppStoreConnectSource/app``), else the one
    ///    the App Store source names (for stored releases, the App Store id of the first that has
    ///    one): where the app is sold, if step 1 could not ask, then the app's status. Naming no
    ///    app and without an App Store source, it is not asked.
    /// 4. The Play track (with every track of the app listed in the same edit,
    ///    ``StoreReading/Extras/everyTrack``), then its edit-free list (``StoreReading/Extras/reviewStates``), then
    ///    where it is available (``StoreReading/Extras/whereSold`` in a sweep), then the App
    ///    Recovery actions for its versionCodes (``StoreReading/Extras/recoveryActions``).
    /// 5. With ``health``, each store's health for its ``HealthSources/version``, else for its
    ///    ``HealthSources/candidate`` (the version a forced update would require,
    ///    ``StoreReading/forceTarget``, unless told): the Play package
    ///    the Play source names, the App Store id the storefronts or App Store Connect name. With
    ///    no version to judge, each store is `unknown`.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed (``ReleaseSourceError/availabilityNeeded``
    ///   for `sold` storefronts without App Store Connect).
    public func read(_ extras: StoreReading.Extras = []) async throws(ReleaseSourceError) -> StoreReading {
        var reading = StoreReading()
        let isSweep = appStore?.isSweep ?? false
        let wantsSold = appStore.map { $0.needsAvailability || (isSweep && extras.contains(.whereSold)) } ?? false
        if appStore?.needsAvailability == true, appStoreConnect == nil { throw .availabilityNeeded }
        var availability: AppStoreAvailability?
        if wantsSold, let appStoreConnect, case .live(let app, _, _)? = appStore {
            availability = try await appStoreConnect.availability(of: app)
        }
        let releases = try await appStore?.releases(availability: availability)
        var app = appStoreConnect?.app
        if app == nil, appStoreConnect != nil, let appStore { app = try appStore.connectApp(releases: releases ?? []) }
        if let appStoreConnect, let app {
            if wantsSold, availability == nil { availability = try await appStoreConnect.availability(of: app) }
            let (status, versions) = try await appStoreConnect.versions(of: app)
            reading.appStoreConnect = StoreReading.AppStoreConnect(
                status: status, availability: availability, versions: versions)
        }
        if let appStore, let releases {
            reading.appStore = StoreReading.AppStore(
                releases: releases, expected: try appStore.expected(availability: availability),
                whereSoldUnknown: appStore.coversEveryStorefront && availability == nil)
        }
        if let play {
            let (track, tracks) =
                extras.contains(.everyTrack) ? try await play.everyTrack() : (try await play.track(), nil)
            reading.googlePlay = StoreReading.GooglePlay(
                track: track, packageName: play.packageName,
                reviewStates: extras.contains(.reviewStates) ? try await play.reviewStates() : [],
                availability: isSweep && extras.contains(.whereSold) ? try await play.availability() : nil,
                recoveryActions: extras.contains(.recoveryActions)
                    ? try await play.recoveryActions(versionCodes: track.releases.flatMap(\.versionCodes)) : nil,
                tracks: tracks)
        }
        if let health {
            let candidate = health.candidate == .forceTarget ? reading.forceTarget : reading.newestReleasing
            if let version = health.version ?? candidate.map(VersionOrCode.init) {
                let appID =
                    reading.appStore?.releases.lazy.compactMap(\.appID).first ?? reading.appStoreConnect?.status.appID
                reading.health = try await health.judge(version, packageName: play?.packageName, appID: appID)
                if health.candidate == .newestReleasing, let report = reading.health, let judged = report.googlePlay,
                    let unnamed = reading.googlePlay?.releasingWithoutVersion
                {
                    // The version being released on Play cannot be named: judging the one before
                    // it would call a regression healthy. Said, never passed.
                    reading.health = ReleaseHealthReport(
                        appStore: report.appStore,
                        googlePlay: .unreadable(
                            store: .googlePlay, source: judged.source,
                            reason: "Play's newest release with users, \(unnamed.label) (\(unnamed.status)), carries "
                                + "no version in its name\(unnamed.name.map { " (\"\($0)\")" } ?? ""): which version "
                                + "it is, and so its health, is not known; name it as Play Console does (81 (8.0.10))"),
                        version: report.version)
                }
            } else {
                reading.health = health.unjudged(reason: "no version to judge: neither store serves one to everyone")
            }
        }
        return reading
    }
}
