import Foundation

/// Work split into parts that run at the same time, one a core, for the few loops that are
/// worth it (reading a million version lines); each part writes only its own memory.
package enum ParallelParts {
    /// How many parts `count` items are split into: one under `minimum` items a part, else as
    /// many as the machine has cores, at most eight.
    package static func count(for count: Int, minimum: Int) -> Int {
        guard count >= 2 * minimum else { return 1 }
        return max(1, min(cores, 8, count / minimum))
    }

    private static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `body(part)` for each part, at the same time, in part order in the result.
    package static func map<Result>(_ parts: Int, _ body: (Int) -> Result) -> [Result] {
        guard parts > 1 else { return (0..<parts).map(body) }
        return [Result](unsafeUninitializedCapacity: parts) { results, initialized in
            guard let base = results.baseAddress else { return }
            withoutActuallyEscaping(body) { body in
                let box = UncheckedBox((body, base))
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let (body, base) = box.value
                    // Every part initializes its own slot and nothing else.
                    (base + part).initialize(to: body(part))
                }
            }
            initialized = parts
        }
    }

    /// Lets a closure and a result buffer cross into `concurrentPerform`, which does not know
    /// that each iteration touches its own part only.
    private struct UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
