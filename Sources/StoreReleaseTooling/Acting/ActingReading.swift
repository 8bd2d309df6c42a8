import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// What a plan is made from: a fresh read of each store given, and the manifest.
public struct ActingReading: Sendable, Hashable {
    /// Google Play as read.
    public struct GooglePlay: Sendable, Hashable {
        /// The app.
        public var packageName: String
        /// The track acted on (halt, resume, complete).
        public var track: String
        /// Every track of the app, read through one edit that was deleted.
        public var tracks: [PlayTrack]
        /// The App Recovery actions that target the version's versionCodes (read for recall).
        public var recoveryActions: [PlayRecoveryAction]
        /// The track's edit-free list, each release's review state (read for advance).
        public var reviewStates: [PlayReleaseSummary]

        /// Makes a reading.
        public init(
            packageName: String, track: String, tracks: [PlayTrack], recoveryActions: [PlayRecoveryAction] = [],
            reviewStates: [PlayReleaseSummary] = []
        ) {
            self.packageName = packageName
            self.track = track
            self.tracks = tracks
            self.recoveryActions = recoveryActions
            self.reviewStates = reviewStates
        }

        /// Whether the track has changes Play has not reviewed yet.
        ///
        /// A release `IN_REVIEW`, or not sent for review.
        public var hasChangesInReview: Bool {
            reviewStates.contains { $0.lifecycleState == .inReview || $0.lifecycleState == .notSentForReview }
        }
    }

    /// App Store Connect as read.
    public struct AppStoreConnect: Sendable, Hashable {
        /// The App Store id.
        public var appID: String
        /// The app's versions, with their phased releases.
        public var versions: [AppStoreVersion]

        /// Makes a reading.
        public init(appID: String, versions: [AppStoreVersion]) {
            self.appID = appID
            self.versions = versions
        }
    }

    /// A v2 manifest as read.
    public struct Manifest: Sendable, Hashable {
        /// Its path.
        public var path: String
        /// Its JSON, every key as written.
        public var json: JSONValue
        /// Its content, decoded.
        public var manifest: ReleaseManifest

        /// Makes a reading.
        public init(path: String, json: JSONValue, manifest: ReleaseManifest) {
            self.path = path
            self.json = json
            self.manifest = manifest
        }
    }

    /// Google Play, if given.
    public var googlePlay: GooglePlay?
    /// App Store Connect, if given.
    public var appStoreConnect: AppStoreConnect?
    /// The manifest, if given.
    public var manifest: Manifest?

    /// Makes a reading.
    public init(googlePlay: GooglePlay? = nil, appStoreConnect: AppStoreConnect? = nil, manifest: Manifest? = nil) {
        self.googlePlay = googlePlay
        self.appStoreConnect = appStoreConnect
        self.manifest = manifest
    }
}
