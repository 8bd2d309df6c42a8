import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One daily instance of an Analytics Report: the rows Apple processed on `processingDate`.
public struct AnalyticsReportInstance: Sendable, Hashable {
    /// The instance's id.
    public let id: String
    /// The day Apple made it; a newer one replaces an older one's rows for the same `Date`.
    public let processingDate: HealthDate
}

/// An analytics report's file, a tab-separated table with a header row, inflated.
public struct AnalyticsReportTable: Sendable, Hashable {
    /// The column names of the header row, as written (`App Version`).
    public let columns: [String]
    /// The rows, keyed by column name (unknown columns kept, missing ones absent).
    public let rows: [[String: String]]

    /// Reads a segment's text.
    ///
    /// The first line is the header, the delimiter a TAB unless the header has none and has
    /// commas; LF or CRLF; a value's surrounding double quotes dropped.
    public init(text: String) {
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !$0.isEmpty }
        guard !lines.isEmpty else {
            (columns, rows) = ([], [])
            return
        }
        let header = lines.removeFirst()
        let delimiter: Character = header.contains("\t") || !header.contains(",") ? "\t" : ","
        func fields(_ line: String) -> [String] {
            line.split(separator: delimiter, omittingEmptySubsequences: false).map { field in
                var value = field.trimmingCharacters(in: .whitespaces)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                return value
            }
        }
        let names = fields(header)
        columns = names
        rows = lines.map { line in
            var row: [String: String] = [:]
            for (name, value) in zip(names, fields(line)) { row[name] = value }
            return row
        }
    }
}

extension AppStoreConnectClient {
    /// The report names health reads, as Apple's `filter[name]` takes them.
    public enum AnalyticsReportName: String, Sendable, CaseIterable {
        /// Crashes per day, app version, device and OS version.
        case appCrashes = "App Crashes"
        /// Sessions per day, app version and more (the denominator).
        case appSessionsStandard = "App Sessions Standard"
    }

    /// The app's ONGOING analytics report request that still runs, or `nil` when it has none.
    ///
    /// One stopped for inactivity (`stoppedDueToInactivity`) no longer makes reports and does not count.
    public func ongoingReportRequest(appID: String) async throws(HTTPClientError) -> String? {
        struct Attributes: Decodable {
            let accessType: String?
            let stoppedDueToInactivity: Bool?
        }
        typealias Document = AppStoreConnectDocuments.Resources<Attributes>
        try Self.checkAppID(appID)
        let first = try url(
            "/v1/apps/\(BaseURL.component(appID))/analyticsReportRequests?filter%5BaccessType%5D=ONGOING")
        var running: String?
        try await eachPage(first, of: "report requests", app: appID) { (document: Document) in
            running =
                document.data.first {
                    $0.attributes?.accessType == "ONGOING" && $0.attributes?.stoppedDueToInactivity != true
                }?.id
            return running == nil ? document.links?.next : nil
        }
        return running
    }

    /// The id of the request's report of this name (category `APP_USAGE`), or `nil`.
    public func analyticsReport(_ name: AnalyticsReportName, requestID: String) async throws(HTTPClientError)
        -> String?
    {
        struct Attributes: Decodable { let name: String? }
        typealias Document = AppStoreConnectDocuments.Resources<Attributes>
        let path =
            "/v1/analyticsReportRequests/\(BaseURL.component(requestID))/reports?filter%5Bname%5D="
            + BaseURL.component(name.rawValue) + "&filter%5Bcategory%5D=APP_USAGE"
        let document = try HTTPExchange.decode(
            Document.self, from: try await get(try url(path), app: "report request \(redactor(requestID))"),
            failing: AppStoreConnectFailure.self, redactor: redactor)
        return document.data.first { $0.attributes?.name == name.rawValue }?.id
    }

    /// The report's DAILY instances, every page.
    public func dailyInstances(reportID: String) async throws(HTTPClientError) -> [AnalyticsReportInstance] {
        struct Attributes: Decodable {
            let granularity: String?
            let processingDate: String?
        }
        typealias Document = AppStoreConnectDocuments.Resources<Attributes>
        let first = try url(
            "/v1/analyticsReports/\(BaseURL.component(reportID))/instances?filter%5Bgranularity%5D=DAILY&limit=200")
        var instances: [AnalyticsReportInstance] = []
        try await eachPage(first, of: "report instances", app: "report \(redactor(reportID))") {
            (document: Document) throws(HTTPClientError) in
            for item in document.data where item.attributes?.granularity == "DAILY" {
                let text = item.attributes?.processingDate ?? ""
                guard let date = HealthDate(text) else {
                    throw .connect(
                        .exchange(
                            .invalidPayload(
                                "instance \(redactor(item.id)) has processingDate \(redactor(text).debugDescription), "
                                    + "not a date YYYY-MM-DD")))
                }
                instances.append(AnalyticsReportInstance(id: item.id, processingDate: date))
            }
            return document.links?.next
        }
        return instances
    }

    /// Every segment of an instance, downloaded, inflated and read.
    ///
    /// The download goes without the token (the URLs are pre-signed); a segment whose URL has
    /// expired (Apple's last 5 minutes) is asked for again once with fresh URLs.
    public func tables(instanceID: String, maximumSize: Int = 64 << 20) async throws(HTTPClientError)
        -> [AnalyticsReportTable]
    {
        var urls = try await segmentURLs(instanceID: instanceID)
        var tables: [AnalyticsReportTable] = []
        var index = 0
        var refreshed = false
        while index < urls.count {
            do throws(HTTPClientError) {
                tables.append(try await table(at: urls[index], maximumSize: maximumSize))
                index += 1
            } catch {
                guard case .connect(.httpStatus(403, _, _)) = error.reason, !refreshed else { throw error }
                refreshed = true
                urls = try await segmentURLs(instanceID: instanceID)
            }
        }
        return tables
    }

    /// The segments' download URLs, each checked: https (http only on loopback).
    private func segmentURLs(instanceID: String) async throws(HTTPClientError) -> [URL] {
        struct Attributes: Decodable { let url: String? }
        typealias Document = AppStoreConnectDocuments.Resources<Attributes>
        let path = "/v1/analyticsReportInstances/\(BaseURL.component(instanceID))/segments"
        let document = try HTTPExchange.decode(
            Document.self, from: try await get(try url(path), app: "instance \(redactor(instanceID))"),
            failing: AppStoreConnectFailure.self, redactor: redactor)
        return try document.data.map { item throws(HTTPClientError) in
            let text = item.attributes?.url ?? ""
            guard let url = URL(string: text), Origin(url).isSafeForCredentials, Origin(url).hostProblem == nil else {
                let origin = URL(string: text).map { Origin($0).description } ?? "that is not a URL"
                throw .connect(
                    .exchange(
                        .invalidPayload("segment \(redactor(item.id)) has a url at \(redactor(origin)), not https")))
            }
            return url
        }
    }

    /// One segment: fetched without `Authorization`, inflated when it is gzip, read as a table.
    private func table(at url: URL, maximumSize: Int) async throws(HTTPClientError) -> AnalyticsReportTable {
        let shown = Origin(url).description
        let response = try await exchange.send(HTTPRequest(url: url)) {
            response -> HTTPExchange.Verdict<AppStoreConnectFailure> in
            switch response.status {
            case 200...299: return .success
            case 500...599: return .retry(.httpStatus(response.status, code: nil, detail: nil), retryAfter: nil)
            default:
                let detail = Self.storageError(response.body).map { redactor($0) }
                return .fail(.httpStatus(response.status, code: "segment download from \(shown)", detail: detail))
            }
        }
        var body = response.body
        if Gzip.isGzip(body) {
            do throws(Gzip.Failure) {
                body = try Gzip.decompress(body, maximumSize: maximumSize)
            } catch {
                throw .connect(.exchange(.invalidPayload("the report segment from \(shown): \(error)")))
            }
        }
        guard let text = String(data: body, encoding: .utf8) else {
            throw .connect(.exchange(.invalidPayload("the report segment from \(shown) is not UTF-8 text")))
        }
        return AnalyticsReportTable(text: text)
    }

    /// The `<Message>` of a storage service's XML error (`Request has expired`), if there is one.
    private static func storageError(_ body: Data) -> String? {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        guard let start = text.range(of: "<Message>"),
            let end = text.range(of: "</Message>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

}
