/// The numbers the rule judges with.
///
/// The fewest user-days a window needs before its rate is held against the ceilings, and the
/// ceilings themselves.
public struct HealthCriteria: Sendable, Hashable {
    /// Play's bad-behaviour threshold for the user-perceived crash rate: 1.09%.
    public static let defaultMaximumCrashRate = 0.0109
    /// Play's bad-behaviour threshold for the user-perceived ANR rate: 0.47%.
    public static let defaultMaximumANRRate = 0.0047
    /// The user-days a window needs by default before it can be `healthy`.
    public static let defaultMinimumUserDays = 1000

    /// Below this many user-days in the candidate's window the verdict is at best `insufficientData`.
    public let minimumUserDays: Int
    /// The crash-rate ceiling, a fraction 0–1.
    public let maximumCrashRate: Double
    /// The ANR-rate ceiling, a fraction 0–1.
    public let maximumANRRate: Double

    /// Criteria; the defaults are Play's thresholds and 1,000 user-days.
    ///
    /// - Throws: ``HealthCriteriaError`` when `minimumUserDays` is below 1 or a ceiling is not a
    ///   fraction 0–1.
    public init(
        minimumUserDays: Int = defaultMinimumUserDays, maximumCrashRate: Double = defaultMaximumCrashRate,
        maximumANRRate: Double = defaultMaximumANRRate
    ) throws(HealthCriteriaError) {
        guard minimumUserDays >= 1 else { throw .minimumUserDays(minimumUserDays) }
        guard maximumCrashRate.isFinite, (0...1).contains(maximumCrashRate) else {
            throw .ceiling(.crash, maximumCrashRate)
        }
        guard maximumANRRate.isFinite, (0...1).contains(maximumANRRate) else { throw .ceiling(.anr, maximumANRRate) }
        (self.minimumUserDays, self.maximumCrashRate, self.maximumANRRate) =
            (minimumUserDays, maximumCrashRate, maximumANRRate)
    }

    /// The ceiling for `metric`.
    public func ceiling(_ metric: HealthMetric) -> Double {
        switch metric {
        case .crash: maximumCrashRate
        case .anr: maximumANRRate
        }
    }
}

/// Criteria the rule cannot judge with.
public enum HealthCriteriaError: Error, Sendable, Hashable {
    /// The minimum of user-days is below 1.
    case minimumUserDays(Int)
    /// A ceiling is not a fraction 0–1.
    case ceiling(HealthMetric, Double)
}

extension HealthCriteriaError: CustomStringConvertible {
    /// What is wrong, naming the value.
    public var description: String {
        switch self {
        case .minimumUserDays(let value): "\(value) is not a positive number of user-days"
        case .ceiling(let metric, let value): "\(value) is not a \(metric) between 0 and 1 (0.0109 is 1.09%)"
        }
    }
}
