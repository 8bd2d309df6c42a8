import Foundation

// storerelease-benchmarks: the hot paths, each against a baseline measured in the same run.
//
//   swift run -c release storerelease-benchmarks            # full sizes
//   swift run -c release storerelease-benchmarks --quick    # small sizes, a smoke run
//
// Numbers are for comparison within one run on one machine; ratios are what carry over.

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
if let unknown = arguments.first(where: { $0 != "--quick" }) {
    FileHandle.standardError.write(
        Data("storerelease-benchmarks: unknown argument \(unknown) (the only option is --quick)\n".utf8))
    exit(2)
}
#if DEBUG
    print("note: a debug build; run with `swift run -c release storerelease-benchmarks` for real numbers\n")
#endif

let rows = try VersionBenchmarks.run(
    size: quick ? 2_000 : 200_000, sortSize: quick ? 10_000 : 1_000_000, repetitions: quick ? 3 : 7)
let lookupRows = try LookupBenchmarks.run(iterations: quick ? 20 : 500, repetitions: quick ? 3 : 7)
let decisionRows = try DecisionBenchmarks.run(size: quick ? 2_000 : 200_000, repetitions: quick ? 3 : 7)
let flowRows = try FlowBenchmarks.run(flows: quick ? 200 : 20_000, repetitions: quick ? 3 : 7)
let scaleRows = try await ScaleBenchmarks.run(batches: quick ? 5 : 50)
print("benchmark".padding(toLength: 44) + "median".padding(toLength: 14) + "ratio".padding(toLength: 16) + "against")
for row in rows + lookupRows + decisionRows + flowRows + scaleRows { print(row.formatted) }
