/// What a health rate counts.
public enum HealthMetric: Sendable, Hashable, CaseIterable {
    /// Users who crashed.
    case crash
    /// Users who saw an ANR ("application not responding").
    case anr
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
