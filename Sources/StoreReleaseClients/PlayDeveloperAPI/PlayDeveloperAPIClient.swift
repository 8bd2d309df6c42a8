import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Reads an app's tracks from the Google Play Developer API (v3), and writes the few changes asked of it.
///
/// Reads never change anything. Two ways in:
/// - ``releases(packageName:track:)``: the edit-free list (`GET …/tracks/{track}/releases`),
///   which opens nothing and is safe to poll, but cannot tell a 20% rollout from a full one.
/// - ``tracks(packageName:)`` and ``track(_:packageName:)``: the tracks with rollout detail,
///   read through an edit that is opened, read and always deleted, on every path (success, a
///   decode failure, an error status, cancellation), and never committed.
///
/// Writes are explicit calls: ``apply(_:packageName:)`` changes one release's status through one
/// edit that is committed or deleted, and the App Recovery calls create and deploy a remote
/// in-app update prompt (``createRecovery(packageName:versionCodes:regions:)``).
///
/// Requests carry `Authorization: Bearer …`; 409, 429 and 5xx are retried with back-off
/// honouring `Retry-After` (``RetryPolicy``); an edit deleted under us is opened again once; the
/// body is capped. Every failure is a ``HTTPClientError`` without the token in it.
///
/// ```swift
/// let play = try PlayDeveloperAPIClient(token: try BearerToken(token))
/// let production = try await play.track("production", packageName: "com.example.app")
/// print(production.liveRelease?.version ?? "no version")
/// ```
public struct PlayDeveloperAPIClient: Sendable {
    /// The OAuth scope a token needs.
    public static let scope = "https://www.googleapis.com/auth/androidpublisher"

    /// `https://androidpublisher.googleapis.com`.
    public static let defaultBaseURL = URL(constant: "https://androidpublisher.googleapis.com")

    /// The host, timeout, retries and body cap the client works under.
    public var configuration: HTTPClientConfiguration { exchange.configuration }
    private let token: BearerToken
    private let exchange: HTTPExchange
    /// What every piece of server text goes through on its way into an error.
    let redactor: Redactor

    /// Makes a client.
    ///
    /// - Parameters:
    ///   - token: The access token every request carries.
    ///   - configuration: Host, timeout, retries, body cap: Google's host and 30 s by default
    ///     (``HTTPClientConfiguration/playDeveloperAPI``).
    ///   - transport: The HTTP stack; `URLSession` by default.
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when the base URL is not `https`
    ///   (or `http` on a loopback address).
    public init(
        token: BearerToken, configuration: HTTPClientConfiguration = .playDeveloperAPI,
        transport: any HTTPTransport = URLSessionTransport()
    ) throws(HTTPClientError) {
        exchange = try HTTPExchange(
            checking: configuration, transport: transport, failure: PlayDeveloperAPIFailure.self)
        self.token = token
        redactor = Redactor(tokens: [token])
    }

    /// Checks that a base URL is `https`, or `http` on a loopback address (for tests).
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` naming the URL.
    public static func validate(baseURL: URL) throws(HTTPClientError) {
        if let problem = BaseURL.problem(with: baseURL) { throw .play(.invalidRequest(problem)) }
    }

    /// The releases of a track from the edit-free list; an empty track has none.
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` (without the app's tracks,
    ///   which only an edit can list) when the app has no such track.
    public func releases(packageName: String, track: String) async throws(HTTPClientError)
        -> [PlayReleaseSummary]
    {
        struct List: Decodable { let releases: [PlayReleaseSummary]? }
        let path = try Self.applicationPath(packageName) + "/tracks/\(try Self.trackSegment(track))/releases"
        guard let body = try await send("GET", path, packageName: packageName, track: track) else { return [] }
        return try decode(List.self, from: body).releases ?? []
    }

    /// Every track of the app, with rollout detail, read through an edit that is then deleted.
    public func tracks(packageName: String) async throws(HTTPClientError) -> [PlayTrack] {
        try await withEdit(packageName) { edit throws(HTTPClientError) in
            try await tracks(inEdit: edit, packageName: packageName)
        }
    }

    /// One track, with rollout detail, read through an edit that is then deleted.
    ///
    /// A track without releases comes back with none (v3 answers `{"track": …}` without
    /// `releases`; the old v2 answered 404 `trackEmpty`).
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` naming the tracks the app
    ///   has (read in the same edit) when it has no track of that name.
    public func track(_ name: String, packageName: String) async throws(HTTPClientError) -> PlayTrack {
        let segment = try Self.trackSegment(name)
        return try await withEdit(packageName) { edit throws(HTTPClientError) in
            do throws(HTTPClientError) {
                guard
                    let body = try await send("GET", edit + "/tracks/\(segment)", packageName: packageName, track: name)
                else { return PlayTrack(track: name, releases: []) }
                return try decode(PlayTrack.self, from: body)
            } catch {
                guard case .play(.trackNotFound(let missing, available: nil)) = error.reason else { throw error }
                let names = try? await tracks(inEdit: edit, packageName: packageName).map { redactor($0.track) }
                throw .play(.trackNotFound(missing, available: names))
            }
        }
    }

    /// Where a track is available (`edits.countryavailability`).
    ///
    /// Read through an edit that is then deleted; country codes come back lower-case.
    ///
    /// - Throws: ``HTTPClientError/Code/notFound`` when the app has no such track.
    public func countryAvailability(track name: String, packageName: String) async throws(HTTPClientError)
        -> PlayCountryAvailability
    {
        struct Answer: Decodable {
            struct Country: Decodable { let countryCode: String? }
            let countries: [Country]?
            let restOfWorld: Bool?
            let syncWithProduction: Bool?
        }
        let segment = try Self.trackSegment(name)
        return try await withEdit(packageName) { edit throws(HTTPClientError) in
            guard
                let body = try await send(
                    "GET", edit + "/countryAvailability/\(segment)", packageName: packageName, track: name)
            else {
                return PlayCountryAvailability(
                    track: name, countries: [], restOfWorld: false, syncWithProduction: false)
            }
            let answer = try decode(Answer.self, from: body)
            return PlayCountryAvailability(
                track: name, countries: (answer.countries ?? []).compactMap { $0.countryCode?.lowercased() },
                restOfWorld: answer.restOfWorld ?? false, syncWithProduction: answer.syncWithProduction ?? false)
        }
    }

    /// The tracks listed in an open edit.
    private func tracks(inEdit edit: String, packageName: String) async throws(HTTPClientError) -> [PlayTrack] {
        struct List: Decodable { let tracks: [PlayTrack]? }
        guard let body = try await send("GET", edit + "/tracks", packageName: packageName) else { return [] }
        return try decode(List.self, from: body).tracks ?? []
    }

    // MARK: - Edits

    /// Opens an edit, runs `read` with its path, and deletes the edit whatever happened; an edit
    /// deleted under us is opened again once.
    func withEdit<T: Sendable>(
        _ packageName: String, _ read: (String) async throws(HTTPClientError) -> T
    ) async throws(HTTPClientError) -> T {
        let application = try Self.applicationPath(packageName)
        var attempt = 1
        while true {
            guard let body = try await send("POST", application + "/edits", packageName: packageName) else {
                throw .play(.exchange(.invalidPayload("the new edit came without an id")))
            }
            let id = try decode(Edit.self, from: body).id
            let editPath = application + "/edits/" + BaseURL.component(id)
            let result: Result<T, HTTPClientError>
            do throws(HTTPClientError) {
                result = .success(try await read(editPath))
            } catch {
                result = .failure(error)
            }
            await deleteEdit(editPath, packageName: packageName)
            switch result {
            case .success(let value):
                return value
            case .failure(let error):
                guard attempt == 1, case .play(.editDeleted) = error.reason else { throw error }
                attempt += 1
            }
        }
    }

    /// The answer to `POST …/edits`.
    struct Edit: Decodable {
        let id: String
    }

    /// Deletes an edit, even when the calling task was cancelled: the DELETE runs in a task of
    /// its own. A failure is not reported (an edit left behind expires by itself).
    func deleteEdit(_ path: String, packageName: String) async {
        let client = self
        await Task.detached {
            _ = try? await client.send("DELETE", path, packageName: packageName)
        }.value
    }

    // MARK: - Requests

    /// Sends one request with retries; returns a 2xx answer with a body, or `nil` for a 204 or
    /// (when it asks for `track`) v2's 404 `trackEmpty`.
    ///
    /// `body` is sent as JSON; without one a `POST` carries `{}` and other verbs nothing. A write
    /// that must not be sent twice (a track update, a commit, an App Recovery create or deploy:
    /// Play may have applied it before the answer was lost) goes with `retrying: false`, so a
    /// 5xx, a 429, a timeout or a dropped connection is reported, never sent again.
    func send(
        _ method: String, _ path: String, body: Data? = nil, packageName: String, track: String? = nil,
        retrying: Bool = true
    ) async throws(HTTPClientError) -> HTTPResponse? {
        guard let url = BaseURL.appending(path, to: configuration.baseURL) else {
            throw .play(.invalidRequest("cannot make a URL of \(redactor(path).debugDescription)"))
        }
        var headers = ["Authorization": token.authorizationHeader]
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(
            method: method, url: url, headers: headers, body: body ?? (method == "POST" ? Data("{}".utf8) : nil))
        var emptyTrack = false
        let response = try await exchange.send(
            request, once: !retrying,
            judge: { response -> HTTPExchange.Verdict<PlayDeveloperAPIFailure> in
                if track != nil, response.status == 404, isEmptyTrack(response) {
                    emptyTrack = true
                    return .success
                }
                return judge(response, packageName: packageName, track: track)
            })
        if emptyTrack || response.status == 204 || response.body.isEmpty { return nil }
        return response
    }

    /// What an answer means: Google's error envelope, typed.
    private func judge(_ response: HTTPResponse, packageName: String, track: String?)
        -> HTTPExchange.Verdict<PlayDeveloperAPIFailure>
    {
        if (200...299).contains(response.status) { return .success }
        let answer = GoogleErrorAnswer(response, redactor: redactor)
        let (message, reasons) = (answer.message, answer.reasons)
        let editDeleted = reasons.contains("editDeleted") || message.contains("This Edit has been deleted")
        switch response.status {
        case 401 where reasons.contains("permissionDenied"):
            return .fail(.notInvited(message: message))
        case 404 where reasons.contains("applicationNotFound") || message.hasPrefix("Package not found"):
            return .fail(.packageNotFound(packageName))
        case 404 where track != nil && message.hasPrefix("Track not found"):
            return .fail(.trackNotFound(track ?? "", available: nil))
        case 400 where editDeleted, 410 where editDeleted:
            return .fail(.editDeleted(message: message))
        case 409:
            return .retry(.conflict(message: message), retryAfter: answer.retryAfter)
        default:
            return answer.verdict()
        }
    }

    /// Whether a 404 is v2's "empty track" (`trackEmpty`, "no APK version codes in the specified
    /// track"); v3's "Track not found: NAME." is a track the app does not have.
    private func isEmptyTrack(_ response: HTTPResponse) -> Bool {
        guard let envelope = GoogleErrorEnvelope.decode(response.body) else { return false }
        return envelope.reasons.contains("trackEmpty") || (envelope.message ?? "").contains("no APK version codes")
    }

    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(HTTPClientError) -> T {
        try HTTPExchange.decode(type, from: response, failing: PlayDeveloperAPIFailure.self, redactor: redactor)
    }

    // MARK: - Names

    /// `/androidpublisher/v3/applications/{package}`, after checking the package name.
    static func applicationPath(_ packageName: String) throws(HTTPClientError) -> String {
        guard isPackageName(packageName) else {
            throw .play(
                .invalidRequest(
                    "\(packageName.debugDescription) is not an Android package name (segments of letters, digits and _ "
                        + "joined by dots, each starting with a letter: com.example.app)"))
        }
        return "/androidpublisher/v3/applications/" + BaseURL.component(packageName)
    }

    /// Whether `name` is an Android application id.
    ///
    /// That is two or more dot-separated segments, each a letter followed by letters, digits or `_`.
    public static func isPackageName(_ name: String) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 255 && segments.count >= 2
            && segments.allSatisfy { segment in
                guard let first = segment.first, first.isASCII, first.isLetter else { return false }
                return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            }
    }

    /// A track name as a path segment, percent-encoded (``BaseURL/component(_:)``, `:` too), after
    /// checking it.
    ///
    /// Play's track id is free text: `production`, `wear:production` (sent as
    /// `wear%3Aproduction`, since Google reads a trailing `:production` as a custom method), or a
    /// custom track such as `Pre-release testing`.
    static func trackSegment(_ track: String) throws(HTTPClientError) -> String {
        guard let problem = problem(withTrack: track) else { return BaseURL.component(track) }
        throw .play(.invalidRequest(problem))
    }

    /// What is wrong with a track name, or `nil` when nothing is.
    ///
    /// A track name is 1 to 100 characters, none of them a control character.
    public static func problem(withTrack track: String) -> String? {
        if track.isEmpty { return "the track name is empty (production, beta, internal, Pre-release testing…)" }
        if track.count > 100 { return "the track name \(track.prefix(20).debugDescription)… is over 100 characters" }
        if track.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the track name \(track.debugDescription) has a control character"
        }
        return nil
    }
}

extension HTTPClientConfiguration {
    /// The Play Developer API's defaults.
    ///
    /// ``PlayDeveloperAPIClient/defaultBaseURL``, 30 s, the default retries, 4 MiB.
    public static let playDeveloperAPI = HTTPClientConfiguration(baseURL: PlayDeveloperAPIClient.defaultBaseURL)
}
