import Foundation
import StoreReleaseCore

/// A self-hosted release manifest: the third source of a ``StoreRelease``.
///
/// It is a JSON file on any static host (seed 004 puts one on GitHub; seed 000's backend serves
/// the same facts).
///
/// ```json
/// {
///   "latestVersion": "8.0.10",
///   "minimumSupportedVersion": "8.0",
///   "releaseDate": "2021-02-02T08:15:22Z",
///   "releaseNotes": {"en": "Bug fixes.", "zh-Hans": "修复了一些问题。"},
///   "storeURL": "https://apps.apple.com/cn/app/id414478124",
///   "minimumOSVersion": "11.0",
///   "inReview": false
/// }
/// ```
///
/// Only `latestVersion` is required. `releaseNotes` is a string or an object of language tags;
/// `storeURL` must be `https`; `inReview: true` (the build under review is out, and no prompt
/// may appear) makes every decision `none` / `inReview`. Unknown keys are errors.
///
/// Version 2 (`"schemaVersion": 2`) adds three keys; a manifest without `schemaVersion` is
/// version 1 and decides exactly as before:
///
/// ```json
/// {
///   "schemaVersion": 2,
///   "latestVersion": "8.0.10",
///   "blockedVersions": ["8.0.7"],
///   "rollout": {"percent": 20, "startedAt": "2021-02-02T08:15:22Z"},
///   "versionNames": {"81": "8.0.10", "80": "8.0.9"}
/// }
/// ```
///
/// - `blockedVersions`: an install of exactly one of them must update (`immediate` /
///   `blockedVersion`), a bad build pulled without forcing everyone.
/// - `rollout`: only `percent` of installs (0–100) are told about `latestVersion`; an install's
///   bucket is stable (``Rollout/bucket(installID:latestVersion:)``).
/// - `versionNames`: Play versionCodes to the version names users see, so a Play decision knows
///   which change an update is.
public struct ReleaseManifest: Sendable, Hashable {
    /// The newest release (`latestVersion`, required).
    public var latestVersion: Version
    /// Installed versions below it must update.
    public var minimumSupportedVersion: Version?
    /// When the release went out, for the policy's release delay.
    public var releaseDate: Date?
    /// Release notes by language tag (`en`, `zh-Hans`); a plain string is stored under `""`.
    public var releaseNotes: [String: String]
    /// Where the update is (`https` only).
    public var storeURL: URL?
    /// The oldest OS the release runs on.
    public var minimumOSVersion: Version?
    /// A build is in App Review: decide `none` so the reviewer never sees a prompt.
    public var inReview: Bool
    /// The schema: 1 (no `schemaVersion` key) or 2.
    public var schemaVersion: Int
    /// Installed versions that must update, however new (version 2).
    public var blockedVersions: [Version]
    /// The share of installs told about `latestVersion` (version 2).
    public var rollout: Rollout?
    /// Play versionCodes to version names (version 2).
    public var versionNames: [VersionCode: Version]

    /// A staged rollout of the prompt: `{"percent": P, "startedAt": ISO}`.
    public struct Rollout: Sendable, Hashable {
        /// The share of installs, 0–100.
        public var percent: Double
        /// When the rollout began.
        public var startedAt: Date?

        /// Makes a rollout.
        public init(percent: Double, startedAt: Date? = nil) {
            self.percent = percent
            self.startedAt = startedAt
        }

        /// Whether an install is in the rollout: its bucket is below the percent.
        ///
        /// An install without an id is in it only at 100%.
        public func includes(installID: String?, latestVersion: Version) -> Bool {
            guard let installID else { return percent >= 100 }
            return Double(Self.bucket(installID: installID, latestVersion: latestVersion)) < percent
        }

        /// An install's bucket for a version, 0–99.
        ///
        /// The same for the same install and version on every device and server, uniform over
        /// installs, and drawn anew for each version.
        ///
        /// FNV-1a (64-bit) of the UTF-8 of `installID + "|" + latestVersion`, then splitmix64's
        /// finalizer, modulo 100; write the same and a server computes the same buckets.
        public static func bucket(installID: String, latestVersion: Version) -> Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (installID + "|" + latestVersion.description).utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
            hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
            hash ^= hash >> 31
            return Int(hash % 100)
        }
    }

    /// Makes a manifest; only the latest version is required.
    public init(
        latestVersion: Version, minimumSupportedVersion: Version? = nil, releaseDate: Date? = nil,
        releaseNotes: [String: String] = [:], storeURL: URL? = nil, minimumOSVersion: Version? = nil,
        inReview: Bool = false, blockedVersions: [Version] = [], rollout: Rollout? = nil,
        versionNames: [VersionCode: Version] = [:]
    ) {
        self.blockedVersions = blockedVersions
        self.rollout = rollout
        self.versionNames = versionNames
        schemaVersion = blockedVersions.isEmpty && rollout == nil && versionNames.isEmpty ? 1 : 2
        self.latestVersion = latestVersion
        self.minimumSupportedVersion = minimumSupportedVersion
        self.releaseDate = releaseDate
        self.releaseNotes = releaseNotes
        self.storeURL = storeURL
        self.minimumOSVersion = minimumOSVersion
        self.inReview = inReview
    }

    /// The release, with the notes in the first of `preferredLanguages` the manifest has.
    ///
    /// `zh-Hans-CN` matches `zh-Hans`, then `zh`; without a match, English, else any.
    public func release(preferredLanguages: [String] = ["en"]) -> StoreRelease {
        StoreRelease(
            store: .manifest, version: latestVersion, releaseDate: releaseDate,
            releaseNotes: notes(preferredLanguages), minimumOSVersion: minimumOSVersion, storeURL: storeURL)
    }

    func notes(_ preferredLanguages: [String]) -> String? {
        if let plain = releaseNotes[""] { return plain }
        for language in preferredLanguages + ["en"] {
            if let tag = LanguageTag.bestMatch(for: language, in: Array(releaseNotes.keys)) { return releaseNotes[tag] }
        }
        return releaseNotes.sorted { $0.key < $1.key }.first?.value
    }
}

extension ReleaseManifest: Codable {
    /// Encodes the manifest as ``init(from:)`` reads it.
    ///
    /// Absent values are left out, notes stored under `""` are a plain string, `inReview` is
    /// written only when true.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if schemaVersion >= 2 { try c.encode(schemaVersion, forKey: .schemaVersion) }
        try c.encode(latestVersion, forKey: .latestVersion)
        try c.encodeIfPresent(minimumSupportedVersion, forKey: .minimumSupportedVersion)
        try c.encodeIfPresent(releaseDate.map(ISO8601Timestamp.string(from:)), forKey: .releaseDate)
        if let plain = releaseNotes[""], releaseNotes.count == 1 {
            try c.encode(plain, forKey: .releaseNotes)
        } else if !releaseNotes.isEmpty {
            try c.encode(releaseNotes, forKey: .releaseNotes)
        }
        try c.encodeIfPresent(storeURL?.absoluteString, forKey: .storeURL)
        try c.encodeIfPresent(minimumOSVersion, forKey: .minimumOSVersion)
        if inReview { try c.encode(true, forKey: .inReview) }
        if !blockedVersions.isEmpty { try c.encode(blockedVersions, forKey: .blockedVersions) }
        if let rollout {
            var r = c.nestedContainer(keyedBy: RolloutKeys.self, forKey: .rollout)
            try r.encode(rollout.percent, forKey: .percent)
            try r.encodeIfPresent(rollout.startedAt.map(ISO8601Timestamp.string(from:)), forKey: .startedAt)
        }
        if !versionNames.isEmpty {
            try c.encode(
                Dictionary(uniqueKeysWithValues: versionNames.map { ($0.key.description, $0.value.description) }),
                forKey: .versionNames)
        }
    }

    enum RolloutKeys: String, CodingKey, CaseIterable {
        case percent, startedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion, latestVersion, minimumSupportedVersion, releaseDate, releaseNotes, storeURL
        case minimumOSVersion, inReview, blockedVersions, rollout, versionNames
    }

    /// The keys only version 2 has.
    static let versionTwoKeys: [CodingKeys] = [.blockedVersions, .rollout, .versionNames]

    /// Decodes the manifest; see the type's discussion for the schema.
    public init(from decoder: any Decoder) throws {
        try AnyKey.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "a manifest")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latestVersion = try c.decodeVersion(forKey: .latestVersion)
        minimumSupportedVersion = try c.decodeVersionIfPresent(forKey: .minimumSupportedVersion)
        releaseDate = try c.decodeISO8601IfPresent(forKey: .releaseDate)
        if let plain = try? c.decodeIfPresent(String.self, forKey: .releaseNotes) {
            releaseNotes = ["": plain]
        } else {
            releaseNotes = try c.decodeIfPresent([String: String].self, forKey: .releaseNotes) ?? [:]
        }
        if let text = try c.decodeIfPresent(String.self, forKey: .storeURL) {
            guard let url = HTTPSURL.components(text)?.url else {
                throw DecodingError.dataCorruptedError(
                    forKey: .storeURL, in: c, debugDescription: "storeURL \(text.debugDescription) is not an https URL")
            }
            storeURL = url
        } else {
            storeURL = nil
        }
        minimumOSVersion = try c.decodeVersionIfPresent(forKey: .minimumOSVersion)
        inReview = try c.decodeIfPresent(Bool.self, forKey: .inReview) ?? false
        func invalid(_ key: CodingKeys, _ message: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: message)
        }
        schemaVersion = try c.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? 1
        guard [1, 2].contains(schemaVersion) else {
            throw invalid(.schemaVersion, "schemaVersion \(schemaVersion) is not 1 or 2")
        }
        if schemaVersion == 1, let key = Self.versionTwoKeys.first(where: c.contains) {
            throw invalid(key, "\(key.rawValue) is a key of manifest version 2: add \"schemaVersion\": 2")
        }
        blockedVersions = []
        for (index, text) in (try c.decodeIfPresent([String].self, forKey: .blockedVersions) ?? []).enumerated() {
            guard let version = Version(text) else {
                throw invalid(.blockedVersions, "blockedVersions[\(index)] \(text.debugDescription) is not a version")
            }
            blockedVersions.append(version)
        }
        if c.contains(.rollout) {
            try AnyKey.rejectUnknownKeys(
                in: try c.superDecoder(forKey: .rollout), known: RolloutKeys.allCases.map(\.rawValue), of: "a rollout")
            let r = try c.nestedContainer(keyedBy: RolloutKeys.self, forKey: .rollout)
            let percent = try r.decode(Double.self, forKey: .percent)
            guard percent.isFinite, (0...100).contains(percent) else {
                throw invalid(.rollout, "rollout.percent \(percent) is outside 0–100")
            }
            rollout = Rollout(percent: percent, startedAt: try r.decodeISO8601IfPresent(forKey: .startedAt))
        } else {
            rollout = nil
        }
        versionNames = [:]
        for (code, name) in try c.decodeIfPresent([String: String].self, forKey: .versionNames) ?? [:] {
            guard let versionCode = try? VersionCode(parsing: code) else {
                throw invalid(.versionNames, "versionNames key \(code.debugDescription) is not a versionCode")
            }
            guard let version = Version(name) else {
                throw invalid(.versionNames, "versionNames[\"\(code)\"] \(name.debugDescription) is not a version")
            }
            versionNames[versionCode] = version
        }
    }
}
