import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Reads an app's versions, review states and phased releases from the App Store Connect API.
///
/// Requests carry a bearer token: a ready one, or an ES256 JWT made from an API key
/// (``AppStoreConnectKey``), fresh for each call and made again once when Apple answers 401.
/// Pages are followed through `links.next` (only on the same host), 429 and 5xx are retried with
/// back-off, the body is capped, and the key's hourly budget (`X-Rate-Limit`) is kept in
/// ``rateLimit``. Every failure is an ``HTTPClientError`` without a token in it.
///
/// ```swift
/// let key = try AppStoreConnectKey(
///     keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a",
///     signer: try OpenSSLSigner(keyFile: URL(fileURLWithPath: "AuthKey_2X9R4HXF34.p8")))
/// let connect = try AppStoreConnectClient(credentials: .key(key))
/// let status = try await connect.status(of: .bundleID("com.example.app"), platform: .iOS)
/// print(status.live?.phasedRelease?.percent ?? 100)
/// ```
public struct AppStoreConnectClient: Sendable {
    /// `https://api.appstoreconnect.apple.com`.
    public static let defaultBaseURL = URL(constant: "https://api.appstoreconnect.apple.com")

    /// How requests are authorized.
    public enum Credentials: Sendable {
        /// A token made elsewhere; a 401 is final.
        case token(BearerToken)
        /// An API key: a token is made for each call, and again once on a 401.
        case key(AppStoreConnectKey)
    }

    /// The host, timeout, retries, body cap and page limit the client works under.
    public var configuration: HTTPClientConfiguration { exchange.configuration }
    private let credentials: Credentials
    let exchange: HTTPExchange
    private let state = ClientState()

    /// Makes a client.
    ///
    /// - Parameters:
    ///   - credentials: A token, or an API key to make them.
    ///   - configuration: Host, timeout, retries, body cap, page limit: Apple's host, 30 s and 40
    ///     pages by default (``HTTPClientConfiguration/appStoreConnect``).
    ///   - transport: The HTTP stack; `URLSession` by default.
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when the base URL is not `https`
    ///   (or `http` on a loopback address).
    public init(
        credentials: Credentials, configuration: HTTPClientConfiguration = .appStoreConnect,
        transport: any HTTPTransport = URLSessionTransport()
    ) throws(HTTPClientError) {
        exchange = try HTTPExchange(checking: configuration, transport: transport, failure: AppStoreConnectFailure.self)
        self.credentials = credentials
    }

    /// The key's hourly budget as the last answer gave it, if it did.
    public var rateLimit: RateLimitBudget? { state.budget }

    /// The app's status: its live version with the phased release, and the pending one.
    public func status(of app: AppStoreApp, platform: AppStoreConnectPlatform = .iOS)
        async throws(HTTPClientError) -> AppStoreConnectStatus
    {
        let id = try await appID(of: app)
        return AppStoreConnectStatus(appID: id, versions: try await versions(appID: id, platform: platform))
    }

    /// The App Store id of `app`: its own, or the one Apple has for its bundle id (``appID(bundleID:)``).
    public func appID(of app: AppStoreApp) async throws(HTTPClientError) -> String {
        switch app {
        case .id(let number): String(number)
        case .bundleID(let bundleID): try await appID(bundleID: bundleID)
        }
    }

    /// The App Store id of the app with exactly this bundle id.
    ///
    /// Apple's filter also returns apps whose bundle ids only start with it; those are ignored.
    public func appID(bundleID: String) async throws(HTTPClientError) -> String {
        guard !bundleID.isEmpty,
            bundleID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) })
        else {
            throw .connect(.invalidRequest("\(bundleID.debugDescription) is not a bundle id (such as com.example.app)"))
        }
        let path = "/v1/apps?filter%5BbundleId%5D=" + BaseURL.component(bundleID)
        let response = try await get(try url(path), app: "with bundle id \(bundleID)")
        let apps = try HTTPExchange.decode(
            AppStoreConnectDocuments.Apps.self, from: response, failing: AppStoreConnectFailure.self, redactor: redactor
        )
        guard let app = apps.data.first(where: { $0.attributes?.bundleId == bundleID }) else {
            throw .connect(.appNotFound("with bundle id \(bundleID)"))
        }
        return app.id
    }

    /// Every version of the app on a platform, following the pages, with their phased releases.
    public func versions(appID: String, platform: AppStoreConnectPlatform = .iOS) async throws(HTTPClientError)
        -> [AppStoreVersion]
    {
        try Self.checkAppID(appID)
        let first = try url(
            "/v1/apps/\(BaseURL.component(appID))/appStoreVersions?filter%5Bplatform%5D="
                + BaseURL.component(platform.rawValue) + "&include=appStoreVersionPhasedRelease&limit=200")
        var versions: [AppStoreVersion] = []
        try await eachPage(first, of: "versions", app: appID) { (document: AppStoreConnectDocuments.Versions) in
            versions += document.versions()
            return document.links?.next
        }
        return versions
    }

    /// Where the app is sold: every territory of its `appAvailabilityV2`, available or not.
    ///
    /// Reads the availability, then its territory availabilities page by page (`links.next`,
    /// on the base URL's origin only), with each territory's id (`USA`) mapped to a storefront.
    public func availability(of app: AppStoreApp) async throws(HTTPClientError) -> AppStoreAvailability {
        let appID = try await self.appID(of: app)
        let shownID = redactor(appID)  // from the server when asked by bundle id
        let response = try await get(try url("/v1/apps/\(BaseURL.component(appID))/appAvailabilityV2"), app: shownID)
        let availability = try HTTPExchange.decode(
            AppStoreConnectDocuments.Availability.self, from: response, failing: AppStoreConnectFailure.self,
            redactor: redactor)
        let first = try url(
            "/v2/appAvailabilities/\(BaseURL.component(availability.data.id))/territoryAvailabilities"
                + "?include=territory&limit=200")
        var territories: [AppStoreAvailability.Territory] = []
        try await eachPage(first, of: "territories", app: shownID) {
            (document: AppStoreConnectDocuments.TerritoryAvailabilities) in
            territories += document.territories
            return document.links?.next
        }
        return AppStoreAvailability(
            availableInNewTerritories: availability.data.attributes?.availableInNewTerritories, territories: territories
        )
    }

    // MARK: - Requests

    /// A `links.next` URL, absolute or relative (resolved against the base URL), which must be on
    /// the base URL's origin: a token is never sent anywhere else.
    func nextPage(_ link: String) throws(HTTPClientError) -> URL {
        let base = configuration.baseURL
        let shown = redactor(link).debugDescription
        guard let url = URL(string: link, relativeTo: base)?.absoluteURL else {
            throw .connect(.exchange(.invalidPayload("links.next \(shown) is not a URL")))
        }
        guard Origin(url) == Origin(base) else {
            throw .connect(
                .exchange(
                    .invalidPayload(
                        "links.next \(shown) points at \(redactor(Origin(url).description)), not \(Origin(base)): the "
                            + "token is never sent to another host")))
        }
        return Origin.normalized(url)
    }

    /// Reads the documents from `first` on, page by page while `read` returns a `links.next`
    /// (on the base URL's origin only), at most ``Configuration/maximumPages``.
    func eachPage<Document: Decodable>(
        _ first: URL, of what: String, app: String, _ read: (Document) throws(HTTPClientError) -> String?
    ) async throws(HTTPClientError) {
        var next: URL? = first
        var pages = 0
        while let page = next {
            pages += 1
            guard pages <= configuration.maximumPages else {
                throw .connect(.exchange(.invalidPayload("more than \(configuration.maximumPages) pages of \(what)")))
            }
            let document = try HTTPExchange.decode(
                Document.self, from: try await get(page, app: app), failing: AppStoreConnectFailure.self,
                redactor: redactor)
            next = try read(document).map { link throws(HTTPClientError) in try nextPage(link) }
        }
    }

    /// Refuses an App Store id that is not digits before anything is sent.
    static func checkAppID(_ appID: String) throws(HTTPClientError) {
        guard !appID.isEmpty, appID.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .connect(.invalidRequest("\(appID.debugDescription) is not an App Store id (digits)"))
        }
    }

    /// The base URL followed by `path`.
    func url(_ path: String) throws(HTTPClientError) -> URL {
        guard let url = BaseURL.appending(path, to: configuration.baseURL) else {
            throw .connect(.invalidRequest("cannot make a URL of \(redactor(path).debugDescription)"))
        }
        return url
    }

    /// GETs a URL with the token, a fresh one once after a 401 when the client has a key.
    func get(_ url: URL, app: String) async throws(HTTPClientError) -> HTTPResponse {
        try await send("GET", url, body: nil, app: app)
    }

    /// Sends a request with the token (a JSON `body` when given), a fresh token once after a 401
    /// when the client has a key.
    func send(_ method: String, _ url: URL, body: Data?, app: String) async throws(HTTPClientError) -> HTTPResponse {
        var fresh = false
        while true {
            let token = try currentToken(fresh: fresh)
            var headers = ["Authorization": token.authorizationHeader]
            if body != nil { headers["Content-Type"] = "application/json" }
            let request = HTTPRequest(method: method, url: url, headers: headers, body: body)
            do throws(HTTPClientError) {
                // A write (the phased release's PATCH) is sent once: Apple may have applied it
                // before the answer was lost, so the caller reads it back instead.
                let response = try await exchange.send(request, once: method != "GET") {
                    response -> HTTPExchange.Verdict<AppStoreConnectFailure> in
                    if let budget = RateLimitBudget(header: response.headers["x-rate-limit"]) { state.budget = budget }
                    return judge(response, app: app)
                }
                return response
            } catch {
                guard case .connect(.unauthorized) = error.reason, case .key = credentials, !fresh else { throw error }
                fresh = true
            }
        }
    }

    private func judge(_ response: HTTPResponse, app: String)
        -> HTTPExchange.Verdict<AppStoreConnectFailure>
    {
        if (200...299).contains(response.status) { return .success }
        let entry = AppleErrorDocument.first(in: response.body)
        let detail = (entry?.detail ?? entry?.title).map { redactor($0) }
        let code = entry?.code.map { redactor($0) }
        let retryAfter = HTTPExchange.retryAfter(response)
        switch response.status {
        case 401: return .fail(.unauthorized(detail: detail ?? "no detail"))
        case 403: return .fail(.forbidden(code: code ?? "FORBIDDEN_ERROR", detail: detail ?? "no detail"))
        case 404: return .fail(.appNotFound(app))
        case 429: return .retry(.rateLimited(retryAfter: retryAfter), retryAfter: retryAfter)
        case 500...599: return .retry(.httpStatus(response.status, code: code, detail: detail), retryAfter: retryAfter)
        default: return .fail(.httpStatus(response.status, code: code, detail: detail))
        }
    }

    private func currentToken(fresh: Bool) throws(HTTPClientError) -> BearerToken {
        switch credentials {
        case .token(let token):
            return token
        case .key(let key):
            if !fresh, let cached = state.token(validAt: Date()) { return cached }
            do throws(SigningError) {
                let token = try key.token(now: Date())
                state.store(token, until: Date().addingTimeInterval(600))
                return token
            } catch {
                throw .connect(.signing(error.message))
            }
        }
    }

    /// What every piece of server text goes through on its way into an error: the given token,
    /// or every token made from the key so far.
    var redactor: Redactor {
        switch credentials {
        case .token(let token): return Redactor(tokens: [token])
        case .key: return Redactor(tokens: state.madeTokens)
        }
    }
}

/// What a client learns as it goes: the token it made, and the budget the last answer gave.
private final class ClientState: @unchecked Sendable {
    private let lock = NSLock()
    private var token: BearerToken?
    private var expiry = Date.distantPast
    private var lastBudget: RateLimitBudget?
    private var made: [BearerToken] = []

    var budget: RateLimitBudget? {
        get { lock.withLock { lastBudget } }
        set { lock.withLock { lastBudget = newValue } }
    }

    /// Every token made so far (the last few), for redaction: an answer may echo an older one.
    var madeTokens: [BearerToken] { lock.withLock { made } }

    func token(validAt date: Date) -> BearerToken? {
        lock.withLock { date < expiry ? token : nil }
    }

    func store(_ token: BearerToken, until expiry: Date) {
        lock.withLock {
            self.token = token
            self.expiry = expiry
            made = Array((made + [token]).suffix(4))
        }
    }
}

extension HTTPClientConfiguration {
    /// App Store Connect's defaults.
    ///
    /// ``AppStoreConnectClient/defaultBaseURL``, 30 s, the default retries, 4 MiB, 40 pages.
    public static let appStoreConnect = HTTPClientConfiguration(baseURL: AppStoreConnectClient.defaultBaseURL)
}
