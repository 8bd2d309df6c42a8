/// Why a version is `regressed`.
///
/// A rate whose interval lies wholly above the baseline's, or above the ceiling once the window
/// holds enough user-days.
public enum HealthRegression: Sendable, Hashable {
    /// The candidate's lower bound is above the baseline's upper bound, at the same age.
    case aboveBaseline(HealthMetric, candidate: HealthRate, baseline: HealthRate)
    /// The candidate's lower bound is above the ceiling (Play's bad-behaviour threshold by default).
    case aboveCeiling(HealthMetric, candidate: HealthRate, ceiling: Double)
}
