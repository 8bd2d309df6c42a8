import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Google Play's health numbers for one app, as ``HealthDay``s.
///
/// The Play Developer Reporting API's daily user-perceived crash and ANR rates per `versionCode`.
/// A day's users are its `distinctUsers` (as Google rounds them), its crashed users the crash
/// rate × those users, its ANR users the ANR rate × the same users, never rounded: a day's rate
/// is Play's own (2.30% of 90 users is 2.07 crashed users, not 2 of 90, 2.22%). Each metric set
/// is read up to its own freshness: a day the crash rate has and the ANR rate not yet has no ANR
/// count, and a note says so. A `versionCode` is named by the serving release that carries it
/// (``PlayReleaseName``), else by its digits.
public struct PlayVitalsSource: Sendable {
    /// What the API holds for the app.
    public struct Reading: Sendable, Hashable {
        /// The days read.
        public let days: [HealthDay]
        /// What the days lack, one sentence each (the ANR rate's data older than the crash rate's).
        public let notes: [String]
    }

    /// How many days back from the freshness are read.
    ///
    /// Enough for a baseline's whole first weeks, within Google's retention.
    public static let defaultSpan = 90

    /// The client, with its token.
    public let client: PlayDeveloperReportingClient
    /// The app.
    public let packageName: String

    /// Makes the source.
    public init(client: PlayDeveloperReportingClient, packageName: String) {
        (self.client, self.packageName) = (client, packageName)
    }

    /// The days from `span` days before the end up to the end.
    ///
    /// The end is the crash rate's freshness, or the day after `through` when that is earlier.
    public func days(through: HealthDate? = nil, span: Int = defaultSpan) async throws(HTTPClientError)
        -> [HealthDay]
    {
        try await read(through: through, span: span).days
    }

    /// The days from `span` days before the end up to the end, and what they lack.
    ///
    /// The end is the crash rate's freshness, or the day after `through` when that is earlier;
    /// the ANR rate is read up to its own freshness, and a note names the days it does not reach.
    ///
    /// - Throws: ``HTTPClientError``; ``HTTPClientError/Code/invalidPayload`` when two ANR rows of
    ///   one `versionCode` and day disagree (two crash rows that disagree are days the verdict names).
    public func read(through: HealthDate? = nil, span: Int = defaultSpan) async throws(HTTPClientError) -> Reading {
        let fresh = try await client.freshness(of: .crashRate, packageName: packageName)
        let anrFresh = try await client.freshness(of: .anrRate, packageName: packageName)
        let end = through.map { min(fresh, $0.adding(days: 1)) } ?? fresh
        let start = end.adding(days: -max(1, span))
        let crashes = try await client.dailyRows(of: .crashRate, packageName: packageName, from: start, to: end)
        let anrs = try await client.dailyRows(of: .anrRate, packageName: packageName, from: start, to: end)
        let names = try await client.versionNames(packageName: packageName)
        struct Key: Hashable {
            let date: HealthDate
            let code: VersionCode
        }
        var anr: [Key: PlayVitalsRow] = [:]
        for row in anrs {
            let key = Key(date: row.date, code: row.versionCode)
            if let earlier = anr[key], earlier != row {
                throw .playReporting(
                    .invalidValue(
                        "anrRateMetricSet has two different rows for versionCode \(row.versionCode) on \(row.date) "
                            + "(\(earlier.rate) of \(earlier.distinctUsers) users vs \(row.rate) of \(row.distinctUsers))"
                    ))
            }
            anr[key] = row
        }
        var days: [HealthDay] = []
        for row in crashes {
            guard let version = Self.version(of: row.versionCode, named: names[row.versionCode]) else { continue }
            let users = row.distinctUsers
            let anrUsers = anr[Key(date: row.date, code: row.versionCode)].map { $0.rate * Double(users) }
            guard
                let day = HealthDay(
                    date: row.date, version: version, versionCode: row.versionCode, users: users,
                    crashedUsers: row.affectedUsers, anrUsers: anrUsers)
            else {
                throw .playReporting(
                    .invalidValue("the \(row.date) row of versionCode \(row.versionCode) counts \(users) users"))
            }
            days.append(day)
        }
        var notes: [String] = []
        if anrFresh < end {
            notes.append(
                "Play's ANR data end before its crash data: anrRateMetricSet is complete up to "
                    + "\(anrFresh.adding(days: -1)), crashRateMetricSet up to \(end.adding(days: -1)) (each metric set "
                    + "has its own freshness); the days after \(anrFresh.adding(days: -1)) have no ANR rate yet")
        }
        return Reading(days: days, notes: notes)
    }

    /// The version of a `versionCode`: the one its release's name carries, else its digits.
    static func version(of code: VersionCode, named name: String?) -> Version? {
        if let version = PlayReleaseName.version(in: name, versionCodes: [code]) { return version }
        return try? Version(parsing: String(code.rawValue))
    }

    /// The candidate's largest error issues over its window, for the text output.
    ///
    /// None when the health has no single `versionCode` to ask about.
    public func topIssues(of health: StoreHealth, through: HealthDate? = nil, limit: Int = 3)
        async throws(HTTPClientError) -> [PlayErrorIssue]
    {
        guard let candidate = health.candidate, let code = candidate.versionCode, let first = candidate.firstDay else {
            return []
        }
        let fresh = try await client.freshness(of: .crashRate, packageName: packageName)
        let end = through.map { min(fresh, $0.adding(days: 1)) } ?? fresh
        guard first < end else { return [] }
        return try await client.topIssues(
            packageName: packageName, versionCode: code, from: first, to: end, limit: limit)
    }
}
