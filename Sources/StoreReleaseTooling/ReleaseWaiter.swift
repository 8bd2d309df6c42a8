import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Waits until a version is live in the storefronts asked, on a Play track, in App Store Connect.
///
/// Any of the three, or all; with ``until`` ``Until/complete``, until every user gets it.
///
/// Each round asks only what is still missing: each storefront (cache-busting lookups, within
/// the lookup rate limit), Play's edit-free release list, and, once that lists a release carrying
/// the version as published, the track itself (read through an edit that is deleted, never
/// committed), since only the track says whether the release is rolling out, halted or
/// completed, to what fraction and where. Rounds start ``interval`` apart, the interval growing
/// by half each round up to ``maximumInterval``, until everything is done or ``timeout`` would
/// pass. A storefront that does not have the app yet
/// counts as missing; what asking again cannot fix stops the wait at once: a token Google
/// refuses, a package it does not know, an app no storefront has three rounds running.
///
/// With a bundle id, once a storefront has returned the app its App Store id is asked too, and
/// a storefront counts as live when either lookup serves the version: the two lookups have been
/// seen to disagree for days.
public struct ReleaseWaiter: Sendable {
    /// The App Store side: the app and the storefronts that must serve the version.
    public struct AppStoreSide: Sendable {
        /// The app.
        public var app: AppStoreApp
        /// The storefronts, each of which must serve the version.
        public var countries: [StorefrontCountry]
        /// The lookup client (use one that busts caches).
        public var client: AppStoreLookupClient
        /// App Store Connect, when the storefronts are those it says the app is sold in.
        ///
        /// When set, ``countries`` are replaced by them as the wait starts (`--countries sold`).
        public var soldIn: AppStoreConnectSource?

        /// Makes the side.
        public init(
            app: AppStoreApp, countries: [StorefrontCountry], client: AppStoreLookupClient,
            soldIn: AppStoreConnectSource? = nil
        ) {
            self.app = app
            self.countries = countries
            self.client = client
            self.soldIn = soldIn
        }
    }

    /// The Play side: the package and the track the release must be published on.
    public struct PlaySide: Sendable {
        /// The package name.
        public var packageName: String
        /// The track (`production`).
        public var track: String
        /// The Developer API client.
        public var client: PlayDeveloperAPIClient

        /// Makes the side.
        public init(packageName: String, track: String = "production", client: PlayDeveloperAPIClient) {
            self.packageName = packageName
            self.track = track
            self.client = client
        }
    }

    /// The App Store Connect side: the version must be ready for distribution there.
    ///
    /// With ``Until/complete``, its phased release must be complete too.
    public struct ConnectSide: Sendable {
        /// The app.
        public var app: AppStoreApp
        /// The platform.
        public var platform: AppStoreConnectPlatform
        /// The client.
        public var client: AppStoreConnectClient

        /// Makes the side.
        public init(app: AppStoreApp, platform: AppStoreConnectPlatform = .iOS, client: AppStoreConnectClient) {
            self.app = app
            self.platform = platform
            self.client = client
        }
    }

    /// Why the wait ended without the release live everywhere.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The timeout passed; the last round says what is still missing.
        case timedOut(Round)
        /// The App Store refused in a way asking again cannot fix.
        case appStore(HTTPClientError)
        /// No storefront asked has the app, three rounds running.
        case appUnknown(AppStoreApp, countries: [String], rounds: Int)
        /// The Play Developer API refused in a way asking again cannot fix.
        case play(HTTPClientError)
        /// App Store Connect refused in a way asking again cannot fix.
        case appStoreConnect(HTTPClientError)
        /// The task was cancelled.
        case cancelled

        /// A sentence naming the cause.
        public var description: String {
            switch self {
            case .timedOut(let round):
                return
                    "timed out: \(round.wanted) is not \(round.until) yet: \(round.shortfalls.joined(separator: "; "))"
            case .appStore(let error):
                return "the App Store: \(error)"
            case .appUnknown(let app, let countries, let rounds):
                return "no storefront asked (\(countries.joined(separator: ", "))) has \(app), \(rounds) rounds "
                    + "running; check the id, or the countries the app is sold in"
            case .play(let error):
                return "Google Play: \(error)"
            case .appStoreConnect(let error):
                return error.description
            case .cancelled:
                return "cancelled"
            }
        }
    }

    /// The App Store side, if waited for.
    public var appStore: AppStoreSide?
    /// The Play side, if waited for.
    public var play: PlaySide?
    /// The App Store Connect side, if waited for (it needs ``version``).
    public var appStoreConnect: ConnectSide?
    /// The version to wait for; a newer one counts too. Needed for the App Store side.
    public var version: Version?
    /// The Play `versionCode` to wait for; a higher one counts too.
    public var versionCode: VersionCode?
    /// What counts as done on Play and App Store Connect.
    ///
    /// The storefronts only serve a version or not.
    public var until: Until = .live
    /// The wait between the first rounds.
    public var interval: Duration = .seconds(60)
    /// The longest wait between rounds.
    public var maximumInterval: Duration = .seconds(600)
    /// The longest the whole wait may take.
    public var timeout: Duration = .seconds(3600)
    /// How many rounds running an app may be unknown in every storefront before the wait stops.
    public var unknownAppRounds = 3
    /// The clock the rounds are timed by.
    public var clock: PollingClock = .continuous

    /// Makes a waiter for either side or both; set the timing properties after.
    public init(
        appStore: AppStoreSide?, play: PlaySide?, appStoreConnect: ConnectSide? = nil, version: Version?,
        versionCode: VersionCode? = nil
    ) {
        self.appStore = appStore
        self.play = play
        self.appStoreConnect = appStoreConnect
        self.version = version
        self.versionCode = versionCode
    }

    /// What is awaited, in words: `9.0`, `versionCode 85`, or `9.0 (versionCode 85)`.
    public var wanted: String {
        switch (version, versionCode) {
        case (let version?, let code?): return "\(version) (versionCode \(code))"
        case (let version?, nil): return version.description
        case (nil, let code?): return "versionCode \(code)"
        case (nil, nil): return "nothing"
        }
    }

    /// Runs rounds until everything is as far as ``until`` asks.
    ///
    /// - Parameter progress: Told each round's result, as it ends.
    /// - Returns: The last round, in which everything serves the release.
    /// - Throws: ``Failure``.
    public func run(progress: @Sendable (Round) -> Void = { _ in }) async throws(Failure) -> Round {
        let deadline = clock.now() + timeout
        var waiter = self
        if let side = appStore, let sold = side.soldIn {
            do throws(ReleaseSourceError) {
                waiter.appStore?.countries = try await sold.availability(of: side.app).available
            } catch {
                if case .appStoreConnect(let failure) = error { throw .appStoreConnect(failure) }
                throw .cancelled
            }
        }
        var state = State(waiter: waiter)
        var interval = interval
        var number = 0
        while true {
            number += 1
            try await state.ask()
            let round = state.round(number)
            progress(round)
            if round.isDone { return round }
            guard clock.now() + interval < deadline else { throw .timedOut(round) }
            do {
                try await clock.sleep(interval)
            } catch {
                throw .cancelled
            }
            interval = min(interval * 1.5, maximumInterval)
        }
    }

    /// What the rounds so far have found.
    private struct State {
        let waiter: ReleaseWaiter
        var storefrontsLive: [StorefrontCountry] = []
        var play: PlayProgress?
        var connect: ConnectProgress?
        /// The App Store id learned from a bundle-id lookup.
        var learnedID: Int?
        var everFound = false
        var unknownRounds = 0

        init(waiter: ReleaseWaiter) {
            self.waiter = waiter
        }

        func round(_ number: Int) -> Round {
            let countries = waiter.appStore?.countries ?? []
            return Round(
                number: number, wanted: waiter.wanted, until: waiter.until, liveStorefronts: storefrontsLive,
                missingStorefronts: countries.filter { !storefrontsLive.contains($0) }, playTrack: waiter.play?.track,
                play: play, waitsForAppStoreConnect: waiter.appStoreConnect != nil && waiter.version != nil,
                appStoreConnect: connect)
        }

        mutating func ask() async throws(Failure) {
            if let side = waiter.appStore, let version = waiter.version { try await askAppStore(side, version) }
            if let side = waiter.play, play?.isDone(waiter.until) != true { try await askPlay(side) }
            if let side = waiter.appStoreConnect, let version = waiter.version, connect?.isDone(waiter.until) != true {
                try await askConnect(side, version)
            }
        }

        private mutating func askConnect(_ side: ConnectSide, _ version: Version) async throws(Failure) {
            do throws(HTTPClientError) {
                connect = ConnectProgress(
                    try await side.client.status(of: side.app, platform: side.platform), version: version)
            } catch {
                if error.code == .cancelled { throw .cancelled }
                if error.isPermanent { throw .appStoreConnect(error) }
            }
        }

        private mutating func askAppStore(_ side: AppStoreSide, _ wanted: Version) async throws(Failure) {
            let asked = side.countries.filter { !storefrontsLive.contains($0) }
            guard !asked.isEmpty else { return }
            var allUnknown = true
            for country in asked {
                var apps = [side.app]
                if case .bundleID = side.app, let learnedID { apps.append(.id(learnedID)) }
                for app in apps {
                    do throws(HTTPClientError) {
                        let release = try await side.client.lookup(app, country: country)
                        allUnknown = false
                        everFound = true
                        if learnedID == nil, case .bundleID = side.app, let id = release.appID.flatMap({ Int($0) }) {
                            learnedID = id
                        }
                        if let version = release.version, version >= wanted {
                            storefrontsLive.append(country)
                            break
                        }
                    } catch {
                        switch error.code {
                        case .notFound: continue
                        case .cancelled: throw .cancelled
                        case .invalidRequest, .otherApp: throw .appStore(error)
                        default: allUnknown = false
                        }
                    }
                }
            }
            storefrontsLive = side.countries.filter { storefrontsLive.contains($0) }
            unknownRounds = allUnknown && !everFound ? unknownRounds + 1 : 0
            if unknownRounds >= waiter.unknownAppRounds {
                throw .appUnknown(side.app, countries: side.countries.map(\.code), rounds: unknownRounds)
            }
        }

        /// The edit-free list first; the track, through an edit that is deleted, only once the list
        /// shows a release carrying the version published.
        private mutating func askPlay(_ side: PlaySide) async throws(Failure) {
            let version = waiter.version
            let versionCode = waiter.versionCode
            do throws(HTTPClientError) {
                let listed = try await side.client.releases(packageName: side.packageName, track: side.track)
                let carrying = listed.filter { $0.carries(version: version, versionCode: versionCode) }
                guard carrying.contains(where: { $0.lifecycleState == .published }) else {
                    let newest = carrying.max {
                        ($0.versionCodes.max()?.rawValue ?? 0) < ($1.versionCodes.max()?.rawValue ?? 0)
                    }
                    play = newest.map { .notPublished($0.lifecycleState) } ?? .absent
                    return
                }
                let track = try await side.client.track(side.track, packageName: side.packageName)
                play = PlayProgress(releases: track.releases, version: version, versionCode: versionCode)
            } catch {
                if error.code == .cancelled { throw .cancelled }
                if error.isPermanent { throw .play(error) }
            }
        }
    }
}
