import Foundation
import StoreReleaseKit

/// `storerelease health`'s Play read at its largest: 90 days × 50 versionCodes of crash and ANR
/// rates (4,500 rows a metric set), every page, through the client's limit of Google's 10
/// queries a second, from the tests' fake of the Play Developer Reporting API
/// (`Tests/Support/play_reporting.py`, scenario `bench`) on 127.0.0.1.
enum HealthBenchmarks {
    /// The package's folder (this file is `Sources/StoreReleaseBenchmarks/HealthBenchmarks.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let name = "health, Play 90 days x 50 versionCodes"

    /// The fake, started for the run and stopped after it.
    struct Fake {
        let process: Process
        let url: URL

        init() throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", root.appendingPathComponent("Tests/Support/lookup_server.py").path,
                root.appendingPathComponent("Tests/Fixtures").path,
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw Failure(description: "lookup_server.py exited before its port") }
                line.append(chunk)
            }
            let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let url = URL(string: "http://127.0.0.1:\(port)") else {
                throw Failure(description: "lookup_server.py printed \(port.debugDescription), not a port")
            }
            self.url = url
        }

        /// How many requests the fake saw for a token.
        func requests(token: String) -> Int {
            let stats = url.appendingPathComponent(token).appendingPathComponent("reportingstats")
            guard let data = try? Data(contentsOf: stats),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return 0 }
            return object["requests"] as? Int ?? 0
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func run(repetitions: Int) async throws -> [Row] {
        guard let fake = try? Fake() else {
            return [
                Row(
                    name: name, samples: Samples(values: []), unit: "s",
                    note: "skipped: python3 is not installed (the fake is Tests/Support/lookup_server.py)")
            ]
        }
        defer { fake.process.terminate() }
        var seconds: [Double] = []
        var requests = 0
        for round in 0..<repetitions {
            let token = "bench-\(round)-\(UUID().uuidString)"
            var configuration = HTTPClientConfiguration.playDeveloperReporting
            configuration.baseURL = fake.url.appendingPathComponent(token).appendingPathComponent("bench")
            let client = try PlayDeveloperReportingClient(
                token: try BearerToken("benchmark-token"), configuration: configuration)
            let source = PlayVitalsSource(client: client, packageName: "com.example.health")
            var days: [HealthDay] = []
            let elapsed = try await ContinuousClock().measure { days = try await source.days() }
            guard days.count == 4500 else {
                throw Failure(description: "\(name): read \(days.count) days, not 4,500")
            }
            seconds.append(elapsed.nanoseconds / 1e9)
            requests = fake.requests(token: token)
        }
        let floor = Double(requests) / Double(PlayDeveloperReportingClient.queriesPerSecond)
        return [
            Row(
                name: name, samples: Samples(values: seconds), unit: "s",
                note: "\(requests) requests (the fake pages 500 rows); at Google's own limit, "
                    + "\(PlayDeveloperReportingClient.queriesPerSecond) queries a second, they take at least "
                    + "\(Row.short(floor)) s")
        ]
    }
}
