import Foundation

/// A track of the Google Play Developer API (`edits.tracks`) and its releases.
///
/// Tracks are `production`, `beta`, `internal`…; they decode tolerantly (unknown keys ignored)
/// with clear errors.
///
/// Decodes one track (`{"track": …, "releases": […]}`) and the list the API returns
/// (`{"tracks": […]}`) alike, through ``PlayTrack/decodeTracks(from:)``.
public struct PlayTrack: Sendable, Hashable, Decodable {
    /// The track's name (`production`).
    public let track: String
    /// Its releases, as the API lists them.
    public let releases: [PlayTrackRelease]

    enum CodingKeys: String, CodingKey {
        case track, releases
    }

    /// Decodes a track; a track without releases has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        track = try c.decode(String.self, forKey: .track)
        releases = try c.decodeIfPresent([PlayTrackRelease].self, forKey: .releases) ?? []
    }

    /// Decodes one track or a `{"tracks": […]}` list.
    public static func decodeTracks(from data: Data) throws -> [PlayTrack] {
        struct List: Decodable { let tracks: [PlayTrack] }
        if let list = try? JSONDecoder().decode(List.self, from: data) { return list.tracks }
        return [try JSONDecoder().decode(PlayTrack.self, from: data)]
    }

    /// The release every user of this track gets: the `completed` one with the highest `versionCode`.
    public var liveRelease: PlayTrackRelease? {
        releases.filter { $0.status == .completed }.max {
            ($0.highestVersionCode?.rawValue ?? 0) < ($1.highestVersionCode?.rawValue ?? 0)
        }
    }

    /// The release being rolled out to a fraction of users (`inProgress`), if any.
    public var rollout: PlayTrackRelease? {
        releases.filter { $0.status == .inProgress }.max {
            ($0.highestVersionCode?.rawValue ?? 0) < ($1.highestVersionCode?.rawValue ?? 0)
        }
    }
}

/// One release of a Play track.
public struct PlayTrackRelease: Sendable, Hashable, Decodable {
    /// The release's status in the Developer API.
    public enum Status: String, Sendable, Hashable, Decodable, CaseIterable {
        /// Not yet sent to users.
        case draft
        /// In staged rollout to ``PlayTrackRelease/userFraction`` of users.
        case inProgress
        /// Rollout stopped: no new users get it.
        case halted
        /// Rolled out to every user of the track.
        case completed
    }

    /// Localized release notes.
    public struct Note: Sendable, Hashable, Decodable {
        /// The notes' language tag (`en-US`).
        public let language: String
        /// The notes.
        public let text: String
    }

    /// The release name; often the version name (`8.0.10`).
    public let name: String?
    /// The release's version codes (several for multi-APK releases).
    public let versionCodes: [VersionCode]
    /// Where the release is: draft, in progress, halted or completed.
    public let status: Status
    /// The fraction of users an `inProgress` release reaches (0 < f < 1).
    public let userFraction: Double?
    /// `inAppUpdatePriority`, 0–5; fixed once the release is rolled out.
    public let inAppUpdatePriority: Int?
    /// Release notes, one per language.
    public let releaseNotes: [Note]

    enum CodingKeys: String, CodingKey {
        case name, versionCodes, status, userFraction, inAppUpdatePriority, releaseNotes
    }

    /// Decodes a release, checking the status, fraction and priority.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        versionCodes = try c.decodeIfPresent([VersionCode].self, forKey: .versionCodes) ?? []
        let statusText = try c.decode(String.self, forKey: .status)
        guard let status = Status(rawValue: statusText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: c,
                debugDescription: "status \(statusText.debugDescription) is not draft, inProgress, halted or completed")
        }
        self.status = status
        userFraction = try c.decodeIfPresent(Double.self, forKey: .userFraction)
        if let fraction = userFraction, !(fraction > 0 && fraction <= 1) {
            throw DecodingError.dataCorruptedError(
                forKey: .userFraction, in: c, debugDescription: "userFraction \(fraction) is outside (0, 1]")
        }
        inAppUpdatePriority = try c.decodeIfPresent(Int.self, forKey: .inAppUpdatePriority)
        if let priority = inAppUpdatePriority, !(0...5).contains(priority) {
            throw DecodingError.dataCorruptedError(
                forKey: .inAppUpdatePriority, in: c,
                debugDescription: "inAppUpdatePriority \(priority) is outside 0...5")
        }
        releaseNotes = try c.decodeIfPresent([Note].self, forKey: .releaseNotes) ?? []
    }

    /// The highest of the release's version codes.
    public var highestVersionCode: VersionCode? { versionCodes.max() }

    /// The release name as a version, when it is one (`8.0.10`; not `8.0.10 (88)`).
    public var version: Version? { name.flatMap { Version($0) } }
}

extension StoreRelease {
    /// The release a Play track release describes.
    ///
    /// The version comes from its name when that is a version; then the highest `versionCode`, the
    /// priority, and the notes in `en-US` (or the first).
    public init(_ release: PlayTrackRelease, packageName: String? = nil) {
        let notes =
            release.releaseNotes.first { $0.language.lowercased().hasPrefix("en") } ?? release.releaseNotes.first
        self.init(
            store: .googlePlay, appID: packageName, bundleID: packageName, name: release.name, version: release.version,
            versionCode: release.highestVersionCode, releaseNotes: notes?.text,
            updatePriority: release.inAppUpdatePriority)
    }
}
