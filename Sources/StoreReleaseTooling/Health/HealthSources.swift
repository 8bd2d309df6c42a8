import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Where each store's health numbers come from, and how they are judged.
///
/// A health file for a store wins over its live source: Google Play's Developer Reporting API
/// (``playReporting``, for the package the Play source names) and App Store Connect's Analytics
/// Reports (``analytics``, for the app the App Store source names). ``judge(_:packageName:appID:)``
/// reads each store given once and judges one version on both by ``StoreHealth/judge(_:baseline:store:source:days:criteria:through:notes:)``;
/// ``StoreSources`` does it as part of its one reading, so the report, the force gate and the
/// snapshot see the same verdicts.
public struct HealthSources: Sendable {
    /// Which version is judged when ``version`` names none.
    public enum Candidate: Sendable, Hashable {
        /// The version a forced update would require (``StoreReading/forceTarget``).
        case forceTarget
        /// The newest version either store is releasing, a staged rollout included.
        ///
        /// ``StoreReading/newestReleasing``: what `watch --halt-on regressed` judges.
        case newestReleasing
    }

    /// The health files, at most one a store.
    public var files: [HealthFile]
    /// The Play Developer Reporting API, read for Google Play when no file is.
    public var playReporting: PlayDeveloperReportingClient?
    /// App Store Connect, whose Analytics Reports are read for the App Store when no file is.
    public var analytics: AppStoreConnectClient?
    /// The version to judge (on Google Play a `versionCode` too); `nil`: the ``candidate``.
    public var version: VersionOrCode?
    /// Which version is judged when ``version`` is `nil`: the version a forced update would require, unless told.
    public var candidate: Candidate = .forceTarget
    /// The version to compare with (on Google Play a `versionCode` too); `nil`: the highest below with users.
    public var baseline: VersionOrCode?
    /// The minimum of user-days and the ceilings.
    public var criteria: HealthCriteria
    /// The moment judged as of, if not now.
    ///
    /// Each store counts no day after the one this moment falls on there
    /// (``HealthDate/init(of:countedBy:)``: Google Play's days are Pacific).
    public var through: Date?

    /// The sources; give at least one.
    public init(
        files: [HealthFile] = [], playReporting: PlayDeveloperReportingClient? = nil,
        analytics: AppStoreConnectClient? = nil, version: VersionOrCode? = nil, baseline: VersionOrCode? = nil,
        criteria: HealthCriteria, through: Date? = nil
    ) {
        self.files = files
        self.playReporting = playReporting
        self.analytics = analytics
        self.version = version
        self.baseline = baseline
        self.criteria = criteria
        self.through = through
    }

    /// The stores these sources judge.
    public var stores: Set<Store> {
        var stores = Set(files.map(\.store))
        if playReporting != nil { stores.insert(.googlePlay) }
        if analytics != nil { stores.insert(.appStore) }
        return stores
    }

    /// Judges `version` on every store these sources read.
    ///
    /// A source that cannot be read makes its store `unknown`, the reason naming it, never
    /// `healthy`; so does a live source without the app to read (`packageName`, `appID`).
    ///
    /// - Parameters:
    ///   - version: The version judged (on Google Play a `versionCode` too).
    ///   - packageName: The Play package the reporting API is asked about.
    ///   - appID: The App Store id whose Analytics Reports are read.
    /// - Returns: Each store's health, the version judged named.
    /// - Throws: ``ReleaseSourceError/health(_:)`` only for a request that is bad input (a package
    ///   name the API refuses as such); every other failure is an `unknown` verdict.
    public func judge(_ version: VersionOrCode, packageName: String?, appID: String?) async throws(ReleaseSourceError)
        -> ReleaseHealthReport
    {
        var judged: [Store: StoreHealth] = [:]
        for file in files {
            judged[file.store] = StoreHealth.judge(
                version, baseline: baseline, store: file.store, source: .healthFile, days: file.days,
                criteria: criteria, through: lastDay(of: file.store))
        }
        if judged[.googlePlay] == nil, let playReporting {
            judged[.googlePlay] = try await googlePlay(version, client: playReporting, packageName: packageName)
        }
        if judged[.appStore] == nil, let analytics {
            judged[.appStore] = try await appStore(version, client: analytics, appID: appID)
        }
        return ReleaseHealthReport(appStore: judged[.appStore], googlePlay: judged[.googlePlay], version: version.name)
    }

    /// Google Play's largest error issues of the report's candidate over its window, read now.
    ///
    /// What `health`'s text and Markdown list under the verdict: none without Play's reporting
    /// API, a Play health in `report`, or a single `versionCode` to ask about. The verdict stands
    /// without them.
    ///
    /// - Throws: `HTTPClientError` when the reporting API cannot be read.
    public func topIssues(of report: ReleaseHealthReport, packageName: String?, limit: Int = 3)
        async throws(HTTPClientError) -> [PlayErrorIssue]
    {
        guard let playReporting, let packageName, let play = report.googlePlay else { return [] }
        return try await PlayVitalsSource(client: playReporting, packageName: packageName)
            .topIssues(of: play, through: lastDay(of: .googlePlay), limit: limit)
    }

    /// The last day `store` counts: the day ``through`` falls on there, or `nil` for the newest.
    public func lastDay(of store: Store) -> HealthDate? {
        through.map { HealthDate(of: $0, countedBy: store) }
    }

    /// Every store these sources judge `unknown` for want of a version to judge.
    public func unjudged(reason: String) -> ReleaseHealthReport {
        func unknown(_ store: Store, live: HealthSource) -> StoreHealth? {
            guard stores.contains(store) else { return nil }
            let source = files.contains { $0.store == store } ? HealthSource.healthFile : live
            return .unreadable(store: store, source: source, reason: reason)
        }
        return ReleaseHealthReport(
            appStore: unknown(.appStore, live: .appStoreConnectAnalytics),
            googlePlay: unknown(.googlePlay, live: .playDeveloperReporting))
    }

    /// Google Play's health from the Play Developer Reporting API.
    private func googlePlay(_ version: VersionOrCode, client: PlayDeveloperReportingClient, packageName: String?)
        async throws(ReleaseSourceError) -> StoreHealth
    {
        try await read(
            .googlePlay, from: .playDeveloperReporting, named: "the Play Developer Reporting API", id: packageName,
            missing: "needs the app's package, and the Play source names none"
        ) { packageName throws(HTTPClientError) in
            let reading = try await PlayVitalsSource(client: client, packageName: packageName)
                .read(through: lastDay(of: .googlePlay))
            return StoreHealth.judge(
                version, baseline: baseline, store: .googlePlay, source: .playDeveloperReporting, days: reading.days,
                criteria: criteria, through: lastDay(of: .googlePlay), notes: reading.notes)
        }
    }

    /// The App Store's health from App Store Connect's Analytics Reports: `unknown` naming what
    /// failed, or what to do, when there is nothing to read.
    private func appStore(_ version: VersionOrCode, client: AppStoreConnectClient, appID: String?)
        async throws(ReleaseSourceError) -> StoreHealth
    {
        let source = HealthSource.appStoreConnectAnalytics
        return try await read(
            .appStore, from: source, named: "App Store Connect's Analytics Reports", id: appID,
            missing: "need the app's App Store id, and no source names it"
        ) { appID throws(HTTPClientError) in
            switch try await AppStoreAnalyticsSource(client: client, appID: appID).read() {
            case .notCollecting(let reason):
                return .unreadable(store: .appStore, source: source, reason: reason)
            case .days(let days, let notes):
                return StoreHealth.judge(
                    version, baseline: baseline, store: .appStore, source: source, days: days, criteria: criteria,
                    through: lastDay(of: .appStore), notes: notes)
            }
        }
    }

    /// One store's health from its live source: `unknown` without the app's `id` to ask about,
    /// or when the source cannot be read (naming it); a request that is bad input is thrown.
    private func read(
        _ store: Store, from source: HealthSource, named name: String, id: String?, missing: String,
        _ judge: (String) async throws(HTTPClientError) -> StoreHealth
    ) async throws(ReleaseSourceError) -> StoreHealth {
        guard let id else { return .unreadable(store: store, source: source, reason: "\(name) \(missing)") }
        do throws(HTTPClientError) {
            return try await judge(id)
        } catch {
            if error.code == .invalidRequest { throw .health(error) }
            return .unreadable(store: store, source: source, reason: "\(name) could not be read: \(error)")
        }
    }
}
