import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Reads an app's vitals from Google's Play Developer Reporting API (v1beta1), read-only.
///
/// - ``freshness(of:packageName:)``: the metric set's newest complete day (`GET …/crashRateMetricSet`).
/// - ``dailyRows(of:packageName:from:to:)``: the user-perceived crash or ANR rate and the distinct
///   users per `versionCode` per day (`POST …:query`, `DAILY` in `America/Los_Angeles`, the only
///   zone Google takes for days; the end clamped to the freshness, since a later one is a 400;
///   every page followed).
/// - ``topIssues(packageName:versionCode:from:to:limit:)``: the version's largest error issues
///   (`GET …/errorIssues:search`; a POST there is a 404 page).
/// - ``versionNames(packageName:)``: the names of the serving releases' `versionCode`s
///   (`GET apps/{package}:fetchReleaseFilterOptions`).
///
/// The token needs the scope ``scope`` (the androidpublisher one is not enough), and the account
/// the Play Console permission to view app quality information. Requests go through a shared
/// limit of 10 a second (Google's default quota for this API), 429 and 5xx are retried with
/// back-off, the body is capped. Every failure is a ``HTTPClientError`` without the
/// token in it. ``PlayVitalsSource`` turns the rows into the days `storerelease health` judges.
public struct PlayDeveloperReportingClient: Sendable {
    /// The OAuth scope a token needs, besides the androidpublisher one for the rest of the tool.
    public static let scope = "https://www.googleapis.com/auth/playdeveloperreporting"

    /// The only time zone Google accepts for `DAILY` rows.
    public static let timeZone = "America/Los_Angeles"

    /// The API's limit: 10 queries a second per Cloud project by default.
    public static let queriesPerSecond = 10

    /// `https://playdeveloperreporting.googleapis.com`.
    public static let defaultBaseURL = URL(constant: "https://playdeveloperreporting.googleapis.com")

    /// The host, timeout, retries, body cap and page limit the client works under.
    public var configuration: HTTPClientConfiguration { exchange.configuration }
    /// The rows asked for a page (Google's maximum is 100,000).
    public let pageSize: Int
    private let token: BearerToken
    private let exchange: HTTPExchange
    private let redactor: Redactor
    private typealias Wire = PlayReportingWire

    /// Makes a client.
    ///
    /// - Parameters:
    ///   - token: The access token every request carries (scope ``scope``).
    ///   - configuration: Host, timeout, retries, body cap and pages of one query: Google's host,
    ///     30 s, 8 MiB and 100 pages by default (``HTTPClientConfiguration/playDeveloperReporting``).
    ///   - pageSize: The rows asked for a page, 1 to 100,000 (10,000 by default).
    ///   - transport: The HTTP stack; `URLSession` by default.
    ///   - rateLimiter: The limit requests wait for; every client given the same one shares its
    ///     10 queries a second.
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` when the base URL is not
    ///   `https` (or `http` on a loopback address).
    public init(
        token: BearerToken, configuration: HTTPClientConfiguration = .playDeveloperReporting, pageSize: Int = 10_000,
        transport: any HTTPTransport = URLSessionTransport(),
        rateLimiter: RateLimiter = RateLimiter(requests: queriesPerSecond, per: .seconds(1))
    ) throws(HTTPClientError) {
        exchange = try HTTPExchange(
            checking: configuration, transport: transport, rateLimiter: rateLimiter,
            failure: PlayDeveloperReportingFailure.self)
        self.token = token
        self.pageSize = max(1, min(pageSize, 100_000))
        redactor = Redactor(tokens: [token])
    }

    /// The first day the metric set has no complete `DAILY` data for.
    ///
    /// Its `latestEndTime`, exclusive, in Los Angeles.
    ///
    /// - Throws: ``HTTPClientError/Code/invalidPayload`` when the answer has no `DAILY` freshness.
    public func freshness(of metric: PlayVitalsMetric, packageName: String) async throws(HTTPClientError)
        -> HealthDate
    {
        let path = try Self.appPath(packageName) + "/" + metric.metricSet
        let set = try decode(Wire.MetricSet.self, from: try await send("GET", path, packageName: packageName))
        guard
            let daily = set.freshnessInfo?.freshnesses?.first(where: { $0.aggregationPeriod == "DAILY" }),
            let end = daily.latestEndTime
        else {
            throw .playReporting(
                .invalidValue("\(metric.metricSet) has no DAILY freshness (freshnessInfo.freshnesses)"))
        }
        return try end.day(field: "\(metric.metricSet).freshnessInfo DAILY latestEndTime")
    }

    /// The rate and distinct users per `versionCode` per day, from `start` up to (not including) `end`.
    ///
    /// `end` is clamped to the metric set's freshness first (Google answers 400 past it); the
    /// rows come in Google's order, every page read.
    ///
    /// - Throws: ``HTTPClientError/Code/invalidPayload`` naming the field when a rate is
    ///   not a decimal fraction 0–1 or a count not a whole number ≥ 0.
    public func dailyRows(of metric: PlayVitalsMetric, packageName: String, from start: HealthDate, to end: HealthDate)
        async throws(HTTPClientError) -> [PlayVitalsRow]
    {
        let fresh = try await freshness(of: metric, packageName: packageName)
        let last = min(end, fresh)
        guard start < last else { return [] }
        let path = try Self.appPath(packageName) + "/" + metric.metricSet + ":query"
        var rows: [PlayVitalsRow] = []
        var pageToken: String?
        var pages = 0
        repeat {
            pages += 1
            guard pages <= configuration.maximumPages else {
                throw .playReporting(
                    .exchange(.invalidPayload("more than \(configuration.maximumPages) pages of \(metric.metricSet)")))
            }
            let request = Wire.Query(
                timelineSpec: .init(aggregationPeriod: "DAILY", startTime: .init(start), endTime: .init(last)),
                dimensions: ["versionCode"], metrics: [metric.rateMetric, "distinctUsers"],
                pageSize: pageSize, pageToken: pageToken)
            let body: Data
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                body = try encoder.encode(request)
            } catch {
                throw .playReporting(.invalidRequest("cannot encode the \(metric.metricSet) query: \(error)"))
            }
            let answer = try decode(
                Wire.QueryAnswer.self, from: try await send("POST", path, packageName: packageName, body: body))
            for row in answer.rows ?? [] { rows.append(try row.vitals(metric)) }
            pageToken = answer.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        return rows
    }

    /// The version's largest error issues between `start` and `end` (exclusive), by distinct users.
    public func topIssues(
        packageName: String, versionCode: VersionCode, from start: HealthDate, to end: HealthDate, limit: Int = 3
    ) async throws(HTTPClientError) -> [PlayErrorIssue] {
        var query: [(String, String)] = [
            ("filter", "versionCode = \(versionCode.rawValue)"), ("orderBy", "distinctUsers desc"),
            ("pageSize", String(max(1, min(limit, 1000)))),
        ]
        for (name, day) in [("startTime", start), ("endTime", end)] {
            query += [
                ("interval.\(name).year", String(day.year)), ("interval.\(name).month", String(day.month)),
                ("interval.\(name).day", String(day.day)), ("interval.\(name).timeZone.id", Self.timeZone),
            ]
        }
        let text = query.map { BaseURL.component($0.0) + "=" + BaseURL.component($0.1) }.joined(separator: "&")
        let path = try Self.appPath(packageName) + "/errorIssues:search?" + text
        let answer = try decode(Wire.Issues.self, from: try await send("GET", path, packageName: packageName))
        return try (answer.errorIssues ?? []).prefix(limit).map { issue throws(HTTPClientError) in
            try issue.issue()
        }
    }

    /// The version names of the `versionCode`s the app's tracks serve, as release filter options name them.
    public func versionNames(packageName: String) async throws(HTTPClientError) -> [VersionCode: String] {
        let path = try Self.appPath(packageName) + ":fetchReleaseFilterOptions"
        let options = try decode(Wire.FilterOptions.self, from: try await send("GET", path, packageName: packageName))
        var names: [VersionCode: String] = [:]
        for track in options.tracks ?? [] {
            for release in track.servingReleases ?? [] {
                guard let name = release.displayName, !name.isEmpty else { continue }
                for text in release.versionCodes ?? [] {
                    guard let number = Int(text), let code = VersionCode(rawValue: number) else {
                        throw .playReporting(
                            .invalidValue(
                                "release \(redactor(name).debugDescription) has versionCode "
                                    + "\(redactor(text).debugDescription), not a versionCode"))
                    }
                    if names[code] == nil { names[code] = name }
                }
            }
        }
        return names
    }

    // MARK: - Requests

    /// Sends one request with retries through the shared limiter; returns a 2xx answer.
    private func send(_ method: String, _ path: String, packageName: String, body: Data? = nil)
        async throws(HTTPClientError) -> HTTPResponse
    {
        guard let url = BaseURL.appending(path, to: configuration.baseURL) else {
            throw .playReporting(.invalidRequest("cannot make a URL of \(redactor(path).debugDescription)"))
        }
        var headers = ["Authorization": token.authorizationHeader]
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        return try await exchange.send(request) { response -> HTTPExchange.Verdict<PlayDeveloperReportingFailure> in
            judge(response, packageName: packageName)
        }
    }

    /// What an answer means: Google's error envelope, typed.
    private func judge(_ response: HTTPResponse, packageName: String)
        -> HTTPExchange.Verdict<PlayDeveloperReportingFailure>
    {
        if (200...299).contains(response.status) { return .success }
        let answer = GoogleErrorAnswer(response, redactor: redactor)
        if response.status == 404, answer.envelope != nil { return .fail(.packageNotFound(packageName)) }
        return answer.verdict()
    }

    private func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(HTTPClientError)
        -> T
    {
        try HTTPExchange.decode(type, from: response, failing: PlayDeveloperReportingFailure.self, redactor: redactor)
    }

    /// `/v1beta1/apps/{package}`, after checking the package name.
    static func appPath(_ packageName: String) throws(HTTPClientError) -> String {
        guard PlayDeveloperAPIClient.isPackageName(packageName) else {
            throw .playReporting(
                .invalidRequest(
                    "\(packageName.debugDescription) is not an Android package name (segments of letters, digits and _ "
                        + "joined by dots, each starting with a letter: com.example.app)"))
        }
        return "/v1beta1/apps/" + BaseURL.component(packageName)
    }
}

extension HTTPClientConfiguration {
    /// The Play Developer Reporting API's defaults.
    ///
    /// Google's host, 30 s, the default retries, 8 MiB (a page of 10,000 rows is about 3 MiB)
    /// and 100 pages of one query.
    public static let playDeveloperReporting = HTTPClientConfiguration(
        baseURL: PlayDeveloperReportingClient.defaultBaseURL, maximumBodySize: 8 << 20, maximumPages: 100)
}
