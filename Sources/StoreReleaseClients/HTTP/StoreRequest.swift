import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// A write to a store's API as it is sent: the method, the path on the API's host and the JSON body.
///
/// The clients build every write through one of these (``PlayDeveloperAPIClient/trackUpdateRequest(_:track:packageName:edit:)``,
/// ``AppStoreConnectClient/phasedReleaseRequest(id:state:)``…), so a plan that shows one before it
/// is applied shows exactly what will go. It never holds a token: those are headers the client adds.
public struct StoreRequest: Sendable, Hashable {
    /// `PUT`, `POST`, `PATCH`…
    public let method: String
    /// The path and query on the API's host (`/androidpublisher/v3/applications/…`).
    public let path: String
    /// The JSON body, or `nil` for none.
    public let body: JSONValue?

    /// Makes a request.
    public init(method: String, path: String, body: JSONValue?) {
        self.method = method
        self.path = path
        self.body = body
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case method, path, body
    }
}

extension StoreRequest: Encodable {
    /// Encodes `{"method", "path", "body"}`, `body` `null` when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(body ?? .null, forKey: .body)
    }
}
