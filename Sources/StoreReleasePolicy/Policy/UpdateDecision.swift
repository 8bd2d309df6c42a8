import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// What the app should do about a release, and why.
public struct UpdateDecision: Sendable, Hashable {
    /// What to do.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// Nothing: no prompt.
        case none
        /// Offer the update; the user may decline (Play's flexible flow, a dismissible alert).
        case flexible
        /// Require the update (Play's immediate flow, a blocking alert).
        case immediate
        /// Play downloaded a flexible update: ask the user to restart (`completeUpdate()`).
        case completeUpdate
        /// Play has an immediate update in progress: show its flow again.
        case resumeImmediate
    }

    /// Why, as a camelCase code (the first rule that matched).
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Play downloaded a flexible update; it waits for `completeUpdate()`.
        case downloaded
        /// Play has an update the app started in progress.
        case updateInProgress
        /// Play says no update is available.
        case notAvailable
        /// Play could not tell whether an update is available.
        case availabilityUnknown
        /// The installed build is not a store install (TestFlight, sandbox, debug): no store prompt.
        case notFromTheStore
        /// The installed version is the store's.
        case upToDate
        /// The installed version is newer than the store's, as a build in App Review is.
        case installedIsNewer
        /// The manifest says a build is in App Review.
        case inReview
        /// The device's OS is older than the release's minimum: the update cannot be installed.
        case osTooOld
        /// The installed version is one the manifest blocks.
        case blockedVersion
        /// The installed version is below the policy's minimum supported version.
        case belowMinimumSupported
        /// The install is outside the manifest's staged rollout of the prompt.
        case notInRollout
        /// The release is younger than the policy's release delay.
        case releaseTooRecent
        /// The update changes a component the policy forces updates on.
        case forcedByVersionChange
        /// Play's priority for the update is at least the policy's immediate priority.
        case highPriority
        /// The update has been available on Play for at least the policy's immediate staleness.
        case staleForTooLong
        /// The policy prompts only for immediate updates, and this one is not.
        case notForced
        /// The change is smaller than the policy's `promptOn`.
        case changeTooSmall
        /// The user skipped this version.
        case skippedVersion
        /// The user chose "later" less than the policy's remind interval ago.
        case remindLater
        /// Play does not allow a flexible update now.
        case updateTypeNotAllowed
        /// The update is not yet as stale as the policy's flexible staleness.
        case notStaleEnough
        /// A newer release is available and nothing holds the prompt back.
        case updateAvailable
    }

    /// What to do.
    public let action: Action
    /// Why: the first rule that matched.
    public let reason: Reason
    /// The installed version (or `versionCode` on Play), as given.
    public let installedVersion: String
    /// The store's version (or available `versionCode`), if known.
    public let storeVersion: String?
    /// Where the update is, when known.
    public let storeURL: URL?
    /// The release notes to show with a prompt, when known.
    public let releaseNotes: String?
    /// Play: why the decision's update type is not allowed as it is, by Play's names.
    ///
    /// `INSUFFICIENT_STORAGE`…; empty when Play named none (and off Play).
    public var failedPreconditions: [String] = []
    /// Play: the flow must be started with `setAllowAssetPackDeletion(true)`.
    ///
    /// Set only when the type is not allowed as it is but is once asset packs may be deleted,
    /// as Google's guide prescribes (try without first).
    public var allowAssetPackDeletion = false
    /// What the decision ignored and why (a malformed `[:mav: …]` tag); empty when nothing.
    public var warnings: [String] = []
}

extension UpdateDecision: Codable, EveryKeyEncodable {
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case action, reason, installedVersion, storeVersion, storeURL, releaseNotes, failedPreconditions
        case allowAssetPackDeletion, warnings
    }

    /// Decodes a decision; the Play keys may be left out (a decision written before them).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        action = try c.decode(Action.self, forKey: .action)
        reason = try c.decode(Reason.self, forKey: .reason)
        installedVersion = try c.decode(String.self, forKey: .installedVersion)
        storeVersion = try c.decodeIfPresent(String.self, forKey: .storeVersion)
        storeURL = try c.decodeIfPresent(URL.self, forKey: .storeURL)
        releaseNotes = try c.decodeIfPresent(String.self, forKey: .releaseNotes)
        failedPreconditions = try c.decodeIfPresent([String].self, forKey: .failedPreconditions) ?? []
        allowAssetPackDeletion = try c.decodeIfPresent(Bool.self, forKey: .allowAssetPackDeletion) ?? false
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
    }

}
