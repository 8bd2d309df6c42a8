import Foundation

// storerelease-benchmarks: the hot paths, each against a baseline measured in the same rounds.
//
//   swift run -c release storerelease-benchmarks            # full sizes, about three minutes
//   swift run -c release storerelease-benchmarks --quick    # small sizes, a smoke run
//   swift run -c release storerelease-benchmarks --only rollout [--rollouts N] [--seed S]
//                                  # issue 43's evidence alone: generated rollouts through the
//                                  # rollout gate and two fixed rules (RolloutBenchmarks)
//
// Every row runs alternately with its baseline (A, B, A, B …) and shows the median with the
// smallest and largest run; the ratio is taken round by round, its median and spread shown.
// Whole-process rows (the sort) also show peak memory. Ratios are what carry over to another
// machine; the first lines say which machine this was.

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == ProcessBenchmarks.childFlag { ProcessBenchmarks.measureChild(Array(arguments.dropFirst())) }
let options: BenchmarkOptions
do { options = try BenchmarkOptions(Array(arguments)) } catch {
    FileHandle.standardError.write(Data("storerelease-benchmarks: \(error)\n".utf8))
    exit(2)
}
let quick = options.quick
#if DEBUG
    print("note: a debug build; run with `swift run -c release storerelease-benchmarks` for real numbers\n")
#endif
print(MachineDescription.current)
print()

if options.only == nil {
    let repetitions = quick ? 3 : 7
    let processRows = try ProcessBenchmarks.run(
        lines: quick ? 10_000 : 1_000_000, otherLines: quick ? 2_000 : 200_000, repetitions: quick ? 2 : 7,
        starts: quick ? 4 : 101)
    let rows = try VersionBenchmarks.run(
        size: quick ? 2_000 : 200_000, sortSize: quick ? 10_000 : 1_000_000, repetitions: repetitions)
    let lookupRows = try LookupBenchmarks.run(iterations: quick ? 20 : 500, repetitions: repetitions)
    let decisionRows = try DecisionBenchmarks.run(size: quick ? 2_000 : 200_000, repetitions: repetitions)
    let flowRows = try FlowBenchmarks.run(flows: quick ? 200 : 20_000, repetitions: repetitions)
    let scaleRows = try await ScaleBenchmarks.run(batches: quick ? 5 : 50)
    let sweepRows = try await SweepBenchmarks.run(
        period: quick ? .milliseconds(20) : .milliseconds(250), repetitions: quick ? 1 : 3)
    let healthRows = try await HealthBenchmarks.run(repetitions: quick ? 1 : 3)
    print(Row.header)
    for row in processRows + rows + lookupRows + decisionRows + flowRows + scaleRows + sweepRows + healthRows {
        print(row.formatted)
    }
    print()
}
let rolloutStart = ContinuousClock.now
let rollouts = try RolloutBenchmarks.run(
    rollouts: options.rollouts, seed: options.seed, falseHaltsPerStore: options.falseHaltsPerStore)
for line in rollouts.lines { print(line) }
let rolloutSeconds = (ContinuousClock.now - rolloutStart).nanoseconds / 1e9
print("\n(the rollouts took \(String(format: "%.1f", rolloutSeconds)) s)")
