import StoreReleaseCore
import StoreReleaseModels

/// A metric set of Play's vitals that health reads.
public enum PlayVitalsMetric: Sendable, Hashable, CaseIterable {
    /// `crashRateMetricSet`, metric `userPerceivedCrashRate`.
    case crashRate
    /// `anrRateMetricSet`, metric `userPerceivedAnrRate`.
    case anrRate

    /// The metric set's resource name after `apps/{package}/`.
    public var metricSet: String {
        switch self {
        case .crashRate: "crashRateMetricSet"
        case .anrRate: "anrRateMetricSet"
        }
    }

    /// The rate metric asked for: the user-perceived one, which Play's bad-behaviour thresholds judge.
    public var rateMetric: String {
        switch self {
        case .crashRate: "userPerceivedCrashRate"
        case .anrRate: "userPerceivedAnrRate"
        }
    }
}

/// One `versionCode`'s rate on one day (`America/Los_Angeles`), as the API answers it.
public struct PlayVitalsRow: Sendable, Hashable {
    /// The day (Los Angeles calendar).
    public let date: HealthDate
    /// The `versionCode`.
    public let versionCode: VersionCode
    /// The user-perceived rate, a fraction 0–1.
    public let rate: Double
    /// The distinct users the rate is over, as Google rounds them (to 10, 100, 1,000 or 1,000,000).
    public let distinctUsers: Int

    /// The users the rate counts: rate × distinct users, unrounded.
    ///
    /// A fraction (2.3% of 90 users is 2.07): rounding it to whole users would change the rate
    /// (2 of 90 is 2.22%), and Play's own number is the rate.
    public var affectedUsers: Double {
        min(Double(distinctUsers), max(0, rate * Double(distinctUsers)))
    }
}

/// One error issue of a version, as `errorIssues:search` answers it: for the text output.
public struct PlayErrorIssue: Sendable, Hashable {
    /// `CRASH`, `APPLICATION_NOT_RESPONDING` or `NON_FATAL`.
    public let type: String
    /// The exception (`java.lang.NullPointerException`), if given.
    public let cause: String
    /// Where it happens (a method), if given.
    public let location: String
    /// The users it reached, as Google counts them.
    public let distinctUsers: Int
    /// The reports of it.
    public let errorReportCount: Int
    /// A link to the issue in Play Console, if given.
    public let issueURI: String
}

extension PlayErrorIssue: CustomStringConvertible {
    /// `CRASH java.lang.IllegalStateException in com.example.Feed.load: 120 users, 310 reports`.
    public var description: String {
        let kind = type == "APPLICATION_NOT_RESPONDING" ? "ANR" : type
        let what = [cause, location.isEmpty ? "" : "in \(location)"].filter { !$0.isEmpty }.joined(separator: " ")
        return
            "\(kind) \(what.isEmpty ? "(no cause given)" : what): \(distinctUsers) users, \(errorReportCount) reports"
    }
}
