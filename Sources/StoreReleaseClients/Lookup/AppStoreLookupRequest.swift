import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One request to the iTunes lookup API: by App Store ids or by bundle id, in a storefront.
///
/// ```swift
/// let request = try AppStoreLookupRequest(ids: [414478124], country: StorefrontCountry("cn"))
/// print(request.url())  // https://itunes.apple.com/lookup?id=414478124&country=cn
/// ```
public struct AppStoreLookupRequest: Sendable, Hashable {
    /// What to look up.
    public enum Query: Sendable, Hashable {
        /// One or more App Store ids (`trackId`), at most ``AppStoreLookupRequest/maximumIDsPerRequest``.
        case ids([Int])
        /// A bundle identifier (seed 002's way: no App Store id needed).
        case bundleID(String)
    }

    /// The most ids the API takes in one request.
    public static let maximumIDsPerRequest = 200

    /// The default host of the lookup API.
    public static let defaultBaseURL = URL(constant: "https://itunes.apple.com")

    /// What the lookup asks for: App Store ids or a bundle id.
    public let query: Query
    /// The storefront; `nil` lets the API answer for the United States.
    public let country: StorefrontCountry?
    /// The platform; `nil` is the API's default (iPhone and universal apps).
    public let entity: AppStoreEntity?
    /// The `lang` parameter (`ja_jp`, `en_us`): the language of names and release notes.
    public let language: String?
    /// A value sent as the `_` parameter, so no cache between here and Apple answers with an old copy.
    ///
    /// `nil` sends none. Nothing is cached here either.
    public let cacheBuster: String?

    /// A request by App Store ids.
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when the list is empty, an id is not
    ///   positive, or there are more than 200 (use ``AppStoreLookupClient/lookup(ids:country:entity:)``,
    ///   which batches).
    public init(
        ids: [Int], country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil, language: String? = nil,
        cacheBuster: String? = nil
    ) throws(HTTPClientError) {
        guard !ids.isEmpty else { throw .lookup(.invalidRequest("no App Store id given")) }
        if let bad = ids.first(where: { $0 <= 0 }) {
            throw .lookup(.invalidRequest("App Store id \(bad) is not a positive number"))
        }
        guard ids.count <= Self.maximumIDsPerRequest else {
            throw .lookup(
                .invalidRequest("\(ids.count) ids in one request; the API takes at most \(Self.maximumIDsPerRequest)"))
        }
        try self.init(query: .ids(ids), country: country, entity: entity, language: language, cacheBuster: cacheBuster)
    }

    /// A request by bundle identifier.
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when the bundle id is empty or has
    ///   characters a bundle id cannot (letters, digits, `-` and `.` only).
    public init(
        bundleID: String, country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil, language: String? = nil,
        cacheBuster: String? = nil
    ) throws(HTTPClientError) {
        let allowed = bundleID.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == ".")
        }
        guard !bundleID.isEmpty, bundleID.count <= 255, allowed else {
            throw .lookup(
                .invalidRequest(
                    "bundle id \(bundleID.debugDescription) is not a bundle identifier (letters, digits, '-' and '.')"))
        }
        try self.init(
            query: .bundleID(bundleID), country: country, entity: entity, language: language, cacheBuster: cacheBuster)
    }

    private init(
        query: Query, country: StorefrontCountry?, entity: AppStoreEntity?, language: String?, cacheBuster: String?
    ) throws(HTTPClientError) {
        if let language {
            let parts = language.split(separator: "_", omittingEmptySubsequences: false)
            let valid =
                parts.count == 2
                && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isLetter) && $0.allSatisfy(\.isASCII) }
            guard valid else {
                throw .lookup(
                    .invalidRequest("language \(language.debugDescription) is not of the form ja_jp or en_us"))
            }
        }
        self.query = query
        self.country = country
        self.entity = entity
        self.language = language?.lowercased()
        self.cacheBuster = cacheBuster
    }

    /// The request's URL under a base URL (`https://itunes.apple.com` by default).
    ///
    /// Every parameter value is percent-encoded: all but letters, digits and `-._~`, the one rule
    /// every client's values follow.
    public func url(baseURL: URL = AppStoreLookupRequest.defaultBaseURL) -> URL {
        var items: [(String, String)] = []
        switch query {
        case .ids(let ids): items.append(("id", ids.map(String.init).joined(separator: ",")))
        case .bundleID(let bundleID): items.append(("bundleId", bundleID))
        }
        if let country { items.append(("country", country.code)) }
        if let entity { items.append(("entity", entity.value)) }
        if let language { items.append(("lang", language)) }
        if let cacheBuster { items.append(("_", cacheBuster)) }
        let query = items.map { name, value in "\(name)=\(BaseURL.component(value))" }.joined(separator: "&")
        // A valid base URL, a fixed path and percent-encoded values make a valid URL.
        guard let url = BaseURL.appending("/lookup?\(query)", to: baseURL) else {
            preconditionFailure("lookup URL from \(baseURL) and \(query)")
        }
        return url
    }

    /// Checks that a base URL is `https`, or `http` on a loopback address (for tests).
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` naming the URL.
    public static func validate(baseURL: URL) throws(HTTPClientError) {
        if let problem = BaseURL.problem(with: baseURL) { throw .lookup(.invalidRequest(problem)) }
    }
}
