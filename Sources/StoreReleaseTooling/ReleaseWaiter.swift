import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Waits until a version is live in every App Store storefront asked, on a Play track, or both.
///
/// Each round asks only what is still missing: each storefront (cache-busting lookups, within
/// the lookup rate limit) and Play's edit-free release list, which opens no edit. Rounds start
/// ``interval`` apart, the interval growing by half each round up to ``maximumInterval``, until
/// everything is live or ``timeout`` would pass. A storefront that does not have the app yet
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

    /// The App Store Connect side: the version must be live there, or its phased release complete.
    public struct ConnectSide: Sendable {
        /// What counts as done.
        public enum Until: String, Sendable, Hashable, CaseIterable {
            /// App Store Connect calls the version (or a newer one) live.
            case live
            /// ...and its phased release, if it has one, is complete.
            case phasedComplete = "phased-complete"
        }

        /// The app.
        public var app: AppStoreApp
        /// The platform.
        public var platform: AppStoreConnectPlatform
        /// The client.
        public var client: AppStoreConnectClient
        /// What counts as done.
        public var until: Until

        /// Makes the side.
        public init(
            app: AppStoreApp, platform: AppStoreConnectPlatform = .iOS, client: AppStoreConnectClient,
            until: Until = .live
        ) {
            self.app = app
            self.platform = platform
            self.client = client
            self.until = until
        }

        /// Whether `status` shows `version` done, as ``until`` says.
        func isDone(_ status: AppStoreConnectStatus, version: Version) -> Bool {
            guard let live = status.live, let liveVersion = Version(live.version), liveVersion >= version else {
                return false
            }
            switch until {
            case .live: return true
            case .phasedComplete: return !status.phasedReleaseInProgress
            }
        }
    }

    /// What one round found.
    public struct Round: Sendable, Hashable, CustomStringConvertible {
        /// The round's number, from 1.
        public let number: Int
        /// What is awaited (`9.0`, `versionCode 85`).
        public let wanted: String
        /// The storefronts that serve it, in the order asked.
        public let liveStorefronts: [StorefrontCountry]
        /// The storefronts that do not yet.
        public let missingStorefronts: [StorefrontCountry]
        /// The Play track waited for, if one is.
        public let playTrack: String?
        /// Whether the Play track has it published.
        public let playLive: Bool
        /// What App Store Connect must show (`App Store Connect (live)`), if it is waited for.
        public let connectLabel: String?
        /// Whether App Store Connect shows it.
        public let connectDone: Bool

        /// What serves it: storefront codes, then `Google Play (production)`.
        public var live: [String] {
            liveStorefronts.map(\.code) + (playLive ? playLabel : []) + (connectDone ? connectLabels : [])
        }

        /// What does not yet, in the same form.
        public var missing: [String] {
            missingStorefronts.map(\.code) + (playLive ? [] : playLabel) + (connectDone ? [] : connectLabels)
        }

        private var connectLabels: [String] { connectLabel.map { [$0] } ?? [] }

        private var playLabel: [String] {
            playTrack.map { ["Google Play (\($0))"] } ?? []
        }

        /// `round 2: 9.0 live in us; waiting for cn, jp`.
        public var description: String {
            "round \(number): \(wanted) live in \(live.isEmpty ? "none" : live.joined(separator: ", "))"
                + (missing.isEmpty ? "" : "; waiting for \(missing.joined(separator: ", "))")
        }

        /// `9.0 is live in us, cn and on Google Play (production)`.
        public var summary: String {
            let places =
                (liveStorefronts.isEmpty ? [] : ["in " + liveStorefronts.map(\.code).joined(separator: ", ")])
                + (playLive ? playLabel.map { "on " + $0 } : [])
                + (connectDone ? connectLabels.map { "on " + $0 } : [])
            return "\(wanted) is live \(places.joined(separator: " and "))"
        }
    }

    /// Why the wait ended without the release live everywhere.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The timeout passed; what is still missing is named.
        case timedOut(wanted: String, missing: [String])
        /// The App Store refused in a way asking again cannot fix.
        case appStore(AppStoreLookupError)
        /// No storefront asked has the app, three rounds running.
        case appUnknown(AppStoreApp, countries: [String], rounds: Int)
        /// The Play Developer API refused in a way asking again cannot fix.
        case play(PlayDeveloperAPIError)
        /// App Store Connect refused in a way asking again cannot fix.
        case appStoreConnect(AppStoreConnectError)
        /// The task was cancelled.
        case cancelled

        /// A sentence naming the cause.
        public var description: String {
            switch self {
            case .timedOut(let wanted, let missing):
                return "timed out: \(wanted) is not live in \(missing.joined(separator: ", ")) yet"
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

    /// Runs rounds until everything is live.
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
            if round.missing.isEmpty { return round }
            guard clock.now() + interval < deadline else { throw .timedOut(wanted: wanted, missing: round.missing) }
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
        var playLive = false
        var connectDone = false
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
                number: number, wanted: waiter.wanted, liveStorefronts: storefrontsLive,
                missingStorefronts: countries.filter { !storefrontsLive.contains($0) }, playTrack: waiter.play?.track,
                playLive: playLive,
                connectLabel: waiter.appStoreConnect.map { "App Store Connect (\($0.until.rawValue))" },
                connectDone: connectDone)
        }

        mutating func ask() async throws(Failure) {
            if let side = waiter.appStore, let version = waiter.version { try await askAppStore(side, version) }
            if let side = waiter.play, !playLive { try await askPlay(side) }
            if let side = waiter.appStoreConnect, let version = waiter.version, !connectDone {
                try await askConnect(side, version)
            }
        }

        private mutating func askConnect(_ side: ConnectSide, _ version: Version) async throws(Failure) {
            do throws(AppStoreConnectError) {
                connectDone = side.isDone(
                    try await side.client.status(of: side.app, platform: side.platform), version: version)
            } catch {
                if error == .exchange(.cancelled) { throw .cancelled }
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
                    do throws(AppStoreLookupError) {
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
                        switch error {
                        case .notFound: continue
                        case .exchange(.cancelled): throw .cancelled
                        case .invalidRequest, .bundleIDMismatch: throw .appStore(error)
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

        private mutating func askPlay(_ side: PlaySide) async throws(Failure) {
            do throws(PlayDeveloperAPIError) {
                let releases = try await side.client.releases(packageName: side.packageName, track: side.track)
                playLive = releases.contains {
                    $0.isPublished(version: waiter.version, versionCode: waiter.versionCode)
                }
            } catch {
                if error == .exchange(.cancelled) { throw .cancelled }
                if error.isPermanent { throw .play(error) }
            }
        }
    }
}
