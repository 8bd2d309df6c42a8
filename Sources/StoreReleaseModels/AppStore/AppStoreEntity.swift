import StoreReleaseCore

/// The lookup API's `entity` parameter: which platform's software to return.
public struct AppStoreEntity: Sendable, Hashable {
    /// The parameter's value (`macSoftware`).
    public let value: String

    private init(_ value: String) {
        self.value = value
    }

    /// iPhone and universal apps (the API's default).
    public static let software = AppStoreEntity("software")
    /// iPad apps.
    public static let iPadSoftware = AppStoreEntity("iPadSoftware")
    /// Mac apps; without it a Mac-only app is not found.
    public static let macSoftware = AppStoreEntity("macSoftware")
    /// Apple TV apps.
    public static let tvSoftware = AppStoreEntity("tvSoftware")

    /// Every entity, in this order.
    public static let allEntities: [AppStoreEntity] = [.software, .iPadSoftware, .macSoftware, .tvSoftware]

    /// The entity with a value or platform name, ignoring case.
    ///
    /// Either name works: `software`/`ios`, `ipadSoftware`/`ipad`, `macSoftware`/`mac`,
    /// `tvSoftware`/`tvos`.
    public init?(name: String) {
        let aliases = [
            "ios": "software", "ipad": "ipadsoftware", "mac": "macsoftware", "macos": "macsoftware",
            "tvos": "tvsoftware", "tv": "tvsoftware",
        ]
        let key = name.lowercased()
        let wanted = aliases[key] ?? key
        guard let entity = Self.allEntities.first(where: { $0.value.lowercased() == wanted }) else { return nil }
        self = entity
    }
}
