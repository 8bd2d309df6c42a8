import Foundation

/// The rollout benchmark's own seeded generator: SplitMix64 (Steele, Lea and Flood, "Fast
/// splittable pseudorandom number generators", OOPSLA 2014), so a run is the same on every
/// machine and toolchain.
///
/// The draws the generator makes (uniform, log-uniform, Gaussian, binomial) are written here too,
/// not taken from the standard library, whose algorithms may change between releases.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose stream `seed` fixes.
    init(seed: UInt64) {
        state = seed
    }

    /// A generator for one part of a run (a rollout, a day of it), its stream fixed by the seed
    /// and the parts' indices, independent of what other parts draw.
    init(seed: UInt64, _ parts: Int...) {
        var mixer = SplitMix64(seed: seed)
        var state = mixer.next()
        for part in parts {
            mixer = SplitMix64(seed: state ^ UInt64(truncatingIfNeeded: part) &* 0xD1B5_4A32_D192_ED03)
            state = mixer.next()
        }
        self.state = state
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1), 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniform draw in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A draw whose logarithm is uniform: as many apps between 2,000 and 20,000 users as between
    /// 200,000 and 2,000,000.
    mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(uniform(log(range.lowerBound)...log(range.upperBound)))
    }

    /// A standard normal draw (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(unit(), 0x1p-53)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * unit())
    }

    /// How many of `trials` users crash when each does with probability `p`.
    ///
    /// Exact (a draw per user) up to 1,000 trials; above, Poisson (Knuth's product of uniforms)
    /// while fewer than 20 events are expected, else the normal approximation, rounded and kept
    /// within 0…trials.
    mutating func binomial(_ trials: Int, _ p: Double) -> Int {
        guard trials > 0, p > 0 else { return 0 }
        if trials <= 1000 {
            var events = 0
            for _ in 0..<trials where unit() < p { events += 1 }
            return events
        }
        let mean = Double(trials) * p
        if mean < 20 {
            let limit = exp(-mean)
            var (events, product) = (0, unit())
            while product > limit {
                events += 1
                product *= unit()
            }
            return min(events, trials)
        }
        let drawn = (mean + (mean * (1 - p)).squareRoot() * gaussian()).rounded()
        return Int(min(max(drawn, 0), Double(trials)))
    }
}
