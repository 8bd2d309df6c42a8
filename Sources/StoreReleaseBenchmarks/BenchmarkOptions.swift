import StoreReleaseKit

/// The benchmark's command line: `[--quick] [--only rollout] [--rollouts N] [--seed S] [--false-halts A]`.
struct BenchmarkOptions: Sendable, Hashable {
    /// The parts `--only` can name.
    enum Part: String, Sendable, Hashable, CaseIterable {
        /// The generated rollouts of ``RolloutBenchmarks``.
        case rollout
    }

    /// Small sizes, a smoke run.
    var quick = false
    /// Run only this part; `nil`: every part.
    var only: Part?
    /// Generated rollouts per app size band and multiplier (default 200, 3 with `--quick`).
    var rollouts = 200
    /// The rollouts' seed.
    var seed: UInt64 = 43
    /// The gate's chance a store of halting a good release, for the rollouts (default: the rule's, 1 in 1,000).
    ///
    /// To see what a looser or stricter rule would gain; the rule itself does not change.
    var falseHaltsPerStore = SequentialHealthRule.falseHaltsPerStore

    static let usage =
        "the options are --quick, --only rollout, --rollouts N (N ≥ 1), --seed S (S ≥ 0) and --false-halts A (0 < A < 1)"

    /// Reads `arguments`.
    ///
    /// - Throws: ``BenchmarkOptionsError`` naming an unknown argument, a missing value or a value
    ///   that is not one.
    init(_ arguments: [String]) throws(BenchmarkOptionsError) {
        var rollouts: Int?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--only":
                guard let value = rest.popFirst() else { throw .missingValue(argument) }
                guard let part = Part(rawValue: value) else { throw .badValue(argument, value) }
                only = part
            case "--rollouts":
                guard let value = rest.popFirst() else { throw .missingValue(argument) }
                guard let count = Int(value), count >= 1 else { throw .badValue(argument, value) }
                rollouts = count
            case "--seed":
                guard let value = rest.popFirst() else { throw .missingValue(argument) }
                guard let seed = UInt64(value) else { throw .badValue(argument, value) }
                self.seed = seed
            case "--false-halts":
                guard let value = rest.popFirst() else { throw .missingValue(argument) }
                guard let chance = Double(value), chance > 0, chance < 1 else { throw .badValue(argument, value) }
                falseHaltsPerStore = chance
            default: throw .unknown(argument)
            }
        }
        self.rollouts = rollouts ?? (quick ? 3 : 200)
    }
}

/// A command line the benchmark refuses, naming what is wrong.
enum BenchmarkOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknown(String)
    case missingValue(String)
    case badValue(String, String)

    var description: String {
        switch self {
        case .unknown(let argument): "unknown argument \(argument) (\(BenchmarkOptions.usage))"
        case .missingValue(let option): "\(option) needs a value (\(BenchmarkOptions.usage))"
        case .badValue(let option, let value): "\(option) \(value): not a valid value (\(BenchmarkOptions.usage))"
        }
    }
}
