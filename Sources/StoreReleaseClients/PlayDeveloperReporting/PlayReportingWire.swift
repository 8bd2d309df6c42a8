import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The Play Developer Reporting API's JSON, as much of it as health reads and sends.
enum PlayReportingWire {
    /// `google.type.DateTime`: a day (with the zone) for `DAILY`.
    struct DateTime: Codable {
        struct Zone: Codable { let id: String? }
        let year: Int?
        let month: Int?
        let day: Int?
        let timeZone: Zone?

        /// A day in Los Angeles, hours and smaller left unset (Google refuses them for `DAILY`).
        init(_ day: HealthDate) {
            (year, month, self.day) = (day.year, day.month, day.day)
            timeZone = Zone(id: PlayDeveloperReportingClient.timeZone)
        }

        /// The calendar day, or an error naming `field`.
        func day(field: String) throws(HTTPClientError) -> HealthDate {
            guard let year, let month, let day,
                let date = HealthDate(String(format: "%04d-%02d-%02d", year, month, day))
            else {
                throw .playReporting(
                    .invalidValue(
                        "\(field) is not a calendar day (year \(year.map(String.init) ?? "none"), "
                            + "month \(month.map(String.init) ?? "none"), day \(day.map(String.init) ?? "none"))"))
            }
            return date
        }
    }

    /// `google.type.Decimal`.
    struct Decimal: Decodable { let value: String? }

    struct MetricSet: Decodable {
        struct Info: Decodable { let freshnesses: [Freshness]? }
        struct Freshness: Decodable {
            let aggregationPeriod: String?
            let latestEndTime: DateTime?
        }
        let freshnessInfo: Info?
    }

    struct Query: Encodable {
        struct Timeline: Encodable {
            let aggregationPeriod: String
            let startTime: DateTime
            let endTime: DateTime
        }
        let timelineSpec: Timeline
        let dimensions: [String]
        let metrics: [String]
        let pageSize: Int
        let pageToken: String?
    }

    struct QueryAnswer: Decodable {
        struct Row: Decodable {
            struct Dimension: Decodable {
                let dimension: String?
                let int64Value: String?
                let stringValue: String?
            }
            struct Metric: Decodable {
                let metric: String?
                let decimalValue: Decimal?
            }
            let startTime: DateTime?
            let dimensions: [Dimension]?
            let metrics: [Metric]?

            /// The row as a ``PlayVitalsRow``, each value checked and a bad one named.
            func vitals(_ kind: PlayVitalsMetric) throws(HTTPClientError) -> PlayVitalsRow {
                guard let startTime else {
                    throw .playReporting(.invalidValue("a \(kind.metricSet) row has no startTime"))
                }
                let date = try startTime.day(field: "a \(kind.metricSet) row's startTime")
                let dimension = dimensions?.first { $0.dimension == "versionCode" }
                guard let text = dimension?.int64Value ?? dimension?.stringValue, let number = Int(text),
                    let code = VersionCode(rawValue: number)
                else {
                    let shown = (dimension?.int64Value ?? dimension?.stringValue).map(\.debugDescription) ?? "none"
                    throw .playReporting(
                        .invalidValue(
                            "the \(kind.metricSet) row of \(date) has versionCode \(shown), not a versionCode"))
                }
                let place = "\(kind.metricSet) row of \(date), versionCode \(code.rawValue)"
                func value(_ name: String) throws(HTTPClientError) -> Double {
                    guard let text = metrics?.first(where: { $0.metric == name })?.decimalValue?.value else {
                        throw .playReporting(.invalidValue("\(name) is missing in the \(place)"))
                    }
                    guard let number = PlayReportingWire.decimal(text) else {
                        throw .playReporting(
                            .invalidValue("\(name) \(text.debugDescription) in the \(place) is not a decimal"))
                    }
                    return number
                }
                let rate = try value(kind.rateMetric)
                guard (0...1).contains(rate) else {
                    throw .playReporting(
                        .invalidValue("\(kind.rateMetric) \(rate) in the \(place) is not a fraction between 0 and 1"))
                }
                let users = try value("distinctUsers")
                guard users >= 0, users == users.rounded(), users <= Double(HealthDay.maximumCount) else {
                    throw .playReporting(
                        .invalidValue("distinctUsers \(users) in the \(place) is not a count of users"))
                }
                return PlayVitalsRow(date: date, versionCode: code, rate: rate, distinctUsers: Int(users))
            }
        }
        let rows: [Row]?
        let nextPageToken: String?
    }

    struct Issues: Decodable {
        struct Issue: Decodable {
            let type: String?
            let cause: String?
            let location: String?
            let distinctUsers: String?
            let errorReportCount: String?
            let issueUri: String?

            func issue() throws(HTTPClientError) -> PlayErrorIssue {
                func count(_ name: String, _ text: String?) throws(HTTPClientError) -> Int {
                    guard let text else { return 0 }
                    guard let value = Int(text), value >= 0 else {
                        throw .playReporting(
                            .invalidValue("an error issue's \(name) \(text.debugDescription) is not a count"))
                    }
                    return value
                }
                return PlayErrorIssue(
                    type: type ?? "ERROR_TYPE_UNSPECIFIED", cause: cause ?? "", location: location ?? "",
                    distinctUsers: try count("distinctUsers", distinctUsers),
                    errorReportCount: try count("errorReportCount", errorReportCount), issueURI: issueUri ?? "")
            }
        }
        let errorIssues: [Issue]?
    }

    struct FilterOptions: Decodable {
        struct Track: Decodable {
            struct Release: Decodable {
                let displayName: String?
                let versionCodes: [String]?
            }
            let servingReleases: [Release]?
        }
        let tracks: [Track]?
    }

    /// A decimal as Google writes it (`0.0231`, `1.5E-3`, `130`), or `nil` for anything else
    /// (`NaN`, `Infinity`, a hex float, white space).
    static func decimal(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.count, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
