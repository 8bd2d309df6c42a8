import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Google Play's health numbers for one app, as ``HealthDay``s.
///
/// The Play Developer Reporting API's daily user-perceived crash and ANR rates per `versionCode`.
/// A day's users are its `distinctUsers` (as Google rounds them), its crashed users the crash
/// rate × those users, its ANR users the ANR rate × the same users. A `versionCode` is named by
/// the serving release that carries it (``PlayReleaseName``), else by its digits.
public struct PlayVitalsSource: Sendable {
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
    /// The end is the freshness, or the day after `through` when that is earlier.
    public func days(through: HealthDate? = nil, span: Int = defaultSpan) async throws(HTTPClientError)
        -> [HealthDay]
    {
        let fresh = try await client.freshness(of: .crashRate, packageName: packageName)
        let end = through.map { min(fresh, $0.adding(days: 1)) } ?? fresh
        let start = end.adding(days: -max(1, span))
        let crashes = try await client.dailyRows(of: .crashRate, packageName: packageName, from: start, to: end)
        let anrs = try await client.dailyRows(of: .anrRate, packageName: packageName, from: start, to: end)
        let names = try await client.versionNames(packageName: packageName)
        struct Key: Hashable {
            let date: HealthDate
            let code: VersionCode
        }
        let anr = Dictionary(
            anrs.map { (Key(date: $0.date, code: $0.versionCode), $0) }, uniquingKeysWith: { a, _ in a })
        var days: [HealthDay] = []
        var seen: Set<Key> = []
        for row in crashes {
            let key = Key(date: row.date, code: row.versionCode)
            guard seen.insert(key).inserted else { continue }
            guard let version = Self.version(of: row.versionCode, named: names[row.versionCode]) else { continue }
            let users = row.distinctUsers
            let anrUsers = anr[key].map { min(users, max(0, Int(($0.rate * Double(users)).rounded()))) }
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
        return days
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
