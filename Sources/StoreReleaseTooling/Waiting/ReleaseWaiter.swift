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
///
/// The stores come as ``StoreSources``, and every read goes through ``StoreSources/read(_:)``,
/// narrowed to what the round still asks: one storefront, the track, App Store Connect's status.
/// Only the Play list that gates the track is read on its own (``PlaySource/reviewStates()``).
public struct ReleaseWaiter: Sendable {

    /// The stores to wait on, each read through ``StoreSources/read(_:)``, for what is still missing.
    ///
    /// - ``StoreSources/appStore``: every storefront of its selection must serve ``version``
    ///   (`all`: the catalogue; `sold`: those ``StoreSources/appStoreConnect`` says the app is
    ///   sold in, read once as the wait starts). Give a live source a client that busts caches.
    ///   A stored source waits on the storefronts its `expected` selection names. An empty list
    ///   of storefronts waits on none, and names the app for App Store Connect.
    /// - ``StoreSources/play``: the track the release must be published on.
    /// - ``StoreSources/appStoreConnect``: the version must be ready for distribution there (with
    ///   ``Until/complete``, its phased release complete too), for the app the App Store source
    ///   names; it needs ``version`` and an App Store source.
    ///
    /// ``StoreSources/health`` is not read.
    public var sources: StoreSources
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

    /// Makes a waiter for the stores `sources` gives; set the timing properties after.
    public init(sources: StoreSources, version: Version?, versionCode: VersionCode? = nil) {
        self.sources = sources
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
    /// - Throws: ``ReleaseWaiterError``.
    public func run(progress: @Sendable (Round) -> Void = { _ in }) async throws(ReleaseWaiterError) -> Round {
        let deadline = clock.now() + timeout
        var state = State(waiter: self, countries: try await storefronts())
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

    /// The storefronts that must serve the version: the App Store source's, where App Store
    /// Connect says the app is sold for `sold`.
    private func storefronts() async throws(ReleaseWaiterError) -> [StorefrontCountry] {
        guard let appStore = sources.appStore else { return [] }
        do throws(ReleaseSourceError) {
            var availability: AppStoreAvailability?
            if appStore.needsAvailability, let connect = sources.appStoreConnect, case .live(let app, _, _) = appStore {
                availability = try await connect.availability(of: app)
            }
            return try appStore.expected(availability: availability)
        } catch {
            if case .appStoreConnect(let failure) = error, failure.code == .cancelled { throw .cancelled }
            throw .source(error)
        }
    }

    /// What the rounds so far have found.
    private struct State {
        let waiter: ReleaseWaiter
        /// The storefronts that must serve the version.
        let countries: [StorefrontCountry]
        var storefrontsLive: [StorefrontCountry] = []
        var play: PlayProgress?
        var connect: ConnectProgress?
        /// The App Store id learned from a bundle-id lookup.
        var learnedID: Int?
        var everFound = false
        var unknownRounds = 0

        init(waiter: ReleaseWaiter, countries: [StorefrontCountry]) {
            self.waiter = waiter
            self.countries = countries
        }

        private var sources: StoreSources { waiter.sources }

        func round(_ number: Int) -> Round {
            Round(
                number: number, wanted: waiter.wanted, until: waiter.until, liveStorefronts: storefrontsLive,
                missingStorefronts: countries.filter { !storefrontsLive.contains($0) },
                playTrack: sources.play?.trackName, play: play,
                waitsForAppStoreConnect: sources.appStoreConnect != nil && sources.appStore != nil
                    && waiter.version != nil,
                appStoreConnect: connect)
        }

        mutating func ask() async throws(ReleaseWaiterError) {
            if let source = sources.appStore, let version = waiter.version { try await askAppStore(source, version) }
            if let source = sources.play, play?.isDone(waiter.until) != true { try await askPlay(source) }
            if let appStore = sources.appStore, let connect = sources.appStoreConnect, let version = waiter.version,
                self.connect?.isDone(waiter.until) != true
            {
                try await askConnect(StoreSources(appStore: appStore.namingTheApp, appStoreConnect: connect), version)
            }
        }

        /// App Store Connect's status, through a read that looks up no storefront.
        private mutating func askConnect(_ sources: StoreSources, _ version: Version) async throws(ReleaseWaiterError) {
            do throws(ReleaseSourceError) {
                if let status = try await sources.read().appStoreConnect?.status {
                    connect = ConnectProgress(status, version: version)
                }
            } catch {
                guard case .appStoreConnect(let failure) = error else { throw .source(error) }
                if failure.code == .cancelled { throw .cancelled }
                if failure.isPermanent { throw .source(error) }
            }
        }

        /// Each storefront still missing, read alone: by the app, then (for a bundle id) by the
        /// App Store id learned, until one serves the version.
        private mutating func askAppStore(_ source: AppStoreSource, _ wanted: Version) async throws(ReleaseWaiterError)
        {
            let asked = countries.filter { !storefrontsLive.contains($0) }
            guard !asked.isEmpty else { return }
            var allUnknown = true
            for country in asked {
                for lookup in source.lookups(in: country, learnedID: learnedID) {
                    do throws(ReleaseSourceError) {
                        guard let release = try await StoreSources(appStore: lookup).read().appStore?.releases.first
                        else { continue }
                        allUnknown = false
                        everFound = true
                        if learnedID == nil, case .live(.bundleID, _, _) = source,
                            let id = release.appID.flatMap({ Int($0) })
                        {
                            learnedID = id
                        }
                        if let version = release.version, version >= wanted {
                            storefrontsLive.append(country)
                            break
                        }
                    } catch {
                        guard case .appStore(let failure) = error else { throw .source(error) }
                        switch failure.code {
                        case .notFound: continue
                        case .cancelled: throw .cancelled
                        case .invalidRequest, .otherApp: throw .source(error)
                        default: allUnknown = false
                        }
                    }
                }
            }
            storefrontsLive = countries.filter { storefrontsLive.contains($0) }
            unknownRounds = allUnknown && !everFound ? unknownRounds + 1 : 0
            if unknownRounds >= waiter.unknownAppRounds, case .live(let app, _, _) = source {
                throw .appUnknown(app, countries: countries.map(\.code), rounds: unknownRounds)
            }
        }

        /// For a live source, the edit-free list first; the track (read through an edit that is
        /// deleted) only once the list shows a release carrying the version published.
        private mutating func askPlay(_ source: PlaySource) async throws(ReleaseWaiterError) {
            let version = waiter.version
            let versionCode = waiter.versionCode
            do throws(ReleaseSourceError) {
                if case .live = source {
                    let carrying = try await source.reviewStates().filter {
                        $0.carries(version: version, versionCode: versionCode)
                    }
                    guard carrying.contains(where: { $0.lifecycleState == .published }) else {
                        let newest = carrying.max {
                            ($0.versionCodes.max()?.rawValue ?? 0) < ($1.versionCodes.max()?.rawValue ?? 0)
                        }
                        play = newest.map { .notPublished($0.lifecycleState) } ?? .absent
                        return
                    }
                }
                guard let track = try await StoreSources(play: source).read().googlePlay?.track else { return }
                play = PlayProgress(releases: track.releases, version: version, versionCode: versionCode)
            } catch {
                guard case .play(let failure) = error else { throw .source(error) }
                if failure.code == .cancelled { throw .cancelled }
                if failure.isPermanent { throw .source(error) }
            }
        }
    }
}

extension AppStoreSource {
    /// The sources a waiter's round reads for one storefront.
    ///
    /// A live source's app in that storefront, then, for a bundle id, the App Store id learned;
    /// a stored source's release for that storefront.
    fileprivate func lookups(in country: StorefrontCountry, learnedID: Int?) -> [AppStoreSource] {
        switch self {
        case .live(let app, _, let client):
            var apps = [app]
            if case .bundleID = app, let learnedID { apps.append(.id(learnedID)) }
            return apps.map { .live($0, storefronts: .listed([country]), client: client) }
        case .stored(let releases, _):
            return [.stored(releases.filter { $0.country == country })]
        }
    }

    /// The same app with no storefront to look up: what App Store Connect is asked about.
    fileprivate var namingTheApp: AppStoreSource {
        switch self {
        case .live(let app, _, let client): .live(app, storefronts: .listed([]), client: client)
        case .stored(let releases, _): .stored(releases)
        }
    }
}

extension PlaySource {
    /// The track's name.
    fileprivate var trackName: String {
        switch self {
        case .live(_, let track, _): track
        case .stored(let track, _): track.track
        }
    }
}

/// Why the wait ended without the release live everywhere.
public enum ReleaseWaiterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The timeout passed; the last round says what is still missing.
    case timedOut(ReleaseWaiter.Round)
    /// No storefront asked has the app, three rounds running.
    case appUnknown(AppStoreApp, countries: [String], rounds: Int)
    /// A store refused in a way asking again cannot fix, or the sources cannot be read as given.
    ///
    /// The error names the store, as every read of the sources does: a token Google refuses
    /// (``ReleaseSourceError/play(_:)``), a bundle id the App Store answers with another app,
    /// a `sold` selection without App Store Connect (``ReleaseSourceError/availabilityNeeded``).
    case source(ReleaseSourceError)
    /// The task was cancelled.
    case cancelled

    /// A sentence naming the cause.
    public var description: String {
        switch self {
        case .timedOut(let round):
            return
                "timed out: \(round.wanted) is not \(round.until) yet: \(round.shortfalls.joined(separator: "; "))"
        case .appUnknown(let app, let countries, let rounds):
            return "no storefront asked (\(countries.joined(separator: ", "))) has \(app), \(rounds) rounds "
                + "running; check the id, or the countries the app is sold in"
        case .source(.appStore(let error)):
            return "the App Store: \(error)"
        case .source(.play(let error)):
            return "Google Play: \(error)"
        case .source(let error):
            return error.description
        case .cancelled:
            return "cancelled"
        }
    }
}
