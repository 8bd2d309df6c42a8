import Foundation

/// The lookup server of `Tests/Support/lookup_server.py`, started once per test process on a
/// free port of 127.0.0.1 and stopped when the process ends.
public final class LoopbackServer: @unchecked Sendable {
    /// The server every test shares; each test isolates its counters with its own token.
    public static let shared: Result<LoopbackServer, any Error> = Result { try LoopbackServer() }

    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    private let process: Process

    /// Whether URLSession connects to an IPv6 literal here: not over FoundationNetworking
    /// (swift-corelibs-foundation #5496), so the checks refuse `[::1]` there.
    #if canImport(FoundationNetworking)
        public static let ipv6Connects = false
    #else
        public static let ipv6Connects = true
    #endif

    /// The package's root folder (this file is `Tests/Support/LoopbackServer.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private init() throws {
        let support = Self.packageRoot.appendingPathComponent("Tests/Support")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", support.appendingPathComponent("lookup_server.py").path,
            Self.packageRoot.appendingPathComponent("Tests/Fixtures").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ServerError(message: "lookup_server.py exited before printing its port") }
            line.append(chunk)
        }
        let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw ServerError(message: "lookup_server.py printed \(port.debugDescription), not a port")
        }
        baseURL = url
    }

    deinit {
        process.terminate()
    }

    /// A base URL for one scenario (see the script's header), with a fresh token.
    public func baseURL(_ scenario: String, token: String = UUID().uuidString) -> URL {
        baseURL.appendingPathComponent(token).appendingPathComponent(scenario)
    }

    /// How many lookups a token's tests sent, and the ids of each.
    public func stats(token: String) throws -> (requests: Int, ids: [[String]]) {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("stats"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object["requests"] as? Int ?? -1, object["ids"] as? [[String]] ?? [])
    }

    /// The App Store Connect API's counters for a token (see `asc_api.py`).
    public func ascStats(token: String) throws -> [String: Any] {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("ascstats"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The Play Developer API's counters for a token (see `play_api.py`).
    public func playStats(token: String) throws -> [String: Any] {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("playstats"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The Play Developer Reporting API's counters for a token (see `play_reporting.py`).
    public func reportingStats(token: String) throws -> [String: Any] {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("reportingstats"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// What the second origin (127.0.0.2, where the `redirect` scenario points) received for a
    /// token: requests, and how many of them carried an `Authorization` header.
    public func elsewhere(token: String) throws -> (requests: Int, authorization: Int) {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("elsewhere"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object["requests"] as? Int ?? -1, object["authorization"] as? Int ?? -1)
    }

    /// The contract checks of the developer-API bodies served for a token (see `contract.py`):
    /// how many were checked, and every violation.
    public func contractChecks(token: String) throws -> (checked: Int, violations: [String]) {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("contract"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let problems = (object["violations"] as? [String] ?? []) + (object["unchecked"] as? [String] ?? [])
        return (object["checked"] as? Int ?? -1, problems)
    }

    /// What the webhook receiver (`/<token>/<scenario>/hook`) got for a token, in order: each
    /// delivery's status, JSON body and the scenario it was sent to.
    public func hooks(token: String) throws -> [(status: Int, body: Any, scenario: String)] {
        let data = try Data(contentsOf: baseURL.appendingPathComponent(token).appendingPathComponent("hooks"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object["deliveries"] as? [[String: Any]] ?? []).map {
            ($0["status"] as? Int ?? -1, $0["body"] ?? NSNull(), $0["scenario"] as? String ?? "")
        }
    }

    /// The webhook receiver's URL for a token and scenario (`ok`, `failonce`, `failalways`, `slow`).
    public func hookURL(_ scenario: String, token: String) -> URL {
        baseURL(scenario, token: token).appendingPathComponent("hook")
    }

    /// Runs a script of `Tests/Support` with Python 3 and returns its exit status and output.
    public static func runSupportScript(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appendingPathComponent("Tests/Support/\(name)").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    struct ServerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
