/// The one rule both stores are judged by.
///
/// Pure: two windows of the same age, the criteria and the rates the store reports in, a verdict out.
///
/// `regressed` when a rate's lower bound is above the baseline's upper bound, or (once the
/// candidate's window holds at least ``HealthCriteria/minimumUserDays``) above the ceiling;
/// `insufficientData` when the window holds fewer user-days and nothing regressed; `unknown` when
/// a rate the store reports was not read for every day of the window (an unread rate is never a
/// passed one: Google Play's ANR rate missing, or older than its crash rate); else `healthy`.
///
/// With ``HealthCriteria/sequential`` criteria (a rollout's rounds) the windows are judged by
/// ``SequentialHealthRule`` instead.
public enum HealthRule {
    /// The verdict on `candidate` against `baseline` (read over the same age), if any.
    ///
    /// - Parameters:
    ///   - candidate: The version judged, over its days 1…*k*.
    ///   - baseline: The version before it over its own days 1…*k*, if there is one.
    ///   - criteria: The minimum of user-days and the ceilings.
    ///   - metrics: The rates the store reports (``HealthMetric/reported(by:)``): each must be read
    ///     on every day of the candidate's window for a `healthy` verdict.
    /// - Returns: The first of `regressed`, `insufficientData`, `unknown` (a rate not read) that
    ///   holds, else `healthy`.
    public static func verdict(
        candidate: HealthWindow, baseline: HealthWindow?, criteria: HealthCriteria, metrics: [HealthMetric]
    ) -> HealthVerdict {
        if criteria.sequential {
            return SequentialHealthRule.verdict(
                candidate: candidate, baseline: baseline, criteria: criteria, metrics: metrics)
        }
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
        if let metric = metrics.first(where: { candidate.rate($0) == nil }) {
            return .unknown(reason: unread(metric, of: candidate))
        }
        return .healthy
    }

    /// Why `metric` of `window` is not read: the days it lacks.
    static func unread(_ metric: HealthMetric, of window: HealthWindow) -> String {
        let missing = metric == .anr ? window.daysWithoutANR : []
        let days: String
        if missing.isEmpty || missing.count == window.ageDays {
            days = window.ageDays == 1 ? "its one day has none" : "none of its \(window.ageDays) days has one"
        } else if missing.count == 1 {
            days = "\(missing[0]) has none"
        } else {
            days =
                "\(missing.count) of its \(window.ageDays) days have none, \(missing[0]) to \(missing[missing.count - 1])"
        }
        return "the \(metric) of \(window.label) is not read (\(days)): an unread rate is never a passed one"
    }
}
