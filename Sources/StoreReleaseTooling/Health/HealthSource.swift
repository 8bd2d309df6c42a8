/// Where a store's health numbers came from.
public enum HealthSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Google's Play Developer Reporting API.
    case playDeveloperReporting
    /// App Store Connect's Analytics Reports.
    case appStoreConnectAnalytics
    /// A health file (`--health-file`), as written.
    case healthFile
}
