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

    private func newest(_ status: PlayTrackRelease.Status) -> PlayTrackRelease? {
        releases.filter { $0.status == status }.max { $0.sortKey < $1.sortKey }
    }
}
