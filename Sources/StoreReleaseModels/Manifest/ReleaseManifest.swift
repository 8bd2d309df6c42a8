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

    /// Makes a manifest; only the latest version is required.
    public init(
        latestVersion: Version, minimumSupportedVersion: Version? = nil, releaseDate: Date? = nil,
        releaseNotes: [String: String] = [:], storeURL: URL? = nil, minimumOSVersion: Version? = nil,
        inReview: Bool = false
    ) {
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
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case latestVersion, minimumSupportedVersion, releaseDate, releaseNotes, storeURL, minimumOSVersion, inReview
    }

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
    }
}
