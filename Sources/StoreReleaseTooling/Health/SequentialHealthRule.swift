import Foundation

/// The health rule of a rollout, judged again every round: its false halts bounded over all its looks.
///
/// ``HealthRule`` judges one look: N's 95% interval against N−1's. Judged every day of a
/// rollout, such a rule halts good releases by chance (each look is another test). This rule
/// reads the same windows (N's days 1…*k* summed, N−1's days 1…*k* summed: the same age) as
/// evidence that accumulates, and halts only when the evidence could arise by chance at most
/// once in ``falseHaltsPerStore`` over the whole rollout, however many rounds look at it.
///
/// For each rate (crash, ANR), with N's *x₁* events among *n₁* user-days and N−1's *x₀* among
/// *n₀*, and *r* the ratio of N's true rate to N−1's:
///
/// - **Against N−1** (``evidenceAboveBaseline(candidate:of:baseline:of:)``): given the
///   *x₁* + *x₀* events of both, each is N's with chance π(r) = r·n₁ ÷ (r·n₁ + n₀) (the binomial
///   comparison of two Poisson counts at a known exposure ratio: Kulldorff's binomial MaxSPRT
///   uses it for matched cohorts). The evidence that N is worse is the likelihood ratio
///   Λ = mean over *r* of (π(r) ÷ π(1))^*x₁* · ((1 − π(r)) ÷ (1 − π(1)))^*x₀*, *r* in
///   ``ratios`` (a mixture SPRT: Robbins 1970; Johari, Pekelis and Walsh, "Always valid
///   inference", 2017). While N is no worse (r ≤ 1), Λ is a nonnegative supermartingale, so by
///   Ville's inequality the chance it ever reaches 1 ÷ α is at most α, at any number of looks.
/// - **Against the ceiling** *c* (``evidenceAboveCeiling(candidate:of:ceiling:)``), once the
///   window holds the criteria's minimum user-days: Λ = mean over *r* in ``ceilingRatios`` of
///   *r*^*x₁* · ((1 − r·c) ÷ (1 − c))^(*n₁* − *x₁*) (Wald's binomial SPRT of *c* against *r·c*).
///
/// `regressed` when any Λ reaches ``haltEvidence`` (α = ``falseHaltsPerStore`` split evenly over
/// the four tests: 4,000); `insufficientData` below the minimum user-days, or while the evidence
/// against N−1 is at least ``leaningEvidence`` (the data lean towards a regression: the gate
/// holds the step until they decide, so a regression gathers no new users meanwhile); `unknown`
/// for a rate not read; else `healthy`.
///
/// The gate completes a rollout (100%) only once Google Play's data rule out a regression of
/// ``margin`` (``clearsMargin(candidate:baseline:)``): N's rate at ``margin`` times N−1's or more
/// is itself rejected as above, at ``marginEvidence``, so a regression of 1.5x reaches everyone
/// with a chance of at most 1 in 1,000.
///
/// The bound is exact for events arriving one by one at a fixed mix of the two versions' users;
/// a rollout changes the mix each day (N held while N−1 climbed), and the first days' early
/// adopters crash differently, so the storerelease-benchmarks rollout section measures it on
/// generated rollouts rather than taking it on trust.
public enum SequentialHealthRule {
    /// The chance, per store, that a release no worse than N−1 and under the ceilings is ever halted.
    public static let falseHaltsPerStore = 0.001
    /// The likelihood ratio a test needs to halt: 4 ÷ 0.001 (``HealthCriteria``'s by default).
    ///
    /// Four tests (crash and ANR, against N−1 and the ceiling) share ``falseHaltsPerStore``.
    public static let haltEvidence = 4 / falseHaltsPerStore
    /// The likelihood ratio against N−1 at which the gate holds the step instead of advancing.
    public static let leaningEvidence = 10.0
    /// The regression the gate must rule out before 100%: N's rate at 1.5 times N−1's.
    public static let margin = 1.5
    /// The likelihood ratio that rules out ``margin``, for each of the two rates: 2 ÷ 0.001.
    public static let marginEvidence = 2 / 0.001
    /// The ratios of N's rate to N−1's the evidence against N−1 averages over, equally weighted.
    public static let ratios: [Double] = [1.25, 1.5, 2, 3, 5, 10]
    /// The multiples of the ceiling the evidence against it averages over, equally weighted.
    public static let ceilingRatios: [Double] = [1.1, 1.25, 1.5, 2, 3, 5]

    /// The verdict on `candidate` against `baseline` with `criteria`'s minimum and ceilings.
    ///
    /// - Returns: The first of `regressed`, `insufficientData`, `unknown` (a rate not read) that
    ///   holds, else `healthy`; see ``SequentialHealthRule``.
    public static func verdict(
        candidate: HealthWindow, baseline: HealthWindow?, criteria: HealthCriteria, metrics: [HealthMetric]
    ) -> HealthVerdict {
        var regressions: [HealthRegression] = []
        var leaning = false
        for metric in HealthMetric.allCases {
            guard let rate = candidate.rate(metric), let events = candidate.events(metric) else { continue }
            if let baseline, let other = baseline.rate(metric), let otherEvents = baseline.events(metric) {
                let evidence = evidenceAboveBaseline(
                    candidate: events, of: candidate.users, baseline: otherEvents, of: baseline.users)
                if evidence >= criteria.haltEvidence {
                    regressions.append(.aboveBaseline(metric, candidate: rate, baseline: other))
                    continue
                }
                leaning = leaning || evidence >= leaningEvidence
            }
            if candidate.users >= criteria.minimumUserDays,
                evidenceAboveCeiling(candidate: events, of: candidate.users, ceiling: criteria.ceiling(metric))
                    >= criteria.haltEvidence
            {
                regressions.append(.aboveCeiling(metric, candidate: rate, ceiling: criteria.ceiling(metric)))
            }
        }
        if !regressions.isEmpty { return .regressed(regressions) }
        if candidate.users < criteria.minimumUserDays || leaning {
            return .insufficientData(userDays: candidate.users, minimum: criteria.minimumUserDays)
        }
        if let metric = metrics.first(where: { candidate.rate($0) == nil }) {
            return .unknown(reason: HealthRule.unread(metric, of: candidate))
        }
        return .healthy
    }

    /// The likelihood ratio that N's rate is above N−1's: the mixture over ``ratios``.
    ///
    /// - Parameters:
    ///   - candidate: N's events (crashed or ANR users; a fraction where a store reports rates).
    ///   - users: N's user-days.
    ///   - baseline: N−1's events over its days of the same age.
    ///   - baselineUsers: N−1's user-days.
    /// - Returns: Λ ≥ 0; 1 when either window is empty (no evidence either way).
    public static func evidenceAboveBaseline(
        candidate: Double, of users: Int, baseline: Double, of baselineUsers: Int
    ) -> Double {
        mixture(ratios) { ratio in
            logRatio(candidate, users, baseline, baselineUsers, ratio: ratio, against: 1)
        }
    }

    /// The likelihood ratio that N's rate is above `ceiling`: the mixture over ``ceilingRatios``.
    ///
    /// A ceiling of 0 is exceeded by any event (Λ infinite); a ceiling of 1 never is.
    public static func evidenceAboveCeiling(candidate: Double, of users: Int, ceiling: Double) -> Double {
        guard users > 0 else { return 1 }
        guard ceiling > 0 else { return candidate > 0 ? .infinity : 1 }
        let trials = Double(users)
        return mixture(ceilingRatios) { ratio in
            guard ratio * ceiling < 1 else { return -.infinity }
            return candidate * log(ratio) + (trials - candidate) * log((1 - ratio * ceiling) / (1 - ceiling))
        }
    }

    /// Whether the windows rule out N's rate at ``margin`` times N−1's or more, for every rate both read.
    ///
    /// Without a baseline there is nothing to compare with: `true` (the ceilings alone judge).
    public static func clearsMargin(candidate: HealthWindow?, baseline: HealthWindow?) -> Bool {
        guard let candidate else { return false }
        guard let baseline else { return true }
        for metric in HealthMetric.allCases {
            guard let events = candidate.events(metric), let otherEvents = baseline.events(metric) else { continue }
            let evidence = exp(
                logRatio(events, candidate.users, otherEvents, baseline.users, ratio: 1, against: margin))
            if evidence < marginEvidence { return false }
        }
        return true
    }

    /// log of the likelihood ratio of `ratio` against `null` for N's share of both versions' events.
    static func logRatio(_ x1: Double, _ n1: Int, _ x0: Double, _ n0: Int, ratio: Double, against null: Double)
        -> Double
    {
        guard n1 > 0, n0 > 0 else { return 0 }
        let (users, baselineUsers) = (Double(n1), Double(n0))
        let share = ratio * users / (ratio * users + baselineUsers)
        let nullShare = null * users / (null * users + baselineUsers)
        return x1 * log(share / nullShare) + x0 * log((1 - share) / (1 - nullShare))
    }

    /// The mean of e^`logRatio`(r) over `ratios`, computed without overflow.
    static func mixture(_ ratios: [Double], _ logRatio: (Double) -> Double) -> Double {
        let logs = ratios.map(logRatio)
        guard let top = logs.max(), top > -.infinity else { return 0 }
        guard top < .infinity else { return .infinity }
        return exp(top) * logs.reduce(0) { $0 + exp($1 - top) } / Double(logs.count)
    }
}
