/// The numbers the rule judges with.
///
/// The fewest user-days a window needs before its rate is held against the ceilings, the
/// ceilings themselves, and whether the windows are judged as a rollout's repeated looks
/// (``sequential``: ``SequentialHealthRule``) or each on its own (``HealthRule``'s intervals).
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
    /// Whether the windows are judged by ``SequentialHealthRule`` (a rollout's rounds), not one look at a time.
    ///
    /// `advance`, `replay` and `watch --rollout` judge so; `health`, `parity`, `snapshot` and
    /// `watch` judge one look (``HealthRule``).
    public let sequential: Bool
    /// The chance, per store, that the sequential rule ever halts a release no worse than N−1.
    ///
    /// ``SequentialHealthRule/falseHaltsPerStore`` (1 in 1,000); the benchmark sets another to
    /// show what a looser rule would gain (`storerelease-benchmarks --false-halts A`).
    package var falseHaltsPerStore = SequentialHealthRule.falseHaltsPerStore

    /// The likelihood ratio a test of the sequential rule needs to halt: 4 ÷ ``falseHaltsPerStore``.
    package var haltEvidence: Double { 4 / falseHaltsPerStore }

    /// Criteria; the defaults are Play's thresholds, 1,000 user-days and one look at a time.
    ///
    /// - Throws: ``HealthCriteriaError`` when `minimumUserDays` is below 1 or a ceiling is not a
    ///   fraction 0–1.
    public init(
        minimumUserDays: Int = defaultMinimumUserDays, maximumCrashRate: Double = defaultMaximumCrashRate,
        maximumANRRate: Double = defaultMaximumANRRate, sequential: Bool = false
    ) throws(HealthCriteriaError) {
        guard minimumUserDays >= 1 else { throw .minimumUserDays(minimumUserDays) }
        guard maximumCrashRate.isFinite, (0...1).contains(maximumCrashRate) else {
            throw .ceiling(.crash, maximumCrashRate)
        }
        guard maximumANRRate.isFinite, (0...1).contains(maximumANRRate) else { throw .ceiling(.anr, maximumANRRate) }
        (self.minimumUserDays, self.maximumCrashRate, self.maximumANRRate) =
            (minimumUserDays, maximumCrashRate, maximumANRRate)
        self.sequential = sequential
    }

    private init(_ criteria: HealthCriteria, sequential: Bool) {
        (minimumUserDays, maximumCrashRate, maximumANRRate) =
            (criteria.minimumUserDays, criteria.maximumCrashRate, criteria.maximumANRRate)
        self.sequential = sequential
        falseHaltsPerStore = criteria.falseHaltsPerStore
    }

    /// The same numbers, judged as a rollout's rounds (``SequentialHealthRule``).
    public func sequentially() -> HealthCriteria {
        HealthCriteria(self, sequential: true)
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
