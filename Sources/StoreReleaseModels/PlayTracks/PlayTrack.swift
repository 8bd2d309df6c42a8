import Foundation
import StoreReleaseCore

/// A track of the Google Play Developer API (`edits.tracks`) and its releases.
///
/// Tracks are `production`, `beta`, `internal`…; they decode tolerantly (unknown keys ignored)
/// with clear errors, and encode back in the API's shape (`{"track": …, "releases": […]}`).
///
/// Decodes one track and the list the API returns (`{"tracks": […]}`) alike, through
/// ``PlayTrack/decodeTracks(from:)``.
public struct PlayTrack: Sendable, Hashable, Codable {
    /// The track's name (`production`; a form factor may prefix it: `wear:production`).
    public let track: String
    /// Its releases, as the API lists them.
    public let releases: [PlayTrackRelease]

    enum CodingKeys: String, CodingKey {
        case track, releases
    }

    /// Makes a track.
    public init(track: String, releases: [PlayTrackRelease]) {
        self.track = track
        self.releases = releases
    }

    /// Decodes a track; a track without releases has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        track = try c.decode(String.self, forKey: .track)
        releases = try c.decodeIfPresent([PlayTrackRelease].self, forKey: .releases) ?? []
    }

    /// Encodes the track as the API writes it; an empty track has `"releases": []`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(track, forKey: .track)
        try c.encode(releases, forKey: .releases)
    }

    /// Decodes one track or a `{"tracks": […]}` list.
    public static func decodeTracks(from data: Data) throws -> [PlayTrack] {
        struct List: Decodable { let tracks: [PlayTrack]? }
        try StrictJSON.check(data)
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["track"] == nil {
            return try JSONDecoder().decode(List.self, from: data).tracks ?? []
        }
        return [try JSONDecoder().decode(PlayTrack.self, from: data)]
    }

    /// The release every user of this track gets: the `completed` one with the highest `versionCode`.
    public var liveRelease: PlayTrackRelease? {
        newest(.completed)
    }

    /// The release being rolled out to a fraction of users (`inProgress`), if any.
    public var rollout: PlayTrackRelease? {
        newest(.inProgress)
    }

    /// The releases whose rollout was stopped (`halted`), newest first: nobody new gets them.
    public var haltedReleases: [PlayTrackRelease] {
        releases.filter { $0.status == .halted }.sorted { $0.sortKey > $1.sortKey }
    }

    /// The release of this track that stands for `version`: the one serving users.
    ///
    /// A version can be carried by several releases of a track (a rebuilt binary: `81`
    /// `inProgress` and a draft `82` named alike). The one acted on is the one users get
    /// (`inProgress` or `completed`), then a `halted` one (it served users and may again), then
    /// any other (a draft is "the release" only when nothing else carries the version); among
    /// equals, the highest versionCode.
    ///
    /// - Returns: `nil` when no release of the track carries `version`.
    public func release(of version: Version) -> PlayTrackRelease? {
        func rank(_ release: PlayTrackRelease) -> Int {
            release.isServing ? 2 : release.status == .halted ? 1 : 0
        }
        return releases.filter { $0.version == version }.max { a, b in
            (rank(a), a.sortKey) < (rank(b), b.sortKey)
        }
    }

    private func newest(_ status: PlayTrackRelease.Status) -> PlayTrackRelease? {
        releases.filter { $0.status == status }.max { $0.sortKey < $1.sortKey }
    }
}
