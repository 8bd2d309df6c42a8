import StoreReleaseCore

extension StoreRelease {
    /// The release a Play track release describes.
    ///
    /// The version comes from its name when the name carries one (``PlayReleaseName``); then the
    /// highest `versionCode`, the priority, and the notes in `en-US` (or the first).
    public init(_ release: PlayTrackRelease, packageName: String? = nil) {
        let notes =
            release.releaseNotes.first { $0.language.lowercased().hasPrefix("en") } ?? release.releaseNotes.first
        self.init(
            store: .googlePlay, appID: packageName, bundleID: packageName, name: release.name, version: release.version,
            versionCode: release.highestVersionCode, releaseNotes: notes?.text,
            updatePriority: release.inAppUpdatePriority)
    }
}
