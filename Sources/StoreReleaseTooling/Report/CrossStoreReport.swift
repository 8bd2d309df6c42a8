import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Are both stores on the same version, where is each rollout, and may a forced update go out?
///
/// Built from App Store releases for one or more storefronts and a Play track. Play's version
/// comes from its release names as Play Console writes them (``PlayReleaseName``); a release whose
/// name carries no version is listed in ``playReleaseNameWithoutVersion``, its version unknown,
/// never guessed. A `halted` release is never live; an in-progress release limited to some
/// countries is listed with them.
public struct CrossStoreReport: Sendable, Hashable, Encodable {
    /// One App Store storefront's live release.
    public struct Storefront: Sendable, Hashable, Encodable, EveryKeyEncodable {
        /// The storefront's country code (`cn`).
        public let country: String
        /// The version the storefront serves.
        public let version: Version
        /// When that version was released there (ISO 8601), if the lookup said.
        public let releaseDate: String?

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case country, version, releaseDate
        }
    }

    /// Play's release in staged rollout.
    public struct Rollout: Sendable, Hashable, Encodable, EveryKeyEncodable {
        /// The version its name carries; `nil` when the name carries none.
        public let version: Version?
        /// The release name as written in Play Console.
        public let name: String?
        /// The release's highest `versionCode`.
        public let versionCode: Int?
        /// The fraction of users it reaches (0 < f < 1).
        public let userFraction: Double?
        /// Its in-app update priority, 0–5.
        public let inAppUpdatePriority: Int?
        /// The countries the rollout is limited to; `nil` when it is not limited.
        public let countries: [String]?
        /// Whether countries beyond ``countries`` get it too (`true` when not limited).
        public let includeRestOfWorld: Bool

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case version, name, versionCode, userFraction, inAppUpdatePriority, countries, includeRestOfWorld
        }
    }

    /// A Play release whose rollout was stopped: users who have it keep it, nobody new gets it.
    public struct Halted: Sendable, Hashable, Encodable, EveryKeyEncodable {
        /// The version its name carries, if any.
        public let version: Version?
        /// Its highest `versionCode`.
        public let versionCode: Int?
        /// The fraction of users it had reached.
        public let userFraction: Double?

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case version, versionCode, userFraction
        }
    }

    /// Whether a forced update to ``version`` is safe now, and if not, why.
    public struct ForceUpdate: Sendable, Hashable, Encodable, EveryKeyEncodable {
        /// The version a forced update would require: the newest either store serves to everyone.
        public let version: Version?
        /// Whether every storefront and Play's full rollout serve it, for the release delay.
        public let safe: Bool
        /// Why it is not safe yet, one sentence a reason; empty when safe.
        public let reasons: [String]

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case version, safe, reasons
        }
    }

    /// Every storefront and Play's fully rolled-out release are on the same version.
    public let agree: Bool
    /// Whether where the app is sold was unknown.
    ///
    /// Every storefront was asked and App Store Connect not read: the `missing` storefronts may
    /// be ones where it is not sold.
    public let whereSoldUnknown: Bool
    /// Storefronts behind the newest App Store version (the CDN lag), by country code.
    public let laggingStorefronts: [String]
    /// Each storefront's live release, in the order given.
    public let storefronts: [Storefront]
    /// The newest version any storefront serves.
    public let appStoreVersion: Version?
    /// The Play track reported on.
    public let playTrack: String
    /// The version of Play's fully rolled-out (`completed`) release.
    ///
    /// `nil` when there is none, or its name carries no version.
    public let playVersion: Version?
    /// The name of Play's fully rolled-out release, as written in Play Console (`80 (8.0.2)`).
    public let playReleaseName: String?
    /// The `versionCode` of Play's fully rolled-out release.
    public let playVersionCode: Int?
    /// Play's release in staged rollout, if one is.
    public let playRollout: Rollout?
    /// Play's halted releases, newest first.
    public let playHalted: [Halted]
    /// The versionCodes of Play releases whose names carry no version.
    ///
    /// Completed, in-progress and halted releases count; their version is unknown.
    public let playReleaseNameWithoutVersion: [Int]
    /// The store ahead (written `appStore` or `googlePlay`); `nil` when they agree or cannot be compared.
    public let ahead: Store?
    /// The most significant component in which the store ahead leads (written `minor`).
    public let aheadBy: VersionChange?
    /// Whether a forced update is safe now.
    public let forceUpdate: ForceUpdate
    /// App Store Connect's view, when it was asked.
    ///
    /// The live version, its phased release, the pending one.
    public let appStoreConnect: AppStoreConnectStatus?
    /// Every App Store storefront the sweep knows of, classified (``CountryStatus``), in code order.
    ///
    /// Storefronts only (``AppStoreStorefront/all``): a territory of App Store Connect that has
    /// no storefront is not one, and Play's countries are ``playCountries``.
    public let countries: [CountryStatus]
    /// Where Play serves the track, as Play lists its countries, when that was read.
    ///
    /// Apart from ``countries``: Play's countries are not App Store storefronts (Play serves
    /// Bangladesh, the App Store has no storefront there).
    public let playCountries: PlayCountryAvailability?
    /// Play's App Recovery actions for the track's versionCodes, when they were read (a live Play source).
    ///
    /// Written (`playRecoveryActions`) only then: which versionCodes Play is prompting to
    /// update, and how many of their devices have.
    public let playRecoveryActions: [PlayRecoveryAction]?
    /// Each store's health for the version forcing would require, when health sources were read.
    ///
    /// Written (`health`) only then; forcing waits for every store read to be `healthy`.
    public let health: ReleaseHealthReport?

    /// Builds the report.
    ///
    /// - Parameters:
    ///   - appStore: One release per storefront (their ``StoreRelease/country`` set).
    ///   - play: The Play track (usually `production`).
    ///   - appStoreConnect: App Store Connect's status of the app, if asked: forcing waits for
    ///     its phased release, and for the lookup to show the version it calls live.
    ///   - releaseDelayHours: How old a release must be before forcing it is safe.
    ///   - now: The time to judge the delay against.
    ///   - expected: The storefronts the App Store should answer in: one without a result is
    ///     `missing`, and forcing waits for it.
    ///   - availability: Where App Store Connect says the app is sold: a storefront where it is
    ///     not is `notSold` (and does not hold forcing back), a result there `unexpected`, never
    ///     lagging.
    ///   - whereSoldUnknown: `expected` is every storefront and where the app is sold was not
    ///     read: a storefront without a result is still `missing`, but may be one where the app is
    ///     not sold, so it neither makes the stores disagree nor holds forcing back (forcing
    ///     waits for every storefront with a result).
    ///   - playAvailability: Where Play serves the track, for each country's `googlePlay`.
    ///   - health: Each store's health (``StoreReading/health``): forcing waits until every
    ///     store read is `healthy`, each other verdict a reason with its rates and users.
    ///   - playRecoveryActions: Play's App Recovery actions, when read.
    public init(
        appStore: [StoreRelease], play: PlayTrack, appStoreConnect: AppStoreConnectStatus? = nil,
        releaseDelayHours: Double = 24, now: Date = Date(), expected: [StorefrontCountry] = [],
        availability: AppStoreAvailability? = nil, whereSoldUnknown: Bool = false,
        playAvailability: PlayCountryAvailability? = nil, health: ReleaseHealthReport? = nil,
        playRecoveryActions: [PlayRecoveryAction]? = nil
    ) {
        self.appStoreConnect = appStoreConnect
        self.whereSoldUnknown = whereSoldUnknown
        self.health = health
        self.playRecoveryActions = playRecoveryActions
        playCountries = playAvailability
        let live = appStore.compactMap { release in release.version.map { (release, $0) } }
        storefronts = live.map { release, version in
            Storefront(
                country: Self.country(release), version: version,
                releaseDate: release.releaseDate.map(ISO8601Timestamp.string(from:)))
        }
        let newestApple = live.map(\.1).max()
        appStoreVersion = newestApple
        let notSold = Set((availability?.notAvailable ?? []).map(\.code))
        laggingStorefronts = live.filter { entry in
            newestApple.map { entry.1 < $0 } ?? false && !notSold.contains(Self.country(entry.0))
        }.map { Self.country($0.0) }.sorted()
        playTrack = play.track
        let playLive = play.liveRelease
        let playVersion = playLive?.version
        self.playVersion = playVersion
        playReleaseName = playLive?.name
        playVersionCode = playLive?.highestVersionCode?.rawValue
        playRollout = play.rollout.map { release in
            Rollout(
                version: release.version, name: release.name,
                versionCode: release.highestVersionCode?.rawValue, userFraction: release.userFraction,
                inAppUpdatePriority: release.inAppUpdatePriority, countries: release.countryTargeting?.countries,
                includeRestOfWorld: release.countryTargeting?.includeRestOfWorld ?? true)
        }
        playHalted = play.haltedReleases.map {
            Halted(
                version: $0.version, versionCode: $0.highestVersionCode?.rawValue,
                userFraction: $0.userFraction)
        }
        playReleaseNameWithoutVersion = play.releases.filter { release in
            release.status != .draft && release.status != .statusUnspecified && release.version == nil
        }.compactMap { $0.highestVersionCode?.rawValue }
        var results: [String: Version?] = [:]
        for release in appStore { results[Self.country(release)] = release.version }
        countries = CountryStatus.classify(
            results: results, newest: newestApple, expected: expected, availability: availability,
            play: playAvailability)
        let missing = whereSoldUnknown ? [] : countries.filter { $0.appStore == .missing }.map(\.country)
        let versions = live.map(\.1)
        agree =
            !versions.isEmpty && playVersion != nil && versions.allSatisfy { $0 == playVersion }
            && missing.isEmpty && !countries.contains { $0.appStore == .unexpected }
        if let apple = newestApple, let google = playVersion, apple != google {
            ahead = apple > google ? .appStore : .googlePlay
            aheadBy = apple.change(from: google)
        } else {
            ahead = nil
            aheadBy = nil
        }
        forceUpdate = ForceGate.forceUpdate(
            ForceGate.Input(appStore: appStore, play: play, appStoreConnect: appStoreConnect), missing: missing,
            health: health.map(ForceGate.healthReasons) ?? [], releaseDelayHours: releaseDelayHours, now: now)
    }

    /// Builds the report from a reading of both stores (``StoreSources/read(_:)``).
    ///
    /// The storefronts the App Store should answer in, where App Store Connect says the app is
    /// sold, where Play serves the track and its App Recovery actions are the reading's, when it
    /// has them.
    public init(
        appStore: StoreReading.AppStore, play: StoreReading.GooglePlay, appStoreConnect: StoreReading.AppStoreConnect?,
        health: ReleaseHealthReport? = nil, releaseDelayHours: Double = 24, now: Date = Date()
    ) {
        self.init(
            appStore: appStore.releases, play: play.track, appStoreConnect: appStoreConnect?.status,
            releaseDelayHours: releaseDelayHours, now: now, expected: appStore.expected,
            availability: appStoreConnect?.availability, whereSoldUnknown: appStore.whereSoldUnknown,
            playAvailability: play.availability, health: health,
            playRecoveryActions: play.recoveryActions)
    }

    /// `20%` for a fraction of 0.2 (`0.5%` for 0.005), or `nil` when there is none.
    static func percent(_ fraction: Double?) -> String? {
        guard let fraction else { return nil }
        let value = (fraction * 1000).rounded() / 10
        return (value == value.rounded() ? String(Int(value)) : String(value)) + "%"
    }

    static func country(_ release: StoreRelease) -> String {
        release.country?.code ?? "us"
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case agree, laggingStorefronts, storefronts, appStoreVersion, playTrack, playVersion, playReleaseName
        case playVersionCode, playRollout, playHalted, playReleaseNameWithoutVersion, ahead, aheadBy, forceUpdate
        case appStoreConnect, countries, playCountries
    }

    /// The keys written only when their value was read.
    enum ReadKeys: String, CodingKey {
        case playRecoveryActions, health
    }

    /// Encodes every key, `null` for absent values; `playRecoveryActions` and `health` only when read.
    public func encode(to encoder: any Encoder) throws {
        try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
        var c = encoder.container(keyedBy: ReadKeys.self)
        try c.encodeIfPresent(playRecoveryActions, forKey: .playRecoveryActions)
        try c.encodeIfPresent(health, forKey: .health)
    }
}
