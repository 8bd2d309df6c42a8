import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Where the App Store's storefront releases come from.
///
/// Lookups stored earlier, or the lookup API asked now:
///
/// ```swift
/// let appStore = AppStoreSource.live(.id(414478124), storefronts: [try StorefrontCountry("cn")], client: client)
/// let android = PlaySource.live(packageName: "com.example.app", track: "production", client: play)
/// let report = try await CrossStoreReport.gather(appStore: appStore, play: android)
/// print(report.agree ? "the stores agree" : "lagging: \(report.laggingStorefronts)")
/// ```
public enum AppStoreSource: Sendable {
    /// Releases read earlier (``StoredLookup/releases(in:)``), one a storefront.
    case stored([StoreRelease])
    /// The app, looked up now in each storefront (batched, under the client's rate limit).
    case live(AppStoreApp, storefronts: [StorefrontCountry], client: AppStoreLookupClient)

    /// The releases: the stored ones, or one a storefront looked up now.
    ///
    /// - Throws: ``ReleaseSourceError/appStore(_:)`` when a lookup fails.
    public func releases() async throws(ReleaseSourceError) -> [StoreRelease] {
        switch self {
        case .stored(let releases):
            return releases
        case .live(let app, let storefronts, let client):
            do throws(AppStoreLookupError) {
                return try await client.lookup(app, in: storefronts)
            } catch {
                throw .appStore(error)
            }
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

/// Where the Play track comes from.
///
/// One stored earlier (as `storerelease tracks` prints it), or the Play Developer API read now
/// (through an edit that is always deleted).
public enum PlaySource: Sendable {
    /// A track read earlier (``PlayTrack/decodeTracks(from:)``).
    case stored(PlayTrack)
    /// The app's track, read now.
    case live(packageName: String, track: String, client: PlayDeveloperAPIClient)

    /// The track.
    ///
    /// - Throws: ``ReleaseSourceError/play(_:)`` when the API refuses or fails.
    public func track() async throws(ReleaseSourceError) -> PlayTrack {
        switch self {
        case .stored(let track):
            return track
        case .live(let packageName, let track, let client):
            do throws(PlayDeveloperAPIError) {
                return try await client.track(track, packageName: packageName)
            } catch {
                throw .play(error)
            }
        }
    }
}

/// App Store Connect, asked about one platform of the app.
public struct AppStoreConnectSource: Sendable {
    /// The client, with its credentials.
    public var client: AppStoreConnectClient
    /// The platform whose versions count (`IOS` unless told).
    public var platform: AppStoreConnectPlatform

    /// Makes the source.
    public init(client: AppStoreConnectClient, platform: AppStoreConnectPlatform = .iOS) {
        self.client = client
        self.platform = platform
    }

    /// The app's status on the platform.
    ///
    /// - Throws: ``ReleaseSourceError/appStoreConnect(_:)`` when the API refuses or fails.
    public func status(of app: AppStoreApp) async throws(ReleaseSourceError) -> AppStoreConnectStatus {
        do throws(AppStoreConnectError) {
            return try await client.status(of: app, platform: platform)
        } catch {
            throw .appStoreConnect(error)
        }
    }
}

/// Why the stores' state could not be read from its sources.
public enum ReleaseSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A lookup failed.
    case appStore(AppStoreLookupError)
    /// The Play Developer API refused or failed.
    case play(PlayDeveloperAPIError)
    /// App Store Connect refused or failed.
    case appStoreConnect(AppStoreConnectError)
    /// The stored lookups carry no App Store id to ask App Store Connect about.
    case noAppStoreID
    /// The stores' state makes no manifest.
    case manifest(ManifestGenerator.Problem)

    /// The underlying failure's sentence.
    public var description: String {
        switch self {
        case .appStore(let error): return error.description
        case .play(let error): return error.description
        case .appStoreConnect(let error): return error.description
        case .noAppStoreID: return "the stored lookups have no App Store id to ask App Store Connect about"
        case .manifest(let problem): return problem.description
        }
    }
}

extension CrossStoreReport {
    /// Reads both stores (and App Store Connect, when given) from their sources and reports.
    ///
    /// The App Store is read first, then Play, then App Store Connect about the app the App
    /// Store source names.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed.
    public static func gather(
        appStore: AppStoreSource, play: PlaySource, appStoreConnect: AppStoreConnectSource? = nil,
        releaseDelayHours: Double = 24, now: Date = Date()
    ) async throws(ReleaseSourceError) -> CrossStoreReport {
        let releases = try await appStore.releases()
        let track = try await play.track()
        var status: AppStoreConnectStatus?
        if let appStoreConnect {
            status = try await appStoreConnect.status(of: try appStore.connectApp(releases: releases))
        }
        return CrossStoreReport(
            appStore: releases, play: track, appStoreConnect: status, releaseDelayHours: releaseDelayHours, now: now)
    }
}

extension ManifestGenerator {
    /// The App Store manifest from one storefront's release, read from its source.
    ///
    /// App Store Connect's status joins it when given.
    ///
    /// - Throws: ``ReleaseSourceError`` naming the store that failed, or
    ///   ``ReleaseSourceError/manifest(_:)`` when the source has not exactly one release.
    public func appStore(
        from source: AppStoreSource, appStoreConnect: AppStoreConnectSource? = nil, minimumSupported: Version? = nil
    ) async throws(ReleaseSourceError) -> Result {
        let releases = try await source.releases()
        guard releases.count == 1 else { throw .manifest(.notOneStorefront(releases.count)) }
        var status: AppStoreConnectStatus?
        if let appStoreConnect {
            status = try await appStoreConnect.status(of: try source.connectApp(releases: releases))
        }
        do throws(Problem) {
            return try appStore(releases[0], appStoreConnect: status, minimumSupported: minimumSupported)
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
        do throws(Problem) {
            return try googlePlay(track, packageName: packageName, minimumSupported: minimumSupported)
        } catch {
            throw .manifest(error)
        }
    }
}
