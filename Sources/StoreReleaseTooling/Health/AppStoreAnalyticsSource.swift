import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// The App Store's health numbers for one app: App Store Connect's Analytics Reports, read only.
///
/// The app's ONGOING report request, its `App Crashes` and `App Sessions Standard` reports'
/// DAILY instances, their segments (gzip, tab-separated, a header row): Σ`Crashes` over
/// Σ`Sessions` per app version per day, a day's rows taken from the newest `processingDate` that
/// has that day (a later instance restates earlier days; instances are never added up). A day
/// whose crash rows are missing (Apple leaves out rows fewer than five users made) is left out,
/// never counted as no crashes, and said so. Segments are read row by row as they are inflated
/// (memory stays bounded whatever their size) and every sum is checked: a day's sessions or
/// crashes past ``HealthDay/maximumCount`` are a report that is not Apple's, named, never a crash.
public struct AppStoreAnalyticsSource: Sendable {
    /// What the reports hold for the app.
    public enum Reading: Sendable, Hashable {
        /// The days read, and what was left out, one sentence each.
        case days([HealthDay], notes: [String])
        /// Nothing to read; the sentence says why and what to do (no request, no daily instances).
        case notCollecting(String)
    }

    /// The client, with its credentials.
    public let client: AppStoreConnectClient
    /// The app's App Store id.
    public let appID: String

    /// Makes the source.
    public init(client: AppStoreConnectClient, appID: String) {
        (self.client, self.appID) = (client, appID)
    }

    /// What to do when the app has no report request: the one write this tool never makes.
    public var startCollecting: String {
        "App Store Connect collects no analytics reports for app \(appID): an Admin's API key must create an "
            + "ONGOING report request once (POST /v1/analyticsReportRequests with {\"data\": {\"type\": "
            + "\"analyticsReportRequests\", \"attributes\": {\"accessType\": \"ONGOING\"}, \"relationships\": "
            + "{\"app\": {\"data\": {\"type\": \"apps\", \"id\": \"\(appID)\"}}}}}); the first reports come 24 to 48 hours "
            + "later (storerelease only reads, it never creates the request)"
    }

    /// Reads both reports and joins them per day and version.
    public func read() async throws(HTTPClientError) -> Reading {
        guard let request = try await client.ongoingReportRequest(appID: appID) else {
            return .notCollecting(startCollecting)
        }
        var counts: [AppStoreConnectClient.AnalyticsReportName: [HealthDate: [Version: Int]]] = [:]
        var notes: [String] = []
        for name in AppStoreConnectClient.AnalyticsReportName.allCases {
            guard let report = try await client.analyticsReport(name, requestID: request) else {
                return .notCollecting("the analytics report request of app \(appID) has no \(name.rawValue) report yet")
            }
            let instances = try await client.dailyInstances(reportID: report)
            guard !instances.isEmpty else {
                return .notCollecting(
                    "\(name.rawValue) of app \(appID) has no DAILY instance (Apple may offer it monthly only, or "
                        + "the request is younger than 48 hours)")
            }
            let column = name == .appCrashes ? "Crashes" : "Sessions"
            var newest: [HealthDate: (processed: HealthDate, versions: [Version: Int])] = [:]
            for instance in instances.sorted(by: { $0.processingDate < $1.processingDate }) {
                var days: [HealthDate: [Version: Int]] = [:]
                var pairs = 0
                try await client.eachRow(instanceID: instance.id) { row throws(HTTPClientError) in
                    guard row["App Apple Identifier"] == appID else { return }
                    let (date, version, count) = try Self.fields(row, column: column, report: name.rawValue)
                    let sum = days[date]?[version]
                    if sum == nil {
                        pairs += 1
                        guard pairs <= Self.maximumVersionDays else {
                            throw Self.invalid(
                                "\(name.rawValue) instance of \(instance.processingDate) has more than "
                                    + "\(Self.maximumVersionDays) days of versions, not a report of one app")
                        }
                    }
                    let (total, overflow) = (sum ?? 0).addingReportingOverflow(count)
                    guard !overflow, total <= HealthDay.maximumCount else {
                        throw Self.invalid(
                            "\(name.rawValue) sums more than \(StoreHealth.grouped(HealthDay.maximumCount)) "
                                + "\(column) for \(version) on \(date), not a count of one day")
                    }
                    days[date, default: [:]][version] = total
                }
                for (date, versions) in days
                where (newest[date]?.processed ?? instance.processingDate) <= instance.processingDate {
                    newest[date] = (instance.processingDate, versions)
                }
            }
            counts[name] = newest.mapValues(\.versions)
        }
        var days: [HealthDay] = []
        var missing: [Version: Int] = [:]
        for (date, sessions) in counts[.appSessionsStandard] ?? [:] {
            for (version, users) in sessions {
                guard let crashed = counts[.appCrashes]?[date]?[version] else {
                    missing[version, default: 0] += 1
                    continue
                }
                guard
                    let day = HealthDay(
                        date: date, version: version, versionCode: nil, users: users, crashedUsers: Double(crashed),
                        anrUsers: nil)
                else {
                    throw Self.invalid(
                        "App Crashes counts \(crashed) crashes of \(version) on \(date), more than its \(users) sessions"
                    )
                }
                days.append(day)
            }
        }
        for (version, count) in missing.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "\(count) day\(count == 1 ? "" : "s") of \(version) with sessions but no App Crashes row (fewer than "
                    + "five users, or not processed yet) left out, not counted as no crashes")
        }
        return .days(days.sorted { ($0.date, $0.version) < ($1.date, $1.version) }, notes: notes)
    }

    /// The most distinct (day, version) pairs one instance may count: far more than an app's
    /// versions in use over the two days an instance holds.
    static let maximumVersionDays = 10_000

    /// A report that is not what Apple sends, as the error every other such answer is.
    private static func invalid(_ what: String) -> HTTPClientError {
        .connect(.exchange(.invalidPayload(what)))
    }

    /// A row's date, version and count, each checked.
    private static func fields(_ row: AnalyticsReportRow, column: String, report: String) throws(HTTPClientError)
        -> (HealthDate, Version, Int)
    {
        let text = row["Date"] ?? ""
        guard let date = HealthDate(text) else {
            throw invalid("\(report) has Date \(text.debugDescription), not a date YYYY-MM-DD")
        }
        let name = row["App Version"] ?? ""
        guard let version = try? Version(parsing: name) else {
            throw invalid("\(report) has App Version \(name.debugDescription) on \(date), not a version")
        }
        let value = row[column] ?? ""
        guard let count = Int(value), count >= 0, count <= HealthDay.maximumCount else {
            throw invalid("\(report) has \(column) \(value.debugDescription) for \(version) on \(date), not a count")
        }
        return (date, version, count)
    }
}
