/// Where a ``StoreRelease`` came from.
public struct Store: Sendable, Hashable {
    /// The name used in JSON: `appStore`, `googlePlay` or `manifest`.
    public let name: String

    /// Apple's App Store, through the iTunes lookup API.
    public static let appStore = Store(name: "appStore")
    /// Google Play, through the in-app updates API or the Play Developer API.
    public static let googlePlay = Store(name: "googlePlay")
    /// A self-hosted JSON manifest.
    public static let manifest = Store(name: "manifest")

    /// Every store, in this order.
    public static let allStores: [Store] = [.appStore, .googlePlay, .manifest]

    /// The store's name for people: `App Store`, `Google Play`, `the manifest`.
    public var displayName: String {
        switch name {
        case Store.appStore.name: "App Store"
        case Store.googlePlay.name: "Google Play"
        default: "the manifest"
        }
    }
}

extension Store: CustomStringConvertible {
    /// The JSON ``name``.
    public var description: String { name }
}

extension Store: Codable {
    /// Decodes one of the JSON names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let store = Store.allStores.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(name.debugDescription) is not a store (appStore, googlePlay, manifest)")
        }
        self = store
    }

    /// Encodes the JSON ``name``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
