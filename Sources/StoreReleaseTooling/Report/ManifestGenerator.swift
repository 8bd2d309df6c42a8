import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Writes the self-hosted ``ReleaseManifest`` the apps read, from what a store serves now.
///
/// `latestVersion` is what users can download there, with the store's release notes, store URL
/// and minimum OS. A minimum supported version is written only when forcing it is safe by the
/// same rules as ``CrossStoreReport``'s gate; otherwise it is left out and ``Result/reasons`` say why.
public struct ManifestGenerator: Sendable {
    /// The manifest, and why a minimum supported version asked for was left out.
    public struct Result: Sendable, Hashable {
        /// The manifest.
        public let manifest: ReleaseManifest
        /// Why the minimum supported version was withheld; empty when it was written (or not asked for).
        public let reasons: [String]
    }

    /// How old a release must be before forcing it is safe.
    public var releaseDelayHours: Double
    /// The time to judge the delay against.
    public var now: Date

    /// Makes a generator.
    public init(releaseDelayHours: Double = 24, now: Date = Date()) {
        self.releaseDelayHours = releaseDelayHours
        self.now = now
    }

    /// The manifest for an App Store release (one storefront's lookup).
    ///
    /// With App Store Connect's status, forcing also waits for its phased release.
    public func appStore(
        _ release: StoreRelease, appStoreConnect: AppStoreConnectStatus? = nil, minimumSupported: Version? = nil
    ) throws(ManifestGeneratorError) -> Result {
        try appStore(storefronts: [release], appStoreConnect: appStoreConnect, minimumSupported: minimumSupported)
    }

    /// The manifest for the App Store across storefronts (a sweep's releases).
    ///
    /// The latest version is the one every storefront serves (the lowest of theirs: a manifest
    /// must not announce a version some users cannot get yet), and forcing waits until every
    /// storefront serves the minimum.
    public func appStore(
        storefronts releases: [StoreRelease], appStoreConnect: AppStoreConnectStatus? = nil,
        minimumSupported: Version? = nil
    ) throws(ManifestGeneratorError) -> Result {
        let versioned = releases.compactMap { release in release.version.map { (release, $0) } }
        guard let (release, latest) = versioned.min(by: { $0.1 < $1.1 }) else { throw .noAppStoreVersion }
        let manifest = ReleaseManifest(
            latestVersion: latest, releaseDate: release.releaseDate,
            releaseNotes: release.releaseNotes.map { ["": $0] } ?? [:], storeURL: release.storeURL,
            minimumOSVersion: release.minimumOSVersion)
        return gated(manifest, minimumSupported) { target in
            ForceGate.reasons(
                forcing: target, ForceGate.Input(appStore: releases, play: nil, appStoreConnect: appStoreConnect),
                releaseDelayHours: releaseDelayHours, now: now)
        }
    }

    /// The manifest for a Play track's live release; with the package name, its Play Store URL.
    ///
    /// It is a version-2 manifest whose `versionNames` name every versionCode of the track's
    /// releases by the version their names carry, so a Play decision knows which change an update is.
    public func googlePlay(_ track: PlayTrack, packageName: String?, minimumSupported: Version? = nil)
        throws(ManifestGeneratorError)
        -> Result
    {
        guard let live = track.liveRelease else { throw .nothingLiveOnPlay(track: track.track) }
        guard let latest = live.version else {
            throw .playNameWithoutVersion(
                track: track.track, name: live.name, versionCode: live.highestVersionCode?.rawValue)
        }
        var notes: [String: String] = [:]
        for note in live.releaseNotes { notes[note.language] = note.text }
        var names: [VersionCode: Version] = [:]
        for release in track.releases {
            guard let version = release.version else { continue }
            for code in release.versionCodes { names[code] = version }
        }
        let manifest = ReleaseManifest(
            latestVersion: latest, releaseNotes: notes,
            storeURL: packageName.flatMap { URL(string: "https://play.google.com/store/apps/details?id=\($0)") },
            versionNames: names)
        return gated(manifest, minimumSupported) { target in
            ForceGate.reasons(
                forcing: target, ForceGate.Input(appStore: [], play: track), releaseDelayHours: releaseDelayHours,
                now: now)
        }
    }

    private func gated(_ manifest: ReleaseManifest, _ minimum: Version?, reasons: (Version) -> [String]) -> Result {
        guard let minimum else { return Result(manifest: manifest, reasons: []) }
        var why = reasons(minimum)
        if minimum > manifest.latestVersion {
            why.insert("\(minimum) is above the latest version, \(manifest.latestVersion)", at: 0)
        }
        guard why.isEmpty else { return Result(manifest: manifest, reasons: why) }
        var withMinimum = manifest
        withMinimum.minimumSupportedVersion = minimum
        return Result(manifest: withMinimum, reasons: [])
    }
}

/// Why a store's state makes no manifest.
public enum ManifestGeneratorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The App Store release has no version.
    case noAppStoreVersion
    /// Play's track has no completed release.
    case nothingLiveOnPlay(track: String)
    /// Play's live release has a name that carries no version.
    case playNameWithoutVersion(track: String, name: String?, versionCode: Int?)
    /// The App Store source holds this many releases, not one storefront's.
    case notOneStorefront(Int)

    /// What is wrong.
    public var description: String {
        switch self {
        case .noAppStoreVersion:
            return "the App Store release has no version"
        case .nothingLiveOnPlay(let track):
            return "nothing is fully rolled out on Play (\(track)), so there is no latest version to write"
        case .playNameWithoutVersion(let track, let name, let versionCode):
            return "Play's live release on \(track) (versionCode \(versionCode.map(String.init) ?? "?")) is named "
                + "\((name ?? "").debugDescription), which carries no version; name releases as Play Console "
                + "does (80 (8.0.2))"
        case .notOneStorefront(let count):
            return "\(count) releases; a manifest is made from one storefront's lookup"
        }
    }
}
