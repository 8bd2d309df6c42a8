import Foundation

/// A rate with its 95% interval.
///
/// The fraction of users who crashed (or saw an ANR) over a window, and the Wilson score interval
/// around it.
///
/// The Wilson interval stays inside 0–1 and is honest for small samples and rates near zero,
/// where the normal approximation is not: 3 crashed users of 130 is 2.3%, interval 0.8–6.6%.
public struct HealthRate: Sendable, Hashable, Codable {
    /// The z of a two-sided 95% interval.
    public static let z = 1.959964

    /// The observed fraction, events ÷ trials (0 when there were no trials).
    public let value: Double
    /// The interval's lower bound.
    public let lower: Double
    /// The interval's upper bound.
    public let upper: Double

    /// The rate of `events` among `trials` with its Wilson score interval at 95%.
    ///
    /// With no trials nothing is known: the value is 0 and the interval all of 0–1.
    ///
    /// - Precondition: `0 <= events <= trials` (``HealthDay`` guarantees it for what it counts).
    public init(events: Int, of trials: Int) {
        self.init(events: Double(events), of: trials)
    }

    /// The rate of a count that may be a fraction among `trials`, with its Wilson interval at 95%.
    ///
    /// `events` is a fraction where a store reports a rate (a store's rate × its users).
    /// Google Play's 2.3% of 90 users is 2.07 crashed users: the rate stays 2.3%, where rounding
    /// to 2 users would make it 2.22%. The interval is the same formula, whose count need not be whole.
    ///
    /// - Precondition: `0 <= events <= trials`, finite (``HealthDay`` guarantees it for what it counts).
    public init(events: Double, of trials: Int) {
        precondition(
            events.isFinite && events >= 0 && events <= Double(trials), "a rate needs 0 <= events <= trials")
        guard trials > 0 else {
            (value, lower, upper) = (0, 0, 1)
            return
        }
        let n = Double(trials)
        let p = events / n
        let z2 = Self.z * Self.z
        let denominator = 1 + z2 / n
        let center = (p + z2 / (2 * n)) / denominator
        let half = Self.z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        (value, lower, upper) = (p, max(0, center - half), min(1, center + half))
    }

    /// `2.1%`: the fraction as a percentage with `digits` decimals.
    static func percent(_ fraction: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f%%", fraction * 100)
    }

    /// `2.1% [1.9–2.3]`: the value and its interval, in percent.
    func text(digits: Int = 1) -> String {
        let bound = { (fraction: Double) in String(format: "%.\(digits)f", fraction * 100) }
        return "\(Self.percent(value, digits: digits)) [\(bound(lower))–\(bound(upper))]"
    }
}
