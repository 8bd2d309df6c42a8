import Foundation
import StoreReleaseKit

/// The least exposure at which any rule could halt a regression half the time while halting a
/// good release with a chance of at most α: the bound of an oracle that knows N−1's true crash
/// rate (and N's first day's) exactly and looks once.
///
/// The model is the generator's, with Poisson counts: N's crashed users, counted along its
/// user-days t, arrive at the rate λ(t) of a good release (N−1's true rate times the first day's
/// early factor and jitter for the first day's users, N−1's true rate after) or m·λ(t) for a
/// regression at m. The first day's users do not depend on a rule (every rollout starts at 1%),
/// so λ is the same function of exposure whatever schedule a rule's holds and advances produce,
/// and the likelihood ratio of everything N's crashes show by exposure E is a function of their
/// count alone, Poisson with mean Λ(E) or m·Λ(E). A rule that halts by E with a chance of at
/// least 1/2 while halting a good release with a chance of at most α is a test of that data of
/// size ≤ α and power ≥ 1/2 (its other inputs, ANR and N−1's days, are the same under both), so
/// by Neyman–Pearson the randomized test of the count has at least its power at E: ``bound(_:criticalMean:)``
/// is where that test's power first reaches 1/2, and never below the first day's users (no rule
/// sees anything sooner).
enum OracleBound {
    /// Where a rule's first look comes: the users of the first day, the same for every rule.
    static func firstDayUsers(_ app: RolloutApp) -> Int {
        let fraction = RolloutSimulation.schedule.percentages[0] / 100
        return Int((Double(app.dailyUsers) * fraction * RolloutSimulation.adoption(day: 0)).rounded())
    }

    /// A good release's true crash rate on its first day: N−1's, times the early adopters' factors.
    static func firstDayRate(_ app: RolloutApp) -> Double {
        app.previousRate * app.earlyFactor * app.candidateJitter
    }

    /// The crashes a good release of `app` is expected to have in its first `exposure` user-days: Λ.
    static func nullMean(_ app: RolloutApp, exposure: Double) -> Double {
        let firstDay = Double(firstDayUsers(app))
        let firstRate = firstDayRate(app)
        return firstRate * min(exposure, firstDay) + app.previousRate * max(0, exposure - firstDay)
    }

    /// The user-days at which a good release of `app` is expected to have `mean` crashes: Λ⁻¹.
    static func exposure(_ app: RolloutApp, nullMean mean: Double) -> Double {
        let firstDay = Double(firstDayUsers(app))
        let firstRate = firstDayRate(app)
        guard mean > firstRate * firstDay else { return mean / firstRate }
        return firstDay + (mean - firstRate * firstDay) / app.previousRate
    }

    /// The oracle's bound for `app`: the least user-days at which a good release is expected to have
    /// `criticalMean` crashes (``criticalMean(multiplier:alpha:)``), the first day's users at least.
    static func bound(_ app: RolloutApp, criticalMean: Double) -> Int {
        max(firstDayUsers(app), poissonBound(app, criticalMean: criticalMean))
    }

    /// The Poisson bound alone, without the first day's floor.
    static func poissonBound(_ app: RolloutApp, criticalMean: Double) -> Int {
        Int(exposure(app, nullMean: criticalMean).rounded(.up))
    }

    /// The most chance any rule of false-halt chance `alpha` has to halt `app`'s regression at
    /// `multiplier` by `exposure` user-days: the oracle's power there (0 before the first day ends).
    static func bestChance(_ app: RolloutApp, multiplier: Double, alpha: Double, by exposure: Int) -> Double {
        guard exposure >= firstDayUsers(app) else { return 0 }
        return power(nullMean: nullMean(app, exposure: Double(exposure)), multiplier: multiplier, alpha: alpha)
    }

    /// The good release's expected crashes at which the oracle's power first reaches 1/2: μ*,
    /// the same for every app (bisection on a log scale, a fixed number of steps).
    static func criticalMean(multiplier: Double, alpha: Double) -> Double {
        leastMean { power(nullMean: $0, multiplier: multiplier, alpha: alpha) }
    }

    /// The least mean (1e-4 to 1e5) at which `power`, increasing in it, reaches 1/2: bisection on a
    /// log scale, a fixed number of steps.
    static func leastMean(_ power: (Double) -> Double) -> Double {
        var (low, high) = (1e-4, 1e5)
        for _ in 0..<100 {
            let middle = (low * high).squareRoot()
            if power(middle) >= 0.5 {
                high = middle
            } else {
                low = middle
            }
        }
        return high
    }

    /// The power against Poisson(`multiplier` × `mean`) of the most powerful test of size `alpha`
    /// of Poisson(`mean`): halt above k crashes, and at k with the chance that makes the size exact.
    static func power(nullMean mean: Double, multiplier: Double, alpha: Double) -> Double {
        guard mean > 0 else { return 0 }
        let alternative = mean * multiplier
        let last = Int((alternative + 12 * alternative.squareRoot() + 40).rounded(.up))
        let null = tails(mean, through: last)
        let other = tails(alternative, through: last)
        // The least k whose tail above it, P(X > k), is at most alpha.
        guard let k = (0...last).first(where: { null.above[$0] <= alpha }) else { return 0 }
        let exact = (alpha - null.above[k]) / null.at[k]
        return other.above[k] + exact * other.at[k]
    }

    /// Poisson(`mean`)'s probabilities of 0…`last` and the tails above each, summed from the far end.
    private static func tails(_ mean: Double, through last: Int) -> (at: [Double], above: [Double]) {
        let at = (0...last).map { k in exp(Double(k) * log(mean) - mean - lgamma(Double(k) + 1)) }
        var above = [Double](repeating: 0, count: last + 1)
        var sum = 0.0
        for k in stride(from: last, through: 0, by: -1) {
            above[k] = sum
            sum += at[k]
        }
        return (at, above)
    }

    /// The chance that at least `count` of independent events of chances `chances` happen (the
    /// Poisson-binomial tail).
    static func chance(atLeast count: Int, of chances: [Double]) -> Double {
        var distribution = [1.0]
        for p in chances {
            var next = [Double](repeating: 0, count: distribution.count + 1)
            for (happened, q) in distribution.enumerated() {
                next[happened] += q * (1 - p)
                next[happened + 1] += q * p
            }
            distribution = next
        }
        return distribution.dropFirst(max(0, count)).reduce(0, +)
    }
}
