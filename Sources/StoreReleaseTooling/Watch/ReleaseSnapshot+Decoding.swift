import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

// A snapshot is read back from files a person can edit (a watch's state, `diff`'s inputs,
// `--previous`): each value is checked as it is read, and an error names its key path and what
// is wrong (`googlePlay.releases[0].userFraction: userFraction 5.0 is outside (0, 1]`).

extension ReleaseSnapshot {
    /// Decodes a snapshot, refusing a `takenAt` that is not an ISO 8601 date.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        takenAt = try Self.date(try c.decode(String.self, forKey: .takenAt), forKey: .takenAt, in: c)
        app = try c.decodeIfPresent(App.self, forKey: .app)
        appStore = try c.decodeIfPresent(AppStore.self, forKey: .appStore)
        googlePlay = try c.decodeIfPresent(GooglePlay.self, forKey: .googlePlay)
        appStoreConnect = try c.decodeIfPresent(AppStoreConnectStatus.self, forKey: .appStoreConnect)
        firstSeen = try c.decode(FirstSeen.self, forKey: .firstSeen)
        let read = try decoder.container(keyedBy: ReadKeys.self)
        playRecoveryActions = try read.decodeIfPresent([PlayRecoveryAction].self, forKey: .playRecoveryActions)
        health = try read.decodeIfPresent(Health.self, forKey: .health)
        if let status = appStoreConnect { try Self.check(status, forKey: .appStoreConnect, in: c) }
    }

    /// The date `text` says, or an error at `key` when it is not an ISO 8601 timestamp.
    static func date<Key: CodingKey>(_ text: String, forKey key: Key, in c: KeyedDecodingContainer<Key>) throws -> Date
    {
        try date(text, at: [key], in: c)
    }

    /// The date `text` says, or an error at `path` when it is not an ISO 8601 timestamp.
    static func date<Key: CodingKey>(_ text: String, at path: [any CodingKey], in c: KeyedDecodingContainer<Key>)
        throws -> Date
    {
        if let date = ISO8601Timestamp.date(from: text) { return date }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: c.codingPath + path,
                debugDescription: "\(text.debugDescription) is not an ISO 8601 date (such as 2021-02-02T08:15:22Z)"))
    }

    /// The version `text` says, or an error at `path` when it is not one.
    static func version<Key: CodingKey>(_ text: String, at path: [any CodingKey], in c: KeyedDecodingContainer<Key>)
        throws -> Version
    {
        if let version = Version(text) { return version }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: c.codingPath + path, debugDescription: "\(text.debugDescription) is not a version"))
    }

    /// The storefront `code` names, or an error at `path` when it is not an App Store storefront,
    /// lower-case alpha-2 as a snapshot writes it.
    static func storefront<Key: CodingKey>(
        _ code: String, at path: [any CodingKey], in c: KeyedDecodingContainer<Key>
    )
        throws -> StorefrontCountry
    {
        if let country = try? StorefrontCountry(code), country.code == code, AppStoreStorefront.named(country) != nil {
            return country
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: c.codingPath + path,
                debugDescription:
                    "\(code.debugDescription) is not an App Store storefront (lower-case codes such as us, cn)"))
    }

    /// Whether `id` is an App Store id: digits.
    static func isAppStoreID(_ id: String) -> Bool {
        !id.isEmpty && id.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The phased release's day (1–7) and percent (0–100), and the app id's digits.
    static func check(_ status: AppStoreConnectStatus, forKey key: CodingKeys, in c: KeyedDecodingContainer<CodingKeys>)
        throws
    {
        func invalid(_ what: String, _ message: String) -> DecodingError {
            .dataCorrupted(
                DecodingError.Context(
                    codingPath: c.codingPath + [key]
                        + what.split(separator: ".").map { AnyKey(stringValue: String($0)) },
                    debugDescription: message))
        }
        guard isAppStoreID(status.appID) else {
            throw invalid("appID", "appID \(status.appID.debugDescription) is not an App Store id (digits)")
        }
        guard let phase = status.live?.phasedRelease else { return }
        if let day = phase.day, !(1...7).contains(day) {
            throw invalid("live.phasedRelease.day", "day \(day) is outside 1–7")
        }
        if !(0...100).contains(phase.percent) {
            throw invalid("live.phasedRelease.percent", "percent \(phase.percent) is outside 0–100")
        }
    }
}

extension ReleaseSnapshot.Storefront {
    /// Decodes a storefront's state: a version, and its release date in ISO 8601.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeIfPresent(String.self, forKey: .version).map { text in
            try ReleaseSnapshot.version(text, at: [CodingKeys.version], in: c)
        }
        releaseDate = try c.decodeIfPresent(String.self, forKey: .releaseDate).map { text in
            try ReleaseSnapshot.date(text, forKey: .releaseDate, in: c)
        }
    }
}

extension ReleaseSnapshot.AppStore {
    enum CodingKeys: String, CodingKey {
        case storefronts
    }

    /// Decodes the storefronts, each an App Store storefront.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var storefronts: [StorefrontCountry: ReleaseSnapshot.Storefront] = [:]
        for (code, storefront) in try c.decode([String: ReleaseSnapshot.Storefront].self, forKey: .storefronts)
            .sorted(by: { $0.key < $1.key })
        {
            let path: [any CodingKey] = [CodingKeys.storefronts, AnyKey(stringValue: code)]
            storefronts[try ReleaseSnapshot.storefront(code, at: path, in: c)] = storefront
        }
        self.storefronts = storefronts
    }
}

extension ReleaseSnapshot.PlayRelease {
    /// Decodes a release: a versionCode of at least 1, a status, a fraction in (0, 1].
    ///
    /// A release written without `includeRestOfWorld` reaches only its countries.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        versionCode = try c.decodeIfPresent(Int.self, forKey: .versionCode).map { code in
            guard let versionCode = VersionCode(rawValue: code) else {
                throw c.invalid(.versionCode, "versionCode \(code) is outside 1–\(VersionCode.maximum)")
            }
            return versionCode
        }
        name = try c.decodeIfPresent(String.self, forKey: .name)
        version = try c.decodeIfPresent(String.self, forKey: .version).map { text in
            try ReleaseSnapshot.version(text, at: [CodingKeys.version], in: c)
        }
        let status = try c.decode(String.self, forKey: .status)
        if status.isEmpty { throw c.invalid(.status, "the status is empty (draft, inProgress, halted, completed…)") }
        self.status = PlayTrackRelease.Status(rawValue: status)
        userFraction = try c.decodeIfPresent(Double.self, forKey: .userFraction)
        countries = try c.decodeIfPresent([String].self, forKey: .countries)
        includeRestOfWorld =
            try decoder.container(keyedBy: WorldKeys.self).decodeIfPresent(Bool.self, forKey: .includeRestOfWorld)
            ?? false
        lifecycle = try c.decodeIfPresent(String.self, forKey: .lifecycle).map(PlayReleaseSummary.LifecycleState.init)
        if let fraction = userFraction, !(fraction > 0 && fraction <= 1) {
            throw c.invalid(.userFraction, "userFraction \(fraction) is outside (0, 1]")
        }
    }
}

extension ReleaseSnapshot.GooglePlay {
    enum CodingKeys: String, CodingKey {
        case track, releases
    }

    /// Decodes the track: a track name as Play takes one, and its releases.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        track = try c.decode(String.self, forKey: .track)
        releases = try c.decode([ReleaseSnapshot.PlayRelease].self, forKey: .releases)
        if let problem = PlayDeveloperAPIClient.problem(withTrack: track) {
            throw c.invalid(.track, problem)
        }
    }
}

extension ReleaseSnapshot.FirstSeen {
    enum CodingKeys: String, CodingKey {
        case appStore, appStoreConnect
    }

    /// Decodes when each thing was first seen: versions, App Store storefronts, ISO 8601 dates.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func decode<Place: Hashable>(_ key: CodingKeys, place: (String, [any CodingKey]) throws -> Place) throws
            -> [Version: [Place: Date]]
        {
            var seen: [Version: [Place: Date]] = [:]
            for (text, byPlace) in try c.decode([String: [String: String]].self, forKey: key).sorted(by: {
                $0.key < $1.key
            }) {
                let version = try ReleaseSnapshot.version(text, at: [key, AnyKey(stringValue: text)], in: c)
                for (name, date) in byPlace.sorted(by: { $0.key < $1.key }) {
                    let path: [any CodingKey] = [key, AnyKey(stringValue: text), AnyKey(stringValue: name)]
                    let place = try place(name, path)
                    let when = try ReleaseSnapshot.date(date, at: path, in: c)
                    // Two spellings of one version ("8.0", "8.0.0"): the earlier sighting.
                    seen[version, default: [:]][place] = min(when, seen[version]?[place] ?? when)
                }
            }
            return seen
        }
        appStore = try decode(.appStore) { code, path in try ReleaseSnapshot.storefront(code, at: path, in: c) }
        appStoreConnect = try decode(.appStoreConnect) { name, _ in AppStoreVersion.State(rawValue: name) }
    }
}

extension ReleaseSnapshot.App {
    /// Decodes the app's names: an App Store id of digits, a Play package name.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appStoreID = try c.decodeIfPresent(String.self, forKey: .appStoreID)
        bundleID = try c.decodeIfPresent(String.self, forKey: .bundleID)
        packageName = try c.decodeIfPresent(String.self, forKey: .packageName)
        if let id = appStoreID, !ReleaseSnapshot.isAppStoreID(id) {
            throw c.invalid(.appStoreID, "\(id.debugDescription) is not an App Store id (digits)")
        }
        if let bundleID, bundleID.isEmpty { throw c.invalid(.bundleID, "the bundle id is empty") }
        if let name = packageName, !PlayDeveloperAPIClient.isPackageName(name) {
            throw c.invalid(.packageName, "\(name.debugDescription) is not an Android package name")
        }
    }
}

extension KeyedDecodingContainer {
    /// A `dataCorrupted` error at `key` saying `message`.
    fileprivate func invalid(_ key: Key, _ message: String) -> DecodingError {
        DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: message)
    }
}
