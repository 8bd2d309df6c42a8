import StoreReleaseCore

/// A release as the Play Developer API's edit-free list describes it.
///
/// The list is `GET …/tracks/{track}/releases`.
/// The list opens no edit, so it is safe to poll; it says whether a release is published but not
/// how far its rollout has gone (a 20% rollout, a completed one and a halted one are all
/// ``LifecycleState/published``).
public struct PlayReleaseSummary: Sendable, Hashable, Codable {
    /// Where a release is in its life, as the API names it; values the API adds later are kept.
    public struct LifecycleState: OpenStringValue {
        /// The API's name (`RELEASE_LIFECYCLE_STATE_PUBLISHED`).
        public let rawValue: String

        /// Wraps a state's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The API's unset value.
        public static let unspecified = Self(rawValue: "RELEASE_LIFECYCLE_STATE_UNSPECIFIED")
        /// Being prepared; not sent for review.
        public static let draft = Self(rawValue: "RELEASE_LIFECYCLE_STATE_DRAFT")
        /// Ready, but not sent for review yet.
        public static let notSentForReview = Self(rawValue: "RELEASE_LIFECYCLE_STATE_NOT_SENT_FOR_REVIEW")
        /// In Google's review.
        public static let inReview = Self(rawValue: "RELEASE_LIFECYCLE_STATE_IN_REVIEW")
        /// Approved, waiting to be published (managed publishing).
        public static let approvedNotPublished = Self(rawValue: "RELEASE_LIFECYCLE_STATE_APPROVED_NOT_PUBLISHED")
        /// Rejected in review.
        public static let notApproved = Self(rawValue: "RELEASE_LIFECYCLE_STATE_NOT_APPROVED")
        /// Published: rolled out fully or in part, or halted and resumable.
        public static let published = Self(rawValue: "RELEASE_LIFECYCLE_STATE_PUBLISHED")
    }

    /// The release name (`81 (8.0.10)`).
    public let releaseName: String?
    /// The versionCodes of the release's active artifacts.
    public let versionCodes: [VersionCode]
    /// Where the release is in its life.
    public let lifecycleState: LifecycleState

    /// Makes a summary.
    public init(releaseName: String?, versionCodes: [VersionCode], lifecycleState: LifecycleState) {
        self.releaseName = releaseName
        self.versionCodes = versionCodes
        self.lifecycleState = lifecycleState
    }

    private struct Artifact: Codable {
        let versionCode: VersionCode
    }

    enum CodingKeys: String, CodingKey {
        case releaseName, activeArtifacts, releaseLifecycleState
    }

    /// Decodes a summary; `versionCode` is an integer here (a string is accepted too).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        releaseName = try c.decodeIfPresent(String.self, forKey: .releaseName)
        versionCodes = try c.decodeIfPresent([Artifact].self, forKey: .activeArtifacts)?.map(\.versionCode) ?? []
        lifecycleState = try c.decodeIfPresent(LifecycleState.self, forKey: .releaseLifecycleState) ?? .unspecified
    }

    /// Encodes the summary in the API's shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(releaseName, forKey: .releaseName)
        try c.encode(versionCodes.map(Artifact.init(versionCode:)), forKey: .activeArtifacts)
        try c.encode(lifecycleState, forKey: .releaseLifecycleState)
    }

    /// The version its name carries (``PlayReleaseName``), or `nil`.
    public var version: Version? { PlayReleaseName.version(in: releaseName, versionCodes: versionCodes) }

    /// Whether the release carries `wanted` (or newer) or `versionCode` (or higher), whatever its state.
    public func carries(version wanted: Version?, versionCode: VersionCode?) -> Bool {
        PlayReleaseName.carries(version: version, versionCodes: versionCodes, wanted: wanted, versionCode: versionCode)
    }

    /// Whether the release carries `version` (by its name) or `versionCode`, and is published.
    public func isPublished(version wanted: Version?, versionCode: VersionCode?) -> Bool {
        lifecycleState == .published && carries(version: wanted, versionCode: versionCode)
    }
}
