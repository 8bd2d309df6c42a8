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

/// An analytics report's file, a tab-separated table with a header row, inflated and held whole.
///
/// For a small file (a test's); the client reads segments row by row
/// (``AppStoreConnectClient/eachRow(instanceID:maximumSize:maximumSegments:_:)``), never as a table.
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
        var reader = AnalyticsReportReader()
        let read = reader.read(text.utf8) + reader.finish()
        columns = reader.columns
        rows = read.map { row in
            var values: [String: String] = [:]
            for (name, value) in zip(row.columns, row.values) { values[name] = value }
            return values
        }
    }
}

/// One row of an analytics report's file: its values, read by column name.
public struct AnalyticsReportRow: Sendable, Hashable {
    /// The header's column names, as written.
    public let columns: [String]
    /// The row's values in the columns' order (fewer when the row is short).
    public let values: [String]
    /// Each column's place; the last one when a name repeats.
    let places: [String: Int]

    /// The value in the column named `column`, or `nil` when the header or the row has none.
    public subscript(column: String) -> String? {
        guard let place = places[column], place < values.count else { return nil }
        return values[place]
    }
}

/// Reads a report file's lines as they are inflated: the header, then a row a line, each handed
/// on as soon as its line is complete, so only one line is held.
///
/// LF or CRLF, empty lines skipped; the delimiter a TAB unless the header has none and has
/// commas; a value's surrounding white space and double quotes dropped.
struct AnalyticsReportReader {
    /// The longest line read: far more than any report's row.
    static let maximumLineLength = 1 << 20

    private var line: [UInt8] = []
    private var header: (columns: [String], places: [String: Int], delimiter: Character)?
    /// What is wrong with the file, once something is; nothing more is read then.
    private(set) var problem: String?

    /// The header's column names, empty before it was read.
    var columns: [String] { header?.columns ?? [] }

    /// Reads `bytes`: the rows whose lines they complete.
    mutating func read<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [AnalyticsReportRow] {
        var rows: [AnalyticsReportRow] = []
        var start = bytes.startIndex
        while problem == nil, start != bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let piece = bytes[start..<(end ?? bytes.endIndex)]
            guard line.count + piece.count <= Self.maximumLineLength else {
                problem = "a line is longer than \(Self.maximumLineLength) bytes"
                break
            }
            line.append(contentsOf: piece)
            guard let end else { break }
            if let row = complete() { rows.append(row) }
            start = bytes.index(after: end)
        }
        return rows
    }

    /// The last line's row, if the file does not end with a line break.
    mutating func finish() -> [AnalyticsReportRow] {
        guard problem == nil, let row = complete() else { return [] }
        return [row]
    }

    /// The row of the line read, `nil` for an empty line or the header.
    private mutating func complete() -> AnalyticsReportRow? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { return nil }
        guard let text = String(bytes: line, encoding: .utf8) else {
            problem = "a line is not UTF-8 text"
            return nil
        }
        guard let header else {
            let delimiter: Character = text.contains("\t") || !text.contains(",") ? "\t" : ","
            let columns = Self.fields(text, delimiter)
            var places: [String: Int] = [:]
            for (place, name) in columns.enumerated() { places[name] = place }
            self.header = (columns, places, delimiter)
            return nil
        }
        return AnalyticsReportRow(
            columns: header.columns, values: Self.fields(text, header.delimiter), places: header.places)
    }

    private static func fields(_ line: String, _ delimiter: Character) -> [String] {
        line.split(separator: delimiter, omittingEmptySubsequences: false).map { field in
            let padded = (field.first?.isWhitespace ?? false) || (field.last?.isWhitespace ?? false)
            var value = padded ? field.trimmingCharacters(in: .whitespaces) : String(field)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
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

    /// The most segments an instance is read in, by default.
    ///
    /// Apple splits a large day into a few; hundreds are not a report.
    public static let defaultMaximumSegments = 100

    /// Every row of an instance's segments, handed to `row` one at a time as each segment is inflated.
    ///
    /// Memory stays bounded whatever a segment inflates to: a segment's compressed body (at most
    /// the body cap), 32 KiB of inflated history and one line are held, never the file. The
    /// download goes without the token (the URLs are pre-signed); a segment whose URL has expired
    /// (Apple's last 5 minutes) is asked for again once with fresh URLs. A segment's rows are
    /// handed on before its checksum is checked: when this throws, drop what `row` made of them.
    ///
    /// - Parameters:
    ///   - instanceID: The daily instance read.
    ///   - maximumSize: The most a segment may inflate to (64 MiB by default).
    ///   - maximumSegments: The most segments the instance may have (``defaultMaximumSegments``).
    ///   - row: Takes a row; what it throws stops the reading and is thrown.
    /// - Throws: ``HTTPClientError``; ``HTTPClientError/Code/invalidPayload`` naming the segment for
    ///   more segments than `maximumSegments`, a file that is not gzip'd UTF-8 text, a line past
    ///   1 MiB, or a segment past `maximumSize`.
    public func eachRow(
        instanceID: String, maximumSize: Int = 64 << 20, maximumSegments: Int = defaultMaximumSegments,
        _ row: (AnalyticsReportRow) throws(HTTPClientError) -> Void
    ) async throws(HTTPClientError) {
        var urls = try await segmentURLs(instanceID: instanceID, maximumSegments: maximumSegments)
        var index = 0
        var refreshed = false
        while index < urls.count {
            let body: Data
            do throws(HTTPClientError) {
                body = try await segment(at: urls[index])
            } catch {
                guard case .connect(.httpStatus(403, _, _)) = error.reason, !refreshed else { throw error }
                refreshed = true
                urls = try await segmentURLs(instanceID: instanceID, maximumSegments: maximumSegments)
                continue
            }
            try read(body, from: urls[index], maximumSize: maximumSize, row)
            index += 1
        }
    }

    /// The segments' download URLs, each checked: https (http only on loopback).
    private func segmentURLs(instanceID: String, maximumSegments: Int) async throws(HTTPClientError) -> [URL] {
        struct Attributes: Decodable { let url: String? }
        typealias Document = AppStoreConnectDocuments.Resources<Attributes>
        let path = "/v1/analyticsReportInstances/\(BaseURL.component(instanceID))/segments"
        let document = try HTTPExchange.decode(
            Document.self, from: try await get(try url(path), app: "instance \(redactor(instanceID))"),
            failing: AppStoreConnectFailure.self, redactor: redactor)
        guard document.data.count <= maximumSegments else {
            throw .connect(
                .exchange(
                    .invalidPayload(
                        "instance \(redactor(instanceID)) lists \(document.data.count) segments, more than the "
                            + "\(maximumSegments) read")))
        }
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

    /// One segment's body, fetched without `Authorization`.
    private func segment(at url: URL) async throws(HTTPClientError) -> Data {
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
        return response.body
    }

    /// A segment's rows, inflated a piece at a time when it is gzip, handed to `row` as they are read.
    private func read(
        _ body: Data, from url: URL, maximumSize: Int, _ row: (AnalyticsReportRow) throws(HTTPClientError) -> Void
    ) throws(HTTPClientError) {
        let shown = Origin(url).description
        var reader = AnalyticsReportReader()
        var failure: HTTPClientError?
        func take(_ rows: [AnalyticsReportRow]) {
            for next in rows where failure == nil {
                do throws(HTTPClientError) { try row(next) } catch { failure = error }
            }
        }
        if Gzip.isGzip(body) {
            do throws(Gzip.Failure) {
                try Gzip.inflate(body, maximumSize: maximumSize) { piece in
                    if failure == nil { take(reader.read(piece)) }
                }
            } catch {
                throw .connect(.exchange(.invalidPayload("the report segment from \(shown): \(error)")))
            }
        } else {
            take(reader.read(body))
        }
        take(reader.finish())
        if let failure { throw failure }
        if let problem = reader.problem {
            throw .connect(.exchange(.invalidPayload("the report segment from \(shown): \(problem)")))
        }
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
