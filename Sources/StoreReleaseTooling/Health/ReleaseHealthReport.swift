import StoreReleaseCore

/// Both stores' health for a release.
///
/// What `storerelease health` prints, and what the force gate waits for.
public struct ReleaseHealthReport: Sendable, Hashable {
    /// The App Store's, `nil` when no App Store source was read.
    public let appStore: StoreHealth?
    /// Google Play's, `nil` when no Play source was read.
    public let googlePlay: StoreHealth?
    /// The version judged, when one was (not written: each store's candidate names it).
    public let version: Version?

    /// Both stores' health, `nil` for a store not read.
    public init(appStore: StoreHealth?, googlePlay: StoreHealth?, version: Version? = nil) {
        (self.appStore, self.googlePlay, self.version) = (appStore, googlePlay, version)
    }

    /// The stores read, App Store first.
    public var stores: [StoreHealth] { [appStore, googlePlay].compactMap { $0 } }

    /// Whether at least one store was read and every store read is `healthy`.
    public var isHealthy: Bool {
        !stores.isEmpty && stores.allSatisfy { $0.verdict == .healthy }
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case appStore, googlePlay
    }
}

extension ReleaseHealthReport: EveryKeyEncodable {}
