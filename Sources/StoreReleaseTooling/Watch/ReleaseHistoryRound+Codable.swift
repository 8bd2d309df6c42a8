import Foundation
import StoreReleaseCore
import StoreReleaseModels

// A history line is read back from a file people keep and copy around: each value is checked as
// it is read, and an error names its key path (`googlePlay.releases[0].userFraction: …`).

extension ReleaseHistoryRound: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case takenAt, app, googlePlay, appStoreConnect, storefronts, storefrontsWithoutRelease, health, rollout
    }

    /// Decodes a round, refusing a date, version, storefront or fraction that is not one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        takenAt = try ReleaseSnapshot.date(try c.decode(String.self, forKey: .takenAt), forKey: .takenAt, in: c)
        app = try c.decodeIfPresent(ReleaseSnapshot.App.self, forKey: .app)
        googlePlay = try c.decodeIfPresent(ReleaseSnapshot.GooglePlay.self, forKey: .googlePlay)
        appStoreConnect = try c.decodeIfPresent([ConnectVersion].self, forKey: .appStoreConnect)
        storefronts = try c.decodeIfPresent([String: [String]].self, forKey: .storefronts).map { byVersion in
            var serving: [Version: [StorefrontCountry]] = [:]
            for (text, codes) in byVersion.sorted(by: { $0.key < $1.key }) {
                let path: [any CodingKey] = [CodingKeys.storefronts, AnyKey(stringValue: text)]
                serving[try ReleaseSnapshot.version(text, at: path, in: c)] = try codes.map {
                    try ReleaseSnapshot.storefront($0, at: path, in: c)
                }
            }
            return serving
        }
        storefrontsWithoutRelease = try c.decodeIfPresent([String].self, forKey: .storefrontsWithoutRelease)?.map {
            try ReleaseSnapshot.storefront($0, at: [CodingKeys.storefrontsWithoutRelease], in: c)
        }
        health = try c.decodeIfPresent(HistoryHealth.self, forKey: .health)?.health
        rollout = try c.decodeIfPresent(RolloutDecision.self, forKey: .rollout)
    }

    /// Encodes every key, `null` for what the round did not read; versions and storefronts as text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ISO8601Timestamp.string(from: takenAt), forKey: .takenAt)
        try c.encode(app, forKey: .app)
        try c.encode(googlePlay.map(HistoryTrack.init), forKey: .googlePlay)
        try c.encode(appStoreConnect, forKey: .appStoreConnect)
        try c.encode(
            storefronts.map { byVersion in
                Dictionary(uniqueKeysWithValues: byVersion.map { ($0.key.description, $0.value.map(\.code)) })
            }, forKey: .storefronts)
        try c.encode(storefrontsWithoutRelease?.map(\.code), forKey: .storefrontsWithoutRelease)
        try c.encode(health.map(HistoryHealth.init), forKey: .health)
        // Round 5's gate decision, only on a round that ran it: an older line stays as it was.
        try c.encodeIfPresent(rollout, forKey: .rollout)
    }
}

/// The Play track as a history line writes it: each release's versionCode, version, status and
/// fraction, every key (`null` for what is unknown); read back by the snapshot's own decoding.
private struct HistoryTrack: Encodable {
    struct Release: Encodable {
        let release: ReleaseSnapshot.PlayRelease

        enum CodingKeys: String, CodingKey {
            case versionCode, version, status, userFraction
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(release.versionCode, forKey: .versionCode)
            try c.encode(release.version, forKey: .version)
            try c.encode(release.status, forKey: .status)
            try c.encode(release.userFraction, forKey: .userFraction)
        }
    }

    let track: String
    let releases: [Release]

    init(_ play: ReleaseSnapshot.GooglePlay) {
        track = play.track
        releases = play.releases.map(Release.init)
    }
}

extension ReleaseHistoryRound.ConnectVersion: Codable, EveryKeyEncodable {
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case version, state, phasedRelease
    }

    /// Decodes a version: its state, and a phased release on day 1–7 at 0–100%.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(VersionText.self, forKey: .version)
        state = try c.decode(AppStoreVersion.State.self, forKey: .state)
        phasedRelease = try c.decodeIfPresent(AppStoreConnectStatus.Phase.self, forKey: .phasedRelease)
        if let phase = phasedRelease {
            if let day = phase.day, !(1...7).contains(day) {
                throw DecodingError.dataCorruptedError(
                    forKey: .phasedRelease, in: c, debugDescription: "day \(day) is outside 1–7")
            }
            if !(0...100).contains(phase.percent) {
                throw DecodingError.dataCorruptedError(
                    forKey: .phasedRelease, in: c, debugDescription: "percent \(phase.percent) is outside 0–100")
            }
        }
    }
}

/// Both stores' health as a history line keeps it: every key (`null` for a store not judged),
/// each record's version, verdict and rates, every key, and its window counts when kept.
private struct HistoryHealth: Codable, EveryKeyEncodable {
    var appStore: Record?
    var googlePlay: Record?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case appStore, googlePlay
    }

    init(_ health: ReleaseSnapshot.Health) {
        (appStore, googlePlay) = (health.appStore.map(Record.init), health.googlePlay.map(Record.init))
    }

    var health: ReleaseSnapshot.Health {
        ReleaseSnapshot.Health(appStore: appStore?.record, googlePlay: googlePlay?.record)
    }

    /// One store's record as a history line keeps it.
    struct Record: Codable {
        let record: ReleaseSnapshot.StoreHealthRecord

        enum CodingKeys: String, CodingKey, CaseIterable {
            case version, verdict, crashRate, anrRate
        }

        /// The window counts round 5 adds, written when read (an older line has none).
        enum WindowKeys: String, CodingKey {
            case candidate, baseline
        }

        init(_ record: ReleaseSnapshot.StoreHealthRecord) {
            self.record = record
        }

        /// Decodes a store's health: rates are fractions 0–1 with lower ≤ value ≤ upper.
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let windows = try decoder.container(keyedBy: WindowKeys.self)
            record = ReleaseSnapshot.StoreHealthRecord(
                version: try c.decodeIfPresent(String.self, forKey: .version).map {
                    try ReleaseSnapshot.version($0, at: [CodingKeys.version], in: c)
                },
                verdict: try c.decode(HealthVerdict.Kind.self, forKey: .verdict),
                crashRate: try c.decodeIfPresent(HealthRate.self, forKey: .crashRate),
                anrRate: try c.decodeIfPresent(HealthRate.self, forKey: .anrRate),
                candidate: try windows.decodeIfPresent(HealthCounts.self, forKey: .candidate),
                baseline: try windows.decodeIfPresent(HealthCounts.self, forKey: .baseline))
            for (key, rate) in [(CodingKeys.crashRate, record.crashRate), (.anrRate, record.anrRate)] {
                guard let rate else { continue }
                guard 0 <= rate.lower, rate.lower <= rate.value, rate.value <= rate.upper, rate.upper <= 1 else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: c,
                        debugDescription: "\(key.stringValue) needs 0 ≤ lower ≤ value ≤ upper ≤ 1")
                }
            }
        }

        /// Encodes every key, `null` for a rate not read; the window counts when read.
        func encode(to encoder: any Encoder) throws {
            try EveryKeyEncoding.encode(record, keys: CodingKeys.self, to: encoder)
            var windows = encoder.container(keyedBy: WindowKeys.self)
            try windows.encodeIfPresent(record.candidate, forKey: .candidate)
            try windows.encodeIfPresent(record.baseline, forKey: .baseline)
        }
    }
}
