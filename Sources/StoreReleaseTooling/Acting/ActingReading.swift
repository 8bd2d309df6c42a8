import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// What a plan is made from: a fresh read of each store given, and the manifest.
///
/// Each store's part is the record a read of the stores makes (``StoreReading``), so a round of
/// `watch` plans on its own read as it is (``ReleaseActor/reading(from:platform:)``).
public struct ActingReading: Sendable, Hashable {
    /// A v2 manifest as read.
    public struct Manifest: Sendable, Hashable {
        /// Its path.
        public var path: String
        /// Its JSON, every key as written.
        public var json: JSONValue
        /// Its content, decoded.
        public var manifest: ReleaseManifest
    }

    /// Google Play, if given: every track listed (``StoreReading/GooglePlay/tracks``) and the one acted on.
    public var googlePlay: StoreReading.GooglePlay?
    /// App Store Connect, if given: the app's status and its versions.
    public var appStoreConnect: StoreReading.AppStoreConnect?
    /// The manifest, if given.
    public var manifest: Manifest?

    /// Makes a reading.
    public init(
        googlePlay: StoreReading.GooglePlay? = nil, appStoreConnect: StoreReading.AppStoreConnect? = nil,
        manifest: Manifest? = nil
    ) {
        self.googlePlay = googlePlay
        self.appStoreConnect = appStoreConnect
        self.manifest = manifest
    }
}
