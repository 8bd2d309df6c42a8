/// The one rule both stores are judged by.
///
/// Pure: two windows of the same age and the criteria in, a verdict out.
///
/// `regressed` when a rate's lower bound is above the baseline's upper bound, or (once the
/// candidate's window holds at least ``HealthCriteria/minimumUserDays``) above the ceiling;
/// `insufficientData` when the window holds fewer user-days and nothing regressed; else `healthy`.
public enum HealthRule {
    /// The verdict on `candidate` against `baseline` (read over the same age), if any.
    public static func verdict(candidate: HealthWindow, baseline: HealthWindow?, criteria: HealthCriteria)
        -> HealthVerdict
    {
        var regressions: [HealthRegression] = []
        for metric in HealthMetric.allCases {
            guard let rate = candidate.rate(metric) else { continue }
            if let other = baseline?.rate(metric), rate.lower > other.upper {
                regressions.append(.aboveBaseline(metric, candidate: rate, baseline: other))
            } else if candidate.users >= criteria.minimumUserDays, rate.lower > criteria.ceiling(metric) {
                regressions.append(.aboveCeiling(metric, candidate: rate, ceiling: criteria.ceiling(metric)))
            }
        }
        if !regressions.isEmpty { return .regressed(regressions) }
        if candidate.users < criteria.minimumUserDays {
            return .insufficientData(userDays: candidate.users, minimum: criteria.minimumUserDays)
        }
        return .healthy
    }
}
