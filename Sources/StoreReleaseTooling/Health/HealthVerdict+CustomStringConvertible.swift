extension HealthVerdict: CustomStringConvertible {
    /// The verdict's name and what it rests on, for people.
    ///
    /// `healthy`, `regressed (crash rate above the baseline)`, `insufficientData (130 of the 1000
    /// needed)` (or, judged as a rollout's rounds, `insufficientData (the data lean towards a
    /// regression)`), `unknown (the reason)`.
    ///
    /// `print(health.verdict)` prints this, not the enum's cases and payloads.
    public var description: String {
        switch self {
        case .healthy: return name
        case .regressed(let regressions):
            let why = regressions.map { regression in
                switch regression {
                case .aboveBaseline(let metric, _, _): "\(metric) above the baseline"
                case .aboveCeiling(let metric, _, let ceiling): "\(metric) above the ceiling \(ceiling)"
                }
            }
            return why.isEmpty ? name : "\(name) (\(why.joined(separator: ", ")))"
        case .insufficientData(let userDays, let minimum) where userDays >= minimum:
            return "\(name) (the data lean towards a regression)"
        case .insufficientData(let userDays, let minimum): return "\(name) (\(userDays) of the \(minimum) needed)"
        case .unknown(let reason): return "\(name) (\(reason))"
        }
    }
}
