import StoreReleaseCore

/// What a health rate counts.
public enum HealthMetric: Sendable, Hashable, CaseIterable {
    /// Users who crashed.
    case crash
    /// Users who saw an ANR ("application not responding").
    case anr

    /// The rates a store reports, each of which a `healthy` verdict needs read.
    ///
    /// Google Play reports both (its vitals have a crash and an ANR rate); the App Store has no
    /// ANR rate. An unread rate is never a passed one.
    public static func reported(by store: Store) -> [HealthMetric] {
        store == .googlePlay ? [.crash, .anr] : [.crash]
    }
}

extension HealthMetric: CustomStringConvertible {
    /// `crash rate`, `ANR rate`.
    public var description: String {
        switch self {
        case .crash: "crash rate"
        case .anr: "ANR rate"
        }
    }
}
