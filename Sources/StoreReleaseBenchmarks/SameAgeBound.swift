import Foundation
import StoreReleaseKit

/// The least exposure at which a rule that does not know N−1's crash rate, and reads it from
/// N−1's window at the same age as N's, could halt a regression half the time while halting a good
/// release with a chance of at most α: the bound of the best unbiased test of that data, looking once.
///
/// Both windows' crashes are Poisson, N−1's with mean θ·a₀ and N's with mean ρ·θ·a₁: θ is N−1's
/// true rate, unknown to the test; a₀ and a₁ are the windows' user-days weighted by the first
/// day's early factors, which the test is given (knowing more only lowers the bound). The totals
/// are sufficient, and the uniformly most powerful unbiased test of ρ ≤ 1 against ρ > 1 (Lehmann
/// and Romano, Testing Statistical Hypotheses, 4.5) halts on N's share of their sum: x₁ given
/// x₀ + x₁ = s is Binomial(s, ρ·a₁/(ρ·a₁ + a₀)), and the test halts above the binomial's upper α
/// point, randomized there to size α exactly. A rule halted by E user-days of N has, at its round,
/// read N−1's same-age window of at most ``SameAgeWindow/latestRound(exposure:)`` days (no rule
/// offers N fewer than the first step's users), so by then it is an unbiased test of those data and
/// has no more power than this test there.
struct SameAgeWindow: Sendable {
    let app: RolloutApp
    /// N's user-days by the end of each day if it stayed at the first step: `[0]` is 0, `[k]` after k days.
    let slowestExposure: [Int]
    /// N−1's expected crashes in its first k days (its same-age window at round k): `[k]`.
    let previousMeans: [Double]

    init(_ app: RolloutApp, rounds: Int = RolloutBenchmarks.maximumRounds) {
        self.app = app
        let steps = RolloutSimulation.schedule.percentages
        var exposure = [0]
        var means = [0.0]
        for day in 0..<rounds {
            let adoption = RolloutSimulation.adoption(day: day)
            let slowest = Int((Double(app.dailyUsers) * steps[0] / 100 * adoption).rounded())
            exposure.append(exposure[day] + slowest)
            let step = steps[min(day, steps.count - 1)] / 100
            let previousUsers = Int((Double(app.dailyUsers) * step * adoption).rounded())
            let rate = app.previousRate * (day == 0 ? app.earlyFactor * app.previousJitter : 1)
            means.append(means[day] + Double(previousUsers) * rate)
        }
        (slowestExposure, previousMeans) = (exposure, means)
    }

    /// The latest round at which N can have had at most `exposure` user-days (at the first step
    /// all along), within the run: the oldest same-age window a rule halted by then has read.
    func latestRound(exposure: Int) -> Int {
        slowestExposure.lastIndex { $0 <= exposure } ?? 0
    }

    /// The most chance an unbiased rule of false-halt chance `alpha` has to halt the regression at
    /// `multiplier` by `exposure` user-days (0 before the first day ends).
    func bestChance(multiplier: Double, alpha: Double, by exposure: Int) -> Double {
        guard exposure >= OracleBound.firstDayUsers(app) else { return 0 }
        return SameAgeWindow.power(
            previousMean: previousMeans[latestRound(exposure: exposure)],
            candidateMean: OracleBound.nullMean(app, exposure: Double(exposure)), multiplier: multiplier, alpha: alpha)
    }

    /// The least user-days at which that chance reaches 1/2, the first day's users at least;
    /// `nil`: not within the run. Never below `oracle`, the bound of a test that knows θ.
    func bound(multiplier: Double, alpha: Double, oracle: Int) -> Int? {
        func reaches(_ exposure: Int) -> Bool { bestChance(multiplier: multiplier, alpha: alpha, by: exposure) >= 0.5 }
        var low = max(OracleBound.firstDayUsers(app), oracle)
        guard !reaches(low) else { return low }
        var high = 2 * low
        while !reaches(high) {
            guard high < 1 << 40 else { return nil }
            (low, high) = (high, 2 * high)
        }
        // reaches(low) is false, reaches(high) true.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if reaches(middle) { high = middle } else { low = middle }
        }
        return high
    }

    /// The power against ρ = `multiplier` of the conditional test of size `alpha` when N−1's window
    /// expects `previousMean` crashes and a good N's `candidateMean`: the binomial test's power
    /// given each total s, weighted by the total's Poisson chance under the regression.
    static func power(previousMean: Double, candidateMean: Double, multiplier: Double, alpha: Double) -> Double {
        guard previousMean > 0, candidateMean > 0 else { return previousMean > 0 ? 0 : alpha }
        let total = previousMean + multiplier * candidateMean
        let share = candidateMean / (previousMean + candidateMean)
        let regressedShare = multiplier * candidateMean / (previousMean + multiplier * candidateMean)
        let spread = 8 * total.squareRoot() + 10
        let first = max(0, Int((total - spread).rounded(.down)))
        let last = Int((total + spread).rounded(.up))
        var null = BinomialTail(trials: first, share: share, alpha: alpha)
        var regressed = BinomialTail(trials: first, share: regressedShare, threshold: null.threshold)
        var weight = exp(Double(first) * log(total) - total - lgamma(Double(first) + 1))
        var power = 0.0
        for trials in first...last {
            if trials > first {
                weight *= total / Double(trials)
                null.addTrial()
                regressed.addTrial()
                while null.above > alpha {
                    null.raise()
                    regressed.raise()
                }
            }
            let randomized = (alpha - null.above) / null.at
            power += weight * (regressed.above + randomized * regressed.at)
        }
        return power
    }

    /// The crashes a good N must be expected to have for the test to reach power 1/2 when N−1's
    /// window expects `ratio` times as many: the same for every app.
    static func criticalMean(ratio: Double, multiplier: Double, alpha: Double) -> Double {
        OracleBound.leastMean {
            power(previousMean: ratio * $0, candidateMean: $0, multiplier: multiplier, alpha: alpha)
        }
    }
}

/// Binomial(trials, share) at a threshold c: P(X = c) and P(X > c), kept as trials and c grow by one.
struct BinomialTail: Sendable {
    private(set) var trials: Int
    let share: Double
    private(set) var threshold: Int
    /// P(X = threshold).
    private(set) var at: Double
    /// P(X > threshold).
    private(set) var above: Double

    /// At `threshold`, summed directly (terms more than 12 standard deviations and 40 from the
    /// mean left out: below 1e-30 together).
    init(trials: Int, share: Double, threshold: Int) {
        (self.trials, self.share, self.threshold) = (trials, share, threshold)
        at = BinomialTail.probability(threshold, trials: trials, share: share)
        let (low, high) = BinomialTail.span(trials: trials, share: share)
        above = stride(from: max(threshold + 1, low), through: high, by: 1).reduce(0) {
            $0 + BinomialTail.probability($1, trials: trials, share: share)
        }
    }

    /// At the least threshold whose tail above it is at most `alpha`: the size-α test's.
    init(trials: Int, share: Double, alpha: Double) {
        self.init(trials: trials, share: share, threshold: BinomialTail.span(trials: trials, share: share).high)
        while threshold > 0, above + at <= alpha {
            above += at
            threshold -= 1
            at = BinomialTail.probability(threshold, trials: trials, share: share)
        }
    }

    /// The counts that carry all but a negligible part of the chance: the mean ± (12 standard
    /// deviations + 40), within 0…trials.
    private static func span(trials: Int, share: Double) -> (low: Int, high: Int) {
        let mean = Double(trials) * share
        let width = 12 * mean.squareRoot() + 40
        return (max(0, Int((mean - width).rounded(.down))), min(trials, Int((mean + width).rounded(.up))))
    }

    /// Binomial(trials, share)'s P(X = k).
    static func probability(_ k: Int, trials: Int, share: Double) -> Double {
        guard k >= 0, k <= trials else { return 0 }
        if share >= 1 { return k == trials ? 1 : 0 }
        let (n, x) = (Double(trials), Double(k))
        let ways: Double = lgamma(n + 1) - lgamma(x + 1) - lgamma(n - x + 1)
        let chance: Double = x * log(share) + (n - x) * log1p(-share)
        return exp(ways + chance)
    }

    /// One more trial: X' = X + Bernoulli(share).
    mutating func addTrial() {
        let below = threshold > 0 ? at * Double(threshold) / Double(trials - threshold + 1) * (1 - share) / share : 0
        above += share * at
        at = (1 - share) * at + share * below
        trials += 1
    }

    /// The threshold one higher.
    mutating func raise() {
        let ratio = Double(trials - threshold) / Double(threshold + 1) * share / (1 - share)
        let next = threshold < trials ? at * ratio : 0
        above -= next
        at = next
        threshold += 1
    }
}
