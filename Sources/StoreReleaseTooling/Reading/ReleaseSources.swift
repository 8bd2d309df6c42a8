import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Where the App Store's storefront releases come from.
///
/// Lookups stored earlier, or the lookup API asked now:
///
/// ```swift
/// let cn = try StorefrontCountry("cn")
/// let appStore = AppStoreSource.live(.id(414478124), storefronts: .listed([cn]), client: client)
/// let android = PlaySource.live(packageName: "com.example.app", track: "production", client: play)
/// let report = try await CrossStoreReport.gather(appStore: appStore, play: android)
/// print(report.agree ? "the stores agree" : "lagging: \(report.laggingStorefronts)")
/// ```
public enum AppStoreSource: Sendable {
    /// Releases read earlier (``StoredLookup/releases(in:)``), one a storefront.
    ///
    /// `expected` names the storefronts they were meant to cover (a sweep's parts): one no part
    /// covered is `missing`.
    case stored([StoreRelease], expected: StorefrontSelection? = nil)
    /// The app, looked up now in each storefront of the selection.
    ///
    /// Batched, under the client's rate limit.
    case live(AppStoreApp, storefronts: StorefrontSelection, client: AppStoreLookupClient)

    /// The releases: the stored ones, or those looked up now.
    ///
    /// One for each storefront of the selection that has the app (where the selection is `sold`,
    /// the storefronts `availability` says the app is sold in).
    ///
    /// - Throws: ``ReleaseSourceError/appStore(_:)`` when a lookup fails.
    public func releases(availability: AppStoreAvailability? = nil) async throws(ReleaseSourceError) -> [StoreRelease] {
        switch self {
        case .stored(let releases, _):
            return releases
        case .live(let app, let storefronts, let client):
            let countries = try storefronts.countries(availability: availability)
            do throws(HTTPClientError) {
                return try await client.sweep(app, in: countries)
            } catch {
                throw .appStore(error)
            }
        }
    }

    /// The storefronts the source should answer in, if it says.
    public func expected(availability: AppStoreAvailability?) throws(ReleaseSourceError) -> [StorefrontCountry] {
        switch self {
        case .stored(_, let expected): return try expected?.countries(availability: availability) ?? []
        case .live(_, let storefronts, _): return try storefronts.countries(availability: availability)
        }
    }

    /// Whether the source sweeps storefronts (`all` or `sold`).
    ///
    /// Then where the app is sold (App Store Connect) and where Play serves the track are read
    /// too, and every country classified against them. An explicit list is taken as the
    /// storefronts wanted, nothing more.
    public var isSweep: Bool {
        switch self {
        case .stored(_, let expected): return expected == .all || expected == .sold
        case .live(_, let storefronts, _): return storefronts == .all || storefronts == .sold
        }
    }

    /// Whether the storefronts are every one of the catalogue (`all`).
    ///
    /// Whether or not the app is sold there.
    public var coversEveryStorefront: Bool {
        switch self {
        case .stored(_, let expected): return expected == .all
        case .live(_, let storefronts, _): return storefronts == .all
        }
    }

    /// Whether the storefronts are `sold`: App Store Connect's availability must be read first.
    public var needsAvailability: Bool {
        switch self {
        case .stored(_, let expected): return expected == .sold
        case .live(_, let storefronts, _): return storefronts == .sold
        }
    }

    /// The app App Store Connect is asked about.
    ///
    /// The one looked up, or the App Store id of the first stored release that has one.
    public func connectApp(releases: [StoreRelease]) throws(ReleaseSourceError) -> AppStoreApp {
        switch self {
        case .live(let app, _, _):
            return app
        case .stored:
            guard let id = releases.lazy.compactMap({ $0.appID.flatMap(Int.init) }).first else {
                throw .noAppStoreID
            }
            return .id(id)
        }
    }
}

extension StorefrontSelection {
    /// One part of a sweep: every app asked for in part `part` of `parts` of the storefronts.
    ///
    /// The parts are ``shard(_:part:of:)``'s. Every storefront of the part is asked for every
    /// app (for `sold`, for every app App Store Connect says is sold there), ids 200 a request;
    /// a storefront without a result for an app is a ``StorefrontLookup/Missing`` pair. A part
    /// with no storefront in it (an app sold in six storefronts, a part of twenty) asks nothing
    /// and finds nothing, complete; ``CrossStoreReport/gather(appStore:play:appStoreConnect:health:releaseDelayHours:now:)``
    /// over the merged parts says which storefronts are missing.
    ///
    /// `progress` hears of the part's storefronts before the first and after each one.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed (`sold` without App Store
    ///   Connect: ``ReleaseSourceError/availabilityNeeded``).
    public func lookup(
        _ apps: [AppStoreApp], part: Int = 1, of parts: Int = 1, client: AppStoreLookupClient,
        entity: AppStoreEntity? = nil, appStoreConnect: AppStoreConnectSource? = nil,
        progress: (@Sendable (StorefrontSweepProgress) -> Void)? = nil
    ) async throws(ReleaseSourceError) -> StorefrontLookup {
        var plan: [StorefrontCountry: [AppStoreApp]] = [:]
        if self == .sold {
            guard let appStoreConnect else { throw .availabilityNeeded }
            for app in apps {
                for country in try await appStoreConnect.availability(of: app).available {
                    plan[country, default: []].append(app)
                }
            }
        } else {
            for country in try countries(availability: nil) { plan[country] = apps }
        }
        var found: [StoreRelease] = []
        var missing: [StorefrontLookup.Missing] = []
        let countries = Self.shard(Array(plan.keys), part: part, of: parts)
        progress?(StorefrontSweepProgress(done: 0, total: countries.count))
        for (index, country) in countries.enumerated() {
            do throws(HTTPClientError) {
                let result = try await client.lookup(plan[country] ?? apps, in: [country], entity: entity)
                found += result.found
                missing += result.missing
            } catch {
                throw .appStore(error)
            }
            progress?(StorefrontSweepProgress(done: index + 1, total: countries.count))
        }
        return StorefrontLookup(found: found, missing: missing)
    }
}

/// Which storefronts a sweep covers.
///
/// A list, every storefront of the catalogue, or those App Store Connect says the app is sold in.
public enum StorefrontSelection: Sendable, Hashable {
    /// These storefronts.
    case listed([StorefrontCountry])
    /// Every App Store storefront (``AppStoreStorefront/all``).
    case all
    /// The storefronts where App Store Connect's availability says the app is sold.
    case sold

    /// The storefronts, in the order of the list (each once) or by code.
    ///
    /// - Throws: ``ReleaseSourceError/availabilityNeeded`` for `sold` without an availability.
    public func countries(availability: AppStoreAvailability?) throws(ReleaseSourceError) -> [StorefrontCountry] {
        switch self {
        case .listed(let countries): return StorefrontCountry.unique(countries)
        case .all: return AppStoreStorefront.all.map(\.country)
        case .sold:
            guard let availability else { throw .availabilityNeeded }
            return availability.available
        }
    }

    /// Part `part` of `parts` (1 ≤ part ≤ parts) of the storefronts.
    ///
    /// Every storefront is in exactly one part, the same parts on every machine (round robin
    /// over the storefronts in code order).
    public static func shard(_ countries: [StorefrontCountry], part: Int, of parts: Int) -> [StorefrontCountry] {
        countries.sorted { $0.code < $1.code }.enumerated().filter { $0.offset % parts == part - 1 }.map(\.element)
    }
}

/// Where the Play track comes from.
///
/// One stored earlier (as `storerelease tracks` prints it), or the Play Developer API read now
/// (through an edit that is always deleted).
public enum PlaySource: Sendable {
    /// A track read earlier (``PlayTrack/decodeTracks(from:)``), and the app's package if known.
    ///
    /// A stored track does not carry its package; a snapshot records the one given here.
    case stored(PlayTrack, packageName: String? = nil)
    /// The app's track, read now.
    case live(packageName: String, track: String, client: PlayDeveloperAPIClient)

    /// The track.
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func track() async throws(ReleaseSourceError) -> PlayTrack {
        switch self {
        case .stored(let track, _):
            return track
        case .live(let packageName, let track, let client):
            do throws(HTTPClientError) {
                return try await client.track(track, packageName: packageName)
            } catch {
                throw .play(error)
            }
        }
    }
}

extension PlaySource {
    /// The track, and every track of the app listed in the same edit.
    ///
    /// For a stored track, the track alone (`nil` for the list). A live source opens one edit, lists its tracks and takes the one it names; a track the
    /// list lacks is read as ``track()`` reads it (an empty track, or the error naming the
    /// tracks the app has).
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func everyTrack() async throws(ReleaseSourceError) -> (track: PlayTrack, tracks: [PlayTrack]?) {
        let listed = try await listedTracks()
        guard let tracks = listed.tracks, !tracks.contains(where: { $0.track == listed.track.track }) else {
            return listed
        }
        return (try await track(), tracks)
    }

    /// Every track of the app listed in one edit, and the one the source names among them.
    ///
    /// As ``everyTrack()``, but a track the list lacks is an empty track of its name, read no
    /// further: what a plan to act is made from (it notes the version is not on that track).
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func listedTracks() async throws(ReleaseSourceError) -> (track: PlayTrack, tracks: [PlayTrack]?) {
        guard case .live(let packageName, let name, let client) = self else { return (try await track(), nil) }
        do throws(HTTPClientError) {
            let tracks = try await client.tracks(packageName: packageName)
            return (tracks.first { $0.track == name } ?? PlayTrack(track: name, releases: []), tracks)
        } catch {
            throw .play(error)
        }
    }

    /// Where the track is available, read now for a live source; `nil` for a stored track.
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func availability() async throws(ReleaseSourceError) -> PlayCountryAvailability? {
        guard case .live(let packageName, let track, let client) = self else { return nil }
        do throws(HTTPClientError) {
            return try await client.countryAvailability(track: track, packageName: packageName)
        } catch {
            throw .play(error)
        }
    }

    /// The track's edit-free list (each release's review state); empty for a stored track.
    ///
    /// A live source reads it now.
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func reviewStates() async throws(ReleaseSourceError) -> [PlayReleaseSummary] {
        guard case .live(let packageName, let track, let client) = self else { return [] }
        do throws(HTTPClientError) {
            return try await client.releases(packageName: packageName, track: track)
        } catch {
            throw .play(error)
        }
    }

    /// The App Recovery actions that target `versionCodes`; `nil` for a stored track.
    ///
    /// A live source reads them now. App Recovery lists the actions of one versionCode a request
    /// (`GET …/appRecoveries?versionCode=N`): every versionCode is asked, lowest first, and an
    /// action that targets several is listed once, where first seen. A read of the stores asks
    /// those of the track's releases; a recall those of the version's, on every track.
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func recoveryActions(versionCodes: [VersionCode]) async throws(ReleaseSourceError) -> [PlayRecoveryAction]? {
        guard case .live(let packageName, _, let client) = self else { return nil }
        do throws(HTTPClientError) {
            return try await client.recoveryActions(packageName: packageName, versionCodes: versionCodes)
        } catch {
            throw .play(error)
        }
    }

    /// The app's package: the one read, or the one given beside a stored track.
    public var packageName: String? {
        switch self {
        case .live(let packageName, _, _): packageName
        case .stored(_, let packageName): packageName
        }
    }
}

/// App Store Connect, asked about one platform of the app.
public struct AppStoreConnectSource: Sendable {
    /// The client, with its credentials.
    public var client: AppStoreConnectClient
    /// The platform whose versions count (`IOS` unless told).
    public var platform: AppStoreConnectPlatform
    /// The app asked about, when the source names it (as ``ReleaseActor``'s does).
    ///
    /// `nil`: the app the App Store source names (``StoreSources/read(_:)``).
    public var app: AppStoreApp?

    /// Makes the source.
    public init(client: AppStoreConnectClient, platform: AppStoreConnectPlatform = .iOS, app: AppStoreApp? = nil) {
        self.client = client
        self.platform = platform
        self.app = app
    }

    /// Where the app is sold.
    ///
    /// - Throws: ``ReleaseSourceError/appStoreConnect(_:)`` when the API refuses or fails.
    public func availability(of app: AppStoreApp) async throws(ReleaseSourceError) -> AppStoreAvailability {
        do throws(HTTPClientError) {
            return try await client.availability(of: app)
        } catch {
            throw .appStoreConnect(error)
        }
    }

    /// The app's status on the platform.
    ///
    /// - Throws: ``ReleaseSourceError/appStoreConnect(_:)`` when the API refuses or fails.
    public func status(of app: AppStoreApp) async throws(ReleaseSourceError) -> AppStoreConnectStatus {
        try await versions(of: app).status
    }

    /// The app's versions on the platform, with their phased releases, and its status made from them.
    ///
    /// The same requests as ``status(of:)``: the app's id (asked for a bundle id), then its versions.
    ///
    /// - Throws: ``ReleaseSourceError/appStoreConnect(_:)`` when the API refuses or fails.
    public func versions(of app: AppStoreApp) async throws(ReleaseSourceError)
        -> (status: AppStoreConnectStatus, versions: [AppStoreVersion])
    {
        do throws(HTTPClientError) {
            let appID = try await client.appID(of: app)
            let versions = try await client.versions(appID: appID, platform: platform)
            return (AppStoreConnectStatus(appID: appID, versions: versions), versions)
        } catch {
            throw .appStoreConnect(error)
        }
    }
}

/// Why the stores' state could not be read from its sources.
public enum ReleaseSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A lookup failed.
    case appStore(HTTPClientError)
    /// The Play Developer API refused or failed.
    case play(HTTPClientError)
    /// App Store Connect refused or failed.
    case appStoreConnect(HTTPClientError)
    /// The stored lookups carry no App Store id to ask App Store Connect about.
    case noAppStoreID
    /// The stores' state makes no manifest.
    case manifest(ManifestGeneratorError)
    /// The storefronts are those the app is sold in, but App Store Connect was not asked.
    case availabilityNeeded
    /// A health source refused the request as bad input (a package name it cannot take).
    ///
    /// Every other failure of a health source is an `unknown` verdict, not an error.
    case health(HTTPClientError)

    /// The underlying failure's sentence.
    public var description: String {
        switch self {
        case .appStore(let error): return error.description
        case .play(let error): return error.description
        case .appStoreConnect(let error): return error.description
        case .health(let error): return error.description
        case .noAppStoreID: return "the stored lookups have no App Store id to ask App Store Connect about"
        case .manifest(let problem): return problem.description
        case .availabilityNeeded:
            return "the storefronts the app is sold in come from App Store Connect: give its credentials"
        }
    }
}

extension CrossStoreReport {
    /// Reads both stores (and App Store Connect, when given) from their sources and reports.
    ///
    /// One ``StoreSources/read(_:)`` with ``StoreReading/Extras/whereSold``: in a sweep (`all`
    /// or `sold` storefronts), with App Store Connect, each country is classified against where
    /// the app is sold, and with a live Play source against where the track is available. With
    /// `health`, the report adds each store's health and forcing waits for it. A live Play
    /// source is also asked for its App Recovery actions (``StoreReading/Extras/recoveryActions``).
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed.
    public static func gather(
        appStore: AppStoreSource, play: PlaySource, appStoreConnect: AppStoreConnectSource? = nil,
        health: HealthSources? = nil, releaseDelayHours: Double = 24, now: Date = Date()
    ) async throws(ReleaseSourceError) -> CrossStoreReport {
        let reading = try await StoreSources(
            appStore: appStore, play: play, appStoreConnect: appStoreConnect, health: health
        ).read([.whereSold, .recoveryActions])
        return CrossStoreReport(
            appStore: reading.appStore ?? StoreReading.AppStore(releases: []),
            play: reading.googlePlay ?? StoreReading.GooglePlay(track: PlayTrack(track: "", releases: [])),
            appStoreConnect: reading.appStoreConnect, health: reading.health, releaseDelayHours: releaseDelayHours,
            now: now)
    }
}

extension ManifestGenerator {
    /// The App Store manifest from its source: one storefront's release, or a sweep's.
    ///
    /// App Store Connect's status joins it when given (and, for `sold` storefronts, says where
    /// the app is sold); see ``appStore(storefronts:appStoreConnect:minimumSupported:)``.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed, or
    ///   ``ReleaseSourceError/manifest(_:)`` when a stored source has not exactly one release.
    public func appStore(
        from source: AppStoreSource, appStoreConnect: AppStoreConnectSource? = nil, minimumSupported: Version? = nil
    ) async throws(ReleaseSourceError) -> Result {
        let reading = try await StoreSources(appStore: source, appStoreConnect: appStoreConnect).read()
        let releases = reading.appStore?.releases ?? []
        if case .stored = source, releases.count != 1 { throw .manifest(.notOneStorefront(releases.count)) }
        do throws(ManifestGeneratorError) {
            return try appStore(
                storefronts: releases, appStoreConnect: reading.appStoreConnect?.status,
                minimumSupported: minimumSupported)
        } catch {
            throw .manifest(error)
        }
    }

    /// The Google Play manifest from a track read from its source.
    ///
    /// - Throws: ``ReleaseSourceError`` naming what failed.
    public func googlePlay(from source: PlaySource, packageName: String?, minimumSupported: Version? = nil)
        async throws(ReleaseSourceError) -> Result
    {
        let track = try await source.track()
        do throws(ManifestGeneratorError) {
            return try googlePlay(track, packageName: packageName, minimumSupported: minimumSupported)
        } catch {
            throw .manifest(error)
        }
    }
}
