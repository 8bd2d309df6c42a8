import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One release of one Play track moved from one status to another.
///
/// It is what a halt, a resume or a completion sends through an edit.
/// The change touches that release's `status` (and, when it completes, drops its `userFraction`,
/// which Play refuses on a completed release, and the earlier completed release, which it
/// replaces); every other release, and every other field of this one, is sent back exactly as
/// the edit read it. `edits.tracks.update` replaces the track's whole release list, so a release
/// left out is gone (oppia/oppia-android PR #6338).
public struct PlayReleaseChange: Sendable, Hashable {
    /// The track (`production`).
    public let track: String
    /// The release's versionCodes, which name it on the track.
    public let versionCodes: [VersionCode]
    /// The status it must have when the edit reads it.
    public let from: PlayTrackRelease.Status
    /// The status it is given.
    public let to: PlayTrackRelease.Status
    /// The version the release's name carries, to name it for people (`81 (8.0.10)`).
    public let version: Version?
    /// The `userFraction` it is given (a rollout advanced), in (0, 1); `nil` keeps the one read.
    public let fraction: Double?

    /// Makes a change.
    public init(
        track: String, versionCodes: [VersionCode], from: PlayTrackRelease.Status, to: PlayTrackRelease.Status,
        version: Version? = nil, fraction: Double? = nil
    ) {
        self.track = track
        self.versionCodes = versionCodes
        self.from = from
        self.to = to
        self.version = version
        self.fraction = fraction
    }

    /// The release named as ``PlayTrackRelease/label`` names it: `81 (8.0.10)`.
    public var label: String {
        PlayTrackRelease(name: version?.description, versionCodes: versionCodes, status: from).label
    }

    /// The track to send: `track` as read (the API's JSON) with this release changed.
    ///
    /// - Throws: ``HTTPClientError/Code/conflict`` when the track has no release with these
    ///   versionCodes, or it is not ``from`` (the plan is out of date): nothing is sent.
    public func applied(to track: JSONValue) throws(HTTPClientError) -> JSONValue {
        guard case .object(var members) = track else {
            throw .play(.exchange(.invalidPayload("the track \(self.track.debugDescription) is not a JSON object")))
        }
        let wanted = Set(versionCodes.map(\.description))
        let shown = versionCodes.map(\.description).joined(separator: ", ")
        guard case .array(var releases) = members["releases"] ?? .array([]),
            let index = releases.firstIndex(where: { release in
                guard case .array(let codes) = release["versionCodes"] ?? .null else { return false }
                return Set(codes.compactMap(\.string)) == wanted
            }),
            case .object(var release) = releases[index]
        else {
            throw .play(.releaseChanged("the Play track \(self.track) has no release of versionCodes \(shown) now"))
        }
        let status = release["status"]?.string ?? PlayTrackRelease.Status.statusUnspecified.rawValue
        guard status == from.rawValue else {
            throw .play(
                .releaseChanged(
                    "the Play release of versionCodes \(shown) on \(self.track) is \(status) now, not \(from)"))
        }
        release["status"] = .string(to.rawValue)
        if to == .completed || to == .draft { release["userFraction"] = nil }
        if let fraction, to == .inProgress || to == .halted { release["userFraction"] = .number(fraction) }
        releases[index] = .object(release)
        if to == .completed {
            // One completed release a track: Play refuses a second ("Too many completed releases
            // specified", fastlane #15772), so the new one takes the earlier one's place, as gpc's
            // complete sends it (yasserstudio/gpc, updateRollout).
            releases = releases.enumerated().filter { offset, other in
                offset == index || other["status"]?.string != PlayTrackRelease.Status.completed.rawValue
            }.map(\.element)
        }
        members["releases"] = .array(releases)
        return .object(members)
    }
}
