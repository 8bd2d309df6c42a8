import Foundation
import StoreReleaseCore

/// One release of a Play track, as the Developer API's `edits.tracks` describes it.
public struct PlayTrackRelease: Sendable, Hashable, Codable {
    /// The release's status in the Developer API, kept as Play names it.
    ///
    /// An open value: a status Play adds later decodes as itself, is never live and never fails
    /// the track; a release without one is ``statusUnspecified``.
    public struct Status: OpenStringValue {
        /// Play's name (`inProgress`).
        public let rawValue: String

        /// Wraps a status's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The API's unset value, and what a release without a status has.
        public static let statusUnspecified = Self(rawValue: "statusUnspecified")
        /// Not yet sent to users.
        public static let draft = Self(rawValue: "draft")
        /// In staged rollout to ``PlayTrackRelease/userFraction`` of users.
        public static let inProgress = Self(rawValue: "inProgress")
        /// Rollout stopped: users who have it keep it, nobody new gets it.
        public static let halted = Self(rawValue: "halted")
        /// Rolled out to every user of the track.
        public static let completed = Self(rawValue: "completed")

        /// The statuses the Developer API documents, in its order.
        public static let documented: [Self] = [.statusUnspecified, .draft, .inProgress, .halted, .completed]

        /// Whether the discovery document lists this status (else Play added it later).
        public var isDocumented: Bool { Self.documented.contains(self) }
    }

    /// The countries a staged rollout is limited to.
    public struct CountryTargeting: Sendable, Hashable, Codable {
        /// The targeted countries, as Play writes them (ISO 3166-1 alpha-2: `US`).
        public let countries: [String]
        /// Whether the rest of the world gets the release too.
        public let includeRestOfWorld: Bool

        /// Makes a targeting.
        public init(countries: [String], includeRestOfWorld: Bool) {
            self.countries = countries
            self.includeRestOfWorld = includeRestOfWorld
        }

        enum CodingKeys: String, CodingKey {
            case countries, includeRestOfWorld
        }

        /// Decodes a targeting; absent keys are no countries and `false`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            countries = try c.decodeIfPresent([String].self, forKey: .countries) ?? []
            includeRestOfWorld = try c.decodeIfPresent(Bool.self, forKey: .includeRestOfWorld) ?? false
        }
    }

    /// Localized release notes.
    public struct Note: Sendable, Hashable, Codable {
        /// The notes' language tag (`en-US`).
        public let language: String
        /// The notes.
        public let text: String

        /// Makes a note.
        public init(language: String, text: String) {
            self.language = language
            self.text = text
        }
    }

    /// The release name as Play Console or the uploading tool wrote it (`80 (8.0.2)`).
    public let name: String?
    /// The release's version codes (several for multi-APK releases).
    public let versionCodes: [VersionCode]
    /// Where the release is: draft, in progress, halted or completed.
    public let status: Status
    /// The fraction of users an `inProgress` or `halted` release reaches (0 < f < 1).
    public let userFraction: Double?
    /// The countries an in-progress release is limited to, if it is.
    public let countryTargeting: CountryTargeting?
    /// `inAppUpdatePriority`, 0–5; fixed once the release is rolled out.
    public let inAppUpdatePriority: Int?
    /// Release notes, one per language.
    public let releaseNotes: [Note]

    enum CodingKeys: String, CodingKey {
        case name, versionCodes, status, userFraction, countryTargeting, inAppUpdatePriority, releaseNotes
    }

    /// Makes a release.
    public init(
        name: String?, versionCodes: [VersionCode], status: Status, userFraction: Double? = nil,
        countryTargeting: CountryTargeting? = nil, inAppUpdatePriority: Int? = nil, releaseNotes: [Note] = []
    ) {
        self.name = name
        self.versionCodes = versionCodes
        self.status = status
        self.userFraction = userFraction
        self.countryTargeting = countryTargeting
        self.inAppUpdatePriority = inAppUpdatePriority
        self.releaseNotes = releaseNotes
    }

    /// Decodes a release, checking the fraction and priority.
    ///
    /// A missing status is ``Status/statusUnspecified``; an unknown one is kept as it is.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        versionCodes = try c.decodeIfPresent([VersionCode].self, forKey: .versionCodes) ?? []
        status = try c.decodeIfPresent(Status.self, forKey: .status) ?? .statusUnspecified
        userFraction = try c.decodeIfPresent(Double.self, forKey: .userFraction)
        if let fraction = userFraction, !(fraction > 0 && fraction <= 1) {
            throw DecodingError.dataCorruptedError(
                forKey: .userFraction, in: c, debugDescription: "userFraction \(fraction) is outside (0, 1]")
        }
        countryTargeting = try c.decodeIfPresent(CountryTargeting.self, forKey: .countryTargeting)
        inAppUpdatePriority = try c.decodeIfPresent(Int.self, forKey: .inAppUpdatePriority, within: 0...5)
        releaseNotes = try c.decodeIfPresent([Note].self, forKey: .releaseNotes) ?? []
    }

    /// Encodes the release as the API writes it: `versionCodes` as strings, absent values left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encode(versionCodes.map(\.description), forKey: .versionCodes)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(userFraction, forKey: .userFraction)
        try c.encodeIfPresent(countryTargeting, forKey: .countryTargeting)
        try c.encodeIfPresent(inAppUpdatePriority, forKey: .inAppUpdatePriority)
        if !releaseNotes.isEmpty { try c.encode(releaseNotes, forKey: .releaseNotes) }
    }

    /// The highest of the release's version codes.
    public var highestVersionCode: VersionCode? { versionCodes.max() }

    /// The version its name carries, or `nil`.
    ///
    /// Names are read as Play Console writes them (`8.0.2`, `80 (8.0.2)`, `8.0.2 (80)`); see
    /// ``PlayReleaseName``.
    public var version: Version? { PlayReleaseName.version(in: name, versionCodes: versionCodes) }

    /// Whether the release carries `wanted` (or newer) or `versionCode` (or higher), whatever its status.
    public func carries(version wanted: Version?, versionCode: VersionCode?) -> Bool {
        PlayReleaseName.carries(version: version, versionCodes: versionCodes, wanted: wanted, versionCode: versionCode)
    }

    /// Whether users get the release now: `inProgress` (to its fraction) or `completed`.
    public var isServing: Bool { status == .inProgress || status == .completed }

    /// The release named for people: `81 (8.0.10)`.
    ///
    /// Its versionCodes and the version its name carries; the versionCodes alone when the name
    /// carries no version.
    ///
    /// What acting, the watch and their messages call a Play release: the versionCode tells two
    /// builds of one version apart (a rebuilt binary), the version says which one it is.
    public var label: String {
        let codes = versionCodes.map(\.description).joined(separator: ", ")
        guard let version else { return codes.isEmpty ? (name ?? "a release without versionCodes") : codes }
        return codes.isEmpty ? version.description : "\(codes) (\(version))"
    }

    /// The share of users the release reaches, as a rollout counts it.
    ///
    /// 1 when completed, else its `userFraction` (0 without one).
    public var rolloutFraction: Double {
        status == .completed ? 1 : (userFraction ?? 0)
    }

    /// Orders releases by their highest `versionCode`.
    var sortKey: Int { highestVersionCode?.rawValue ?? 0 }
}
