import StoreReleaseCore
import StoreReleaseModels

extension ReleaseManifest {
    /// The policy with the manifest's `minimumSupportedVersion`, when it has one.
    public func policy(merging policy: UpdatePolicy) -> UpdatePolicy {
        var merged = policy
        if let minimumSupportedVersion { merged.minimumSupportedVersion = minimumSupportedVersion }
        return merged
    }
}

extension UpdatePolicy {
    /// Decides about a manifest's release.
    ///
    /// The decision is `none` / `inReview` while the manifest says the app is in review, otherwise
    /// the rules of ``decide(release:installed:context:)`` with the manifest's minimum supported
    /// version, and (version 2) its blocked versions and the staged rollout of the prompt, by
    /// ``UpdateContext/installID``.
    public func decide(
        manifest: ReleaseManifest, installed: Version, context: UpdateContext = UpdateContext(),
        preferredLanguages: [String] = ["en"]
    ) -> UpdateDecision {
        let release = manifest.release(preferredLanguages: preferredLanguages)
        guard !manifest.inReview else {
            return UpdateDecision(
                action: .none, reason: .inReview, installedVersion: installed.description,
                storeVersion: manifest.latestVersion.description, storeURL: release.storeURL,
                releaseNotes: release.releaseNotes)
        }
        let rules = ManifestRules(
            blocked: manifest.blockedVersions,
            inRollout: manifest.rollout?.includes(installID: context.installID, latestVersion: manifest.latestVersion)
                ?? true)
        return manifest.policy(merging: self).decide(
            release: release, installed: installed, context: context, manifest: rules)
    }
}
