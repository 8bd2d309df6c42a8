import Foundation

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
        case downloaded, updateInProgress, notAvailable, availabilityUnknown
        case upToDate, installedIsNewer, inReview, osTooOld, belowMinimumSupported, releaseTooRecent
        case forcedByVersionChange, highPriority, staleForTooLong
        case skippedVersion, remindLater, updateTypeNotAllowed, notStaleEnough, updateAvailable
    }

    public let action: Action
    public let reason: Reason
    /// The installed version (or `versionCode` on Play), as given.
    public let installedVersion: String
    /// The store's version (or available `versionCode`), if known.
    public let storeVersion: String?
    public let storeURL: URL?
    public let releaseNotes: String?
}

extension UpdateDecision: Codable {
    enum CodingKeys: String, CodingKey {
        case action, reason, installedVersion, storeVersion, storeURL, releaseNotes
    }

    /// Encodes every key of the contract, `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(action, forKey: .action)
        try c.encode(reason, forKey: .reason)
        try c.encode(installedVersion, forKey: .installedVersion)
        try c.encode(storeVersion, forKey: .storeVersion)
        try c.encode(storeURL?.absoluteString, forKey: .storeURL)
        try c.encode(releaseNotes, forKey: .releaseNotes)
    }
}
