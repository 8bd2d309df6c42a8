/// Timing helpers: every row is measured in rounds that run the subject and its baseline
/// alternately (A, B, A, B …, the order turning each round), so both see the same machine.
enum Measure {
    /// Runs each body once a round, for `repetitions` rounds, starting each round one body
    /// later than the last; returns each body's samples, in nanoseconds divided by `per`, in
    /// round order.
    static func rounds(repetitions: Int, per: Double = 1, _ bodies: [() throws -> Void]) throws -> [Samples] {
        let clock = ContinuousClock()
        var values = [[Double]](repeating: [], count: bodies.count)
        for round in 0..<repetitions {
            for turn in bodies.indices {
                let index = (turn + round) % bodies.count
                let elapsed = try clock.measure(bodies[index])
                values[index].append(elapsed.nanoseconds / per)
            }
        }
        return values.map(Samples.init)
    }
}

extension Duration {
    var nanoseconds: Double { Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9 }
}

/// One measurement's values, in the order of the rounds they were taken in.
struct Samples {
    let values: [Double]

    var minimum: Double { values.min() ?? 0 }
    var maximum: Double { values.max() ?? 0 }
    var median: Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Each sample transformed (nanoseconds to a rate, say).
    func map(_ transform: (Double) -> Double) -> Samples { Samples(values: values.map(transform)) }
}

/// Keeps results alive so the optimiser cannot drop the work that made them.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// One row of the report: a measurement with its spread, and the ratio to its baseline taken
/// round by round (the baseline was measured in the same rounds).
struct Row {
    let name: String
    let samples: Samples
    let unit: String
    /// The baseline, in the same unit and rounds.
    var baseline: Samples? = nil
    let note: String
    /// Whether the value is a rate (higher is better), such as MB/s.
    var higherIsBetter = false
    /// Peak resident memory of a whole process, in MiB.
    var peakMiB: Double? = nil
    /// How a ratio reads: "faster"/"slower", or "less"/"more" for memory.
    var words: (better: String, worse: String) = ("faster", "slower")

    static let header =
        "benchmark".padding(toLength: 46) + "median".padding(toLength: 12) + "[min - max]".padding(toLength: 20)
        + "against its baseline [min - max]".padding(toLength: 36) + "peak".padding(toLength: 11) + "note"

    var formatted: String {
        guard !samples.values.isEmpty else { return name.padding(toLength: 125) + note }
        var ratio = ""
        if let baseline, baseline.values.count == samples.values.count {
            let speedups = zip(samples.values, baseline.values).map { value, base in
                higherIsBetter ? value / base : base / value
            }
            let median = Samples(values: speedups).median
            let spread = "[\(Self.short(speedups.min() ?? 0)) - \(Self.short(speedups.max() ?? 0))]"
            if Self.short(median) == "1" {
                ratio = "the same \(spread)"
            } else if median > 1 {
                ratio = "\(Self.short(median))x \(words.better) \(spread)"
            } else {
                let inverse = "[\(Self.short(1 / (speedups.max() ?? 1))) - \(Self.short(1 / (speedups.min() ?? 1)))]"
                ratio = "\(Self.short(1 / median))x \(words.worse) \(inverse)"
            }
        }
        let spread = "[\(Self.short(samples.minimum)) - \(Self.short(samples.maximum))]"
        return name.padding(toLength: 46) + "\(Self.short(samples.median)) \(unit)".padding(toLength: 12)
            + spread.padding(toLength: 20) + ratio.padding(toLength: 36)
            + (peakMiB.map { "\(Self.short($0)) MiB" } ?? "").padding(toLength: 11) + note
    }

    /// Three significant digits at most: 0.123, 1.23, 12.3, 123, 1234.
    static func short(_ value: Double) -> String {
        if value >= 100 { return String(Int(value.rounded())) }
        let digits = value >= 10 ? 1 : value >= 1 ? 2 : 3
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

extension Row {
    /// The rows of measurements taken in the same rounds, one a sample: the first is the baseline
    /// and each other is set against it (`labels`: each row's name and note, in order).
    static func againstFirst(
        _ samples: [Samples], unit: String, higherIsBetter: Bool = false, _ labels: [(name: String, note: String)]
    ) -> [Row] {
        zip(samples.indices, labels).map { index, label in
            Row(
                name: label.name, samples: samples[index], unit: unit, baseline: index == 0 ? nil : samples[0],
                note: label.note, higherIsBetter: higherIsBetter)
        }
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
