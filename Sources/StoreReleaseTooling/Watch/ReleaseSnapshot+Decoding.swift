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
        takenAt = try c.decode(String.self, forKey: .takenAt)
        try Self.requireDate(takenAt, forKey: .takenAt, in: c)
        app = try c.decodeIfPresent(App.self, forKey: .app)
        appStore = try c.decodeIfPresent(AppStore.self, forKey: .appStore)
        googlePlay = try c.decodeIfPresent(GooglePlay.self, forKey: .googlePlay)
        appStoreConnect = try c.decodeIfPresent(AppStoreConnectStatus.self, forKey: .appStoreConnect)
        firstSeen = try c.decode(FirstSeen.self, forKey: .firstSeen)
        if let status = appStoreConnect { try Self.check(status, forKey: .appStoreConnect, in: c) }
    }

    /// Throws when `text` is not an ISO 8601 timestamp.
    static func requireDate<Key: CodingKey>(_ text: String, forKey key: Key, in c: KeyedDecodingContainer<Key>) throws {
        guard ISO8601Timestamp.date(from: text) == nil else { return }
        throw c.invalid(key, "\(text.debugDescription) is not an ISO 8601 date (such as 2021-02-02T08:15:22Z)")
    }

    /// Throws when `code` is not an App Store storefront, lower-case alpha-2 as a snapshot writes it.
    static func requireStorefront<Key: CodingKey>(
        _ code: String, at path: [any CodingKey], in c: KeyedDecodingContainer<Key>
    )
        throws
    {
        if let country = try? StorefrontCountry(code), country.code == code, AppStoreStorefront.named(country) != nil {
            return
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
        version = try c.decodeIfPresent(String.self, forKey: .version)
        releaseDate = try c.decodeIfPresent(String.self, forKey: .releaseDate)
        if let version, Version(version) == nil {
            throw c.invalid(.version, "\(version.debugDescription) is not a version")
        }
        if let releaseDate { try ReleaseSnapshot.requireDate(releaseDate, forKey: .releaseDate, in: c) }
    }
}

extension ReleaseSnapshot.AppStore {
    enum CodingKeys: String, CodingKey {
        case storefronts
    }

    /// Decodes the storefronts, each an App Store storefront.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        storefronts = try c.decode([String: ReleaseSnapshot.Storefront].self, forKey: .storefronts)
        for code in storefronts.keys.sorted() {
            try ReleaseSnapshot.requireStorefront(code, at: [CodingKeys.storefronts, AnyKey(stringValue: code)], in: c)
        }
    }
}

extension ReleaseSnapshot.PlayRelease {
    /// Decodes a release: a versionCode of at least 1, a status, a fraction in (0, 1].
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        versionCode = try c.decodeIfPresent(Int.self, forKey: .versionCode)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        version = try c.decodeIfPresent(String.self, forKey: .version)
        status = try c.decode(String.self, forKey: .status)
        userFraction = try c.decodeIfPresent(Double.self, forKey: .userFraction)
        countries = try c.decodeIfPresent([String].self, forKey: .countries)
        lifecycle = try c.decodeIfPresent(String.self, forKey: .lifecycle)
        if let code = versionCode, VersionCode(rawValue: code) == nil {
            throw c.invalid(.versionCode, "versionCode \(code) is outside 1–\(VersionCode.maximum)")
        }
        if let version, Version(version) == nil {
            throw c.invalid(.version, "\(version.debugDescription) is not a version")
        }
        if status.isEmpty { throw c.invalid(.status, "the status is empty (draft, inProgress, halted, completed…)") }
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

    /// Decodes when each thing was first seen: ISO 8601 dates, App Store storefronts.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appStore = try c.decode([String: [String: String]].self, forKey: .appStore)
        appStoreConnect = try c.decode([String: [String: String]].self, forKey: .appStoreConnect)
        for (key, seen) in [(CodingKeys.appStore, appStore), (.appStoreConnect, appStoreConnect)] {
            for (version, byPlace) in seen.sorted(by: { $0.key < $1.key }) {
                for (place, date) in byPlace.sorted(by: { $0.key < $1.key }) {
                    let path: [any CodingKey] = [key, AnyKey(stringValue: version), AnyKey(stringValue: place)]
                    if key == .appStore { try ReleaseSnapshot.requireStorefront(place, at: path, in: c) }
                    guard ISO8601Timestamp.date(from: date) == nil else { continue }
                    throw DecodingError.dataCorrupted(
                        DecodingError.Context(
                            codingPath: c.codingPath + path,
                            debugDescription:
                                "\(date.debugDescription) is not an ISO 8601 date (such as 2021-02-02T08:15:22Z)"))
                }
            }
        }
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
