/// Timing helpers: the median of several runs, in nanoseconds, on the monotonic clock.
enum Measure {
    /// Runs `body` `repetitions` times and returns the median duration in nanoseconds.
    @inline(__always)
    static func median(repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let elapsed = try clock.measure(body)
            samples.append(Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

/// Keeps results alive so the optimiser cannot drop the work that made them.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// One row of the report.
struct Row {
    let name: String
    let value: Double
    let unit: String
    /// The baseline's value: a cost (lower is better), or for ``inverse`` rows its reciprocal.
    let baseline: Double?
    let note: String
    /// Whether the value is a rate (higher is better), such as MB/s.
    var inverse = false

    var formatted: String {
        let number = value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
        var ratio = ""
        if let baseline, value > 0 {
            let speedup = inverse ? value * baseline : baseline / value
            ratio =
                speedup >= 1
                ? "\((speedup * 10).rounded() / 10)x faster" : "\((1 / speedup * 10).rounded() / 10)x slower"
        }
        return name.padding(toLength: 44) + (number + " " + unit).padding(toLength: 14) + ratio.padding(toLength: 16)
            + note
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
