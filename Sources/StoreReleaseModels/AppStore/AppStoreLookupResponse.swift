import StoreReleaseCore

/// The body of an iTunes lookup response: `{"resultCount": 1, "results": [...]}`.
public struct AppStoreLookupResponse: Sendable, Hashable {
    /// The count the API declared; it can disagree with `results` (and then `results` wins).
    public let declaredResultCount: Int?
    /// The apps found, in the order the API sent them.
    public let results: [AppStoreLookupResult]
}

extension AppStoreLookupResponse: Decodable {
    enum CodingKeys: String, CodingKey {
        case resultCount, results
    }

    /// Decodes the body.
    ///
    /// A missing `results` is an error; a missing or wrong `resultCount` is not
    /// (``declaredResultCount`` keeps what was sent).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        declaredResultCount = try container.decodeIfPresent(Int.self, forKey: .resultCount)
        results = try container.decode([AppStoreLookupResult].self, forKey: .results)
    }
}
