import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Looks apps up in the App Store, correctly and politely.
///
/// Each request has a timeout; 5xx, 429, timeouts and dropped connections are retried with
/// back-off (``RetryPolicy``); a ``RateLimiter`` shared by every lookup keeps within Apple's
/// limit; the body is capped while it is read; nothing is cached. Every failure is an
/// ``HTTPClientError`` that says what happened.
///
/// ```swift
/// let client = try AppStoreLookupClient()
/// let wechat = try await client.lookup(id: 414478124, country: StorefrontCountry("cn"))
/// print(wechat.version?.description ?? "no version")  // 8.0.2
/// ```
public struct AppStoreLookupClient: Sendable {
    /// The host, timeout, retries and body cap the client works under.
    public var configuration: HTTPClientConfiguration { exchange.configuration }
    /// The limiter every lookup of this client waits its turn at (`nil` with no limit).
    ///
    /// A tool asks it how long its work is held back (``RateLimiter/waitRemaining``).
    public var rateLimiter: RateLimiter? { exchange.rateLimiter }
    /// Whether each request carries a unique `_` parameter.
    ///
    /// With it, no cache on the way answers with an old copy.
    public let bustsCaches: Bool
    private let exchange: HTTPExchange

    /// Makes a client.
    ///
    /// - Parameters:
    ///   - configuration: Host, timeout, retries, body cap: Apple's host and 10 s by default
    ///     (``HTTPClientConfiguration/appStoreLookup``).
    ///   - bustsCaches: Whether to add a unique `_` parameter to each request; no by default.
    ///   - transport: The HTTP stack; `URLSession` by default.
    ///   - rateLimiter: Share one limiter between clients that share Apple's limit.
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when the base URL is not `https`
    ///   (or `http` on a loopback address).
    public init(
        configuration: HTTPClientConfiguration = .appStoreLookup, bustsCaches: Bool = false,
        transport: any HTTPTransport = URLSessionTransport(), rateLimiter: RateLimiter = RateLimiter()
    ) throws(HTTPClientError) {
        exchange = try HTTPExchange(
            checking: configuration, transport: transport, rateLimiter: rateLimiter, failure: AppStoreLookupFailure.self
        )
        self.bustsCaches = bustsCaches
    }

    /// Looks one app up by App Store id.
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` when the storefront has no such app.
    public func lookup(id: Int, country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil)
        async throws(HTTPClientError) -> StoreRelease
    {
        guard let release = try await lookup(ids: [id], country: country, entity: entity)[id] else {
            throw .lookup(.notFound(query: "App Store id \(id)", country: country))
        }
        return release
    }

    /// Looks many apps up, in as few requests as the 200-id limit allows.
    ///
    /// The results are matched back to the ids asked for.
    ///
    /// - Returns: The releases found, by id; an id the storefront does not have is absent.
    public func lookup(ids: [Int], country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil)
        async throws(HTTPClientError) -> [Int: StoreRelease]
    {
        var unique: [Int] = []
        var seen: Set<Int> = []
        for id in ids where seen.insert(id).inserted { unique.append(id) }
        guard !unique.isEmpty else { throw .lookup(.invalidRequest("no App Store id given")) }
        var releases: [Int: StoreRelease] = [:]
        var start = 0
        while start < unique.count {
            let batch = Array(unique[start..<min(start + AppStoreLookupRequest.maximumIDsPerRequest, unique.count)])
            start += batch.count
            let request = try AppStoreLookupRequest(
                ids: batch, country: country, entity: entity, cacheBuster: cacheBuster())
            let wanted = Set(batch)
            for result in try await response(for: request).results where wanted.contains(result.trackId) {
                releases[result.trackId] = StoreRelease(result, country: country)
            }
        }
        return releases
    }

    /// Looks an app up by bundle id, and checks the app returned has that bundle id.
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` or
    ///   ``HTTPClientError/Code/otherApp``.
    public func lookup(bundleID: String, country: StorefrontCountry? = nil, entity: AppStoreEntity? = nil)
        async throws(HTTPClientError) -> StoreRelease
    {
        let request = try AppStoreLookupRequest(
            bundleID: bundleID, country: country, entity: entity, cacheBuster: cacheBuster())
        let results = try await response(for: request).results
        guard let result = results.first else {
            throw .lookup(.notFound(query: "bundle id \(bundleID)", country: country))
        }
        guard let match = results.first(where: { $0.bundleId.lowercased() == bundleID.lowercased() }) else {
            throw .lookup(.bundleIDMismatch(asked: bundleID, returned: result.bundleId))
        }
        return StoreRelease(match, country: country)
    }

    /// Sends one request, with the rate limit and retries, and decodes the answer.
    public func response(for request: AppStoreLookupRequest) async throws(HTTPClientError)
        -> AppStoreLookupResponse
    {
        let url = request.url(baseURL: configuration.baseURL)
        let answer = try await exchange.send(
            HTTPRequest(url: url),
            judge: { response -> HTTPExchange.Verdict<AppStoreLookupFailure> in
                let retryAfter = HTTPExchange.retryAfter(response)
                switch response.status {
                case 200: return .success
                case 429: return .retry(.rateLimited(retryAfter: retryAfter), retryAfter: retryAfter)
                case 403 where StrictJSON.firstByte(of: response.body) == nil:
                    return .throttle(.throttled, wait: configuration.retry.throttleWait)
                case 500...599:
                    return .retry(.httpStatus(response.status, url: url.absoluteString), retryAfter: retryAfter)
                default:
                    if let message = Self.errorMessage(in: response.body) {
                        return .fail(.rejected(status: response.status, message: message))
                    }
                    return .fail(.httpStatus(response.status, url: url.absoluteString))
                }
            })
        return try HTTPExchange.decode(AppStoreLookupResponse.self, from: answer, failing: AppStoreLookupFailure.self)
    }

    private func cacheBuster() -> String? {
        bustsCaches ? UUID().uuidString.lowercased() : nil
    }
}

extension AppStoreLookupClient {
    /// The lookup API's own error message (`{"errorMessage": "Invalid value(s) for key(s): [itunesId]"}`),
    /// if the body is one.
    static func errorMessage(in body: Data) -> String? {
        struct Body: Decodable { let errorMessage: String }
        guard let message = try? JSONDecoder().decode(Body.self, from: body).errorMessage, !message.isEmpty else {
            return nil
        }
        return String(message.prefix(500))
    }
}

extension HTTPClientConfiguration {
    /// The App Store lookup's defaults.
    ///
    /// `https://itunes.apple.com`, 10 s, the default retries, 4 MiB (a lookup of 200 apps is well
    /// under 2 MiB).
    public static let appStoreLookup = HTTPClientConfiguration(
        baseURL: AppStoreLookupRequest.defaultBaseURL, timeout: .seconds(10))
}
