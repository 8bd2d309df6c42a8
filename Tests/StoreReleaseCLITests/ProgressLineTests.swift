import Foundation
import StoreReleaseTestSupport
import Testing

/// Long work is never silent: `lookup --countries all` says on stderr how far its sweep has come
/// from its start, a wait at the lookup limit is said at once with how long it lasts, stdout keeps
/// only the JSON, and `--quiet` leaves the progress out.
@Suite struct ProgressLineTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    @Test func aSweepSaysHowFarItHasComeOnStderrAndNothingElseOnStdout() throws {
        let sweep = ["--base-url", server.baseURL("sweep").absoluteString, "--lookups-per-minute", "6000"]
        let result = try BuiltProducts.run(
            "storerelease", ["lookup", "--id", "414478124", "--countries", "all"] + sweep)
        #expect(result.status == 1, "storefronts without the app: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.first == "lookup: 0 of 175 storefronts looked up", "the first line, at the start: \(result.stderr)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(found.count == 7, "stdout is the releases alone")
        let quiet = try BuiltProducts.run(
            "storerelease", ["lookup", "--id", "414478124", "--countries", "all", "--quiet"] + sweep)
        #expect(!quiet.stderr.contains("storefronts looked up"), "\(quiet.stderr)")
        #expect(quiet.stdout == result.stdout)
    }

    /// Waits (at most a minute) for a line on the standard error of a running `storerelease`.
    func firstLine(containing text: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("storerelease")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let reading = ErrorText(errors.fileHandleForReading)
        try waitUntil("a line with \(text) on stderr", deadline: .seconds(60)) {
            reading.text.contains(text) || !process.isRunning
        }
        return reading.text.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? reading.text
    }

    /// What a process wrote to a pipe so far, read as it comes.
    final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        init(_ handle: FileHandle) {
            handle.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                if chunk.isEmpty { handle.readabilityHandler = nil }
                self?.lock.withLock { self?.data.append(chunk) }
            }
        }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    @Test func aWaitAtTheLookupLimitIsSaidAtOnceWithHowLongItLasts() throws {
        // One lookup a minute: the second storefront waits about 60 s for its turn.
        let line = try firstLine(
            containing: "waiting",
            [
                "lookup", "--id", "414478124", "--countries", "us,cn", "--base-url",
                server.baseURL("sweep").absoluteString, "--lookups-per-minute", "1",
            ])
        #expect(
            line.hasPrefix("lookup: 1 of 2 storefronts looked up; waiting ")
                && line.hasSuffix(" s for the lookup limit (1 a minute)"), "\(line)")
        // Said as the wait begins, with nearly all of it left (the first lookup's time taken off):
        // the line written every 10 s from the start would say about 51 s or less.
        let seconds = line.components(separatedBy: "waiting ").last?.split(separator: " ").first.flatMap { Int($0) }
        #expect((seconds ?? 0) >= 55, "\(line)")
    }

    @Test func aWatchRoundHeldBackByTheLookupLimitSaysSo() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: state) }
        let line = try firstLine(
            containing: "waiting",
            [
                "watch", "--id", "414478124", "--countries", "us,cn", "--base-url",
                server.baseURL("sweep").absoluteString, "--lookups-per-minute", "1", "--state", state.path,
                "--rounds", "1",
            ])
        #expect(
            line.hasPrefix("watch: waiting ") && line.hasSuffix(" s for the lookup limit (1 a minute)"), "\(line)")
    }
}
