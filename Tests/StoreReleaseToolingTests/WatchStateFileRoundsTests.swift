import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The state file's own path, a few dozen rounds of the soak's busy app on disk: what the
/// 10,000-round soak (in memory) does not touch. Two watches of the file one after the other, as
/// a restarted `watch --state` runs, and a reader beside them the whole time.
@Suite struct WatchStateFileRoundsTests {
    /// What the file looked like at the start of each round, and what the reader beside it saw.
    final class Observations: @unchecked Sendable {
        private let lock = NSLock()
        private var round = 0
        private var last: (bytes: Data, inode: UInt64)?
        private(set) var problems: [String] = []
        private(set) var replaced = 0

        func note(_ problem: String) { lock.withLock { problems.append(problem) } }

        /// Looks at the folder and the file before round `round + 1` is read; returns that round.
        func next(folder: URL, path: String) -> Int {
            lock.withLock {
                round += 1
                let names = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                if !names.isSubset(of: ["state.json", "state.json.lock"]) {
                    problems.append("round \(round): the folder holds \(names.sorted())")
                }
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    if round > 1 { problems.append("round \(round): no state file") }
                    return round
                }
                if (try? StrictJSON.decode(ReleaseSnapshot.self, from: bytes)) == nil {
                    problems.append("round \(round): the file is not a whole snapshot (\(bytes.count) bytes)")
                }
                let inode = (try? FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64) ?? 0
                if let last, last.bytes != bytes {
                    replaced += 1
                    if last.inode == inode { problems.append("round \(round): the file was rewritten in place") }
                }
                last = (bytes, inode)
                return round
            }
        }
    }

    /// A restarted watcher picks up where the last one left: 25 rounds, then 15 more.
    struct Watches {
        var baselines = 0
        var reported: [String] = []
        var firstUndelivered = -1
        var receiver = ReleaseWatcherSoakTests.Receiver()
    }

    /// Runs the two watches over `state`; `observe` is called at the start of each round.
    static func watch(_ state: any WatchStateStore, observe: @escaping @Sendable () -> Int) async throws -> Watches {
        var result = Watches()
        let notifier = try WebhookNotifier(
            url: try #require(URL(string: "https://hooks.example.com/soak")), format: .json,
            transport: result.receiver)
        let clock = VirtualClock()
        let watcher = ReleaseWatcher(
            state: state, notifier: notifier, interval: .seconds(300), clock: clock.clock,
            startDate: Date(timeIntervalSince1970: 1_612_915_200)
        ) { now, previous throws(ReleaseSourceError) in
            ReleaseWatcherSoakTests.snapshot(round: 5 * observe(), now: now, previous: previous)
        }
        for rounds in [25, 15] {
            let outcome = try await watcher.run(
                rounds: rounds,
                progress: { progress in
                    switch progress {
                    case .baseline: result.baselines += 1
                    case .events(let events): result.reported += events.map(\.id)
                    default: break
                    }
                })
            if result.firstUndelivered < 0 { result.firstUndelivered = outcome.undelivered }
        }
        return result
    }

    @Test func fortyRoundsOnDiskAreReplacedWholeAndSurviveARestartAsInMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.json").path
        let observations = Observations()

        // A reader beside the watches, as `storerelease lag` reading the file mid-watch.
        let done = LockedFlag()
        let reader = Task.detached {
            while !done.isSet {
                if let bytes = try? WatchStateFile(path: path).contents() {
                    if (try? StrictJSON.decode(ReleaseSnapshot.self, from: bytes)) == nil {
                        observations.note("a reader saw \(bytes.count) bytes that are not a whole snapshot")
                    }
                }
                await Task.yield()
            }
        }
        let onDisk = try await Self.watch(WatchStateFile(path: path)) {
            observations.next(folder: folder, path: path)
        }
        done.set()
        _ = await reader.value

        #expect(observations.problems.isEmpty, "\(observations.problems)")
        #expect(observations.replaced > 10, "the file was replaced round after round: \(observations.replaced)")
        #expect(onDisk.baselines == 1, "the second watch read the first one's state")
        #expect(onDisk.firstUndelivered == 0 && onDisk.reported.count > 10)
        #expect(onDisk.receiver.ids == onDisk.reported, "every event delivered once across the restart")

        // The same two watches over memory: the same events, and the very bytes the file holds.
        let memory = InMemoryWatchStateStore()
        let count = Counter()
        let inMemory = try await Self.watch(memory) { count.next() }
        #expect(inMemory.reported == onDisk.reported)
        #expect(memory.contents() == FileManager.default.contents(atPath: path))
        #expect(
            FileManager.default.contents(atPath: path) == Self.golden,
            "the state file is byte for byte what the watcher wrote before WatchStateStore (\(Self.goldenPath.path))")
    }

    /// The file these rounds left when the state was written by `WatchStateFile` alone.
    static let goldenPath = LoopbackServer.packageRoot.appendingPathComponent(
        "Tests/Fixtures/watch/state-40-rounds.json")
    static let golden = FileManager.default.contents(atPath: goldenPath.path)
}

/// A flag set once, read from another task.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Counts calls.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
