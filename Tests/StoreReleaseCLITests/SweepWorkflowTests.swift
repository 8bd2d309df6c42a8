import Foundation
import StoreReleaseTestSupport
import Testing

/// The sharded sweep the docs ship (a GitHub Actions matrix, a Kubernetes Indexed Job): their
/// exact commands, run side by side against the loopback fake, merge into the same answer as one
/// unsharded sweep.
@Suite struct SweepWorkflowTests {
    let server: LoopbackServer
    let folder: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// A command of the docs pointed at the fakes: the lookup API's sweep and the Play API.
    func pointed(_ command: String, token: String) -> String {
        command
            .replacingOccurrences(
                of: "storerelease lookup",
                with:
                    "storerelease lookup --base-url \(server.baseURL("sweep", token: token)) --lookups-per-minute 6000"
            )
            .replacingOccurrences(
                of: "storerelease parity", with: "storerelease parity --play-base-url \(server.baseURL("ok"))")
    }

    /// Runs a shell line in the test's folder with the built tool first on PATH.
    func shell(_ line: String, environment: [String: String] = [:]) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"\(folder.path)\" && \(line)"],
            environment: ["PATH": BuiltProducts.directory.path + ":/usr/bin:/bin", "STORERELEASE_PLAY_TOKEN": "sweep"]
                .merging(environment) { $1 })
    }

    /// Runs shell lines side by side, as the runners or pods of a sweep run, and returns each
    /// one's result. (Not `&` and `wait` in one shell: a shell started from the test process
    /// inherits a signal mask under which its `wait` never returns.)
    func sideBySide(_ lines: [String], environment: @Sendable (Int) -> [String: String] = { _ in [:] })
        -> [BuiltProducts.Result?]
    {
        let results = Results(count: lines.count)
        DispatchQueue.concurrentPerform(iterations: lines.count) { index in
            results.set(index, try? shell(lines[index], environment: environment(index)))
        }
        return results.all
    }

    /// The results of concurrent runs, one slot each.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [BuiltProducts.Result?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ result: BuiltProducts.Result?) { lock.withLock { slots[index] = result } }
        var all: [BuiltProducts.Result?] { lock.withLock { slots } }
    }

    /// The report of one unsharded sweep of every storefront.
    func unsharded() throws -> [String: Any] {
        let result = try shell(
            "storerelease parity --id 414478124 --countries all --base-url \(server.baseURL("sweep")) "
                + "--lookups-per-minute 6000 --package com.example.rollout --play-base-url \(server.baseURL("ok"))")
        #expect(result.status == 1, "the stores do not agree: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func expectSameAnswer(
        _ merged: [String: Any], _ whole: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func json(_ value: Any?) -> Data? {
            var value = value
            // The parts list their storefronts part by part: the same storefronts, another order.
            if let storefronts = value as? [[String: Any]], storefronts.first?["releaseDate"] != nil {
                value = storefronts.sorted { ($0["country"] as? String ?? "") < ($1["country"] as? String ?? "") }
            }
            return try? JSONSerialization.data(withJSONObject: value as Any, options: [.sortedKeys, .fragmentsAllowed])
        }
        for key in ["countries", "storefronts", "laggingStorefronts", "agree"] {
            #expect(
                json(merged[key]) != nil && json(merged[key]) == json(whole[key]), "\(key) differs",
                sourceLocation: sourceLocation)
        }
    }

    @Test func theGitHubMatrixMergesIntoTheUnshardedAnswer() throws {
        let workflow = try text("Docs/Sweep/github-actions.yml")
        let runs = workflow.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("run: storerelease") ? String(trimmed.dropFirst(5)) : nil
        }
        #expect(runs.count == 2, "a lookup step and a parity step: \(runs)")
        let shardLine = try #require(workflow.split(separator: "\n").first { $0.contains("shard: [") })
        let shards =
            shardLine.components(separatedBy: "[").last?.components(separatedBy: "]").first?
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        #expect(shards == ["1", "2", "3"])
        // The matrix's runners side by side, each its own client of the fake.
        let lookups = shards.map { shard in
            pointed(runs[0], token: UUID().uuidString).replacingOccurrences(of: "${{ matrix.shard }}", with: shard)
        }
        for part in sideBySide(lookups) { #expect(part?.status == 0, "\(part?.stderr ?? "did not run")") }
        let parity = pointed(runs[1], token: "").replacingOccurrences(
            of: ">> \"$GITHUB_STEP_SUMMARY\"", with: "> summary.md")
        let summary = try shell(parity)
        #expect(summary.status == 1, "\(summary.stderr)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(
            markdown.hasPrefix("### The stores do not agree")
                && markdown.contains("Storefronts: 5 live, 2 behind (gb, jp), 177 missing"))
        let json = try shell(parity.replacingOccurrences(of: " --format markdown > summary.md", with: ""))
        let merged = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        expectSameAnswer(merged, try unsharded())
    }

    @Test func theKubernetesIndexedJobMergesIntoTheUnshardedAnswer() throws {
        let job = try text("Docs/Sweep/kubernetes-job.yaml")
        let commands = job.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("command: [\"sh\", \"-c\", \"") else { return nil }
            return line.components(separatedBy: "\"-c\", \"").last?.components(separatedBy: "\"]").first
        }
        #expect(commands.count == 2, "the lookup pods and the report: \(commands)")
        let sweep = folder.appendingPathComponent("sweep").path
        try FileManager.default.createDirectory(atPath: sweep, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/play-production.json")
                .path,
            toPath: sweep + "/production.json")
        let pod = commands[0].replacingOccurrences(of: "/sweep/", with: sweep + "/")
        let pods = (0..<3).map { _ in pointed(pod, token: UUID().uuidString) }
        let results = sideBySide(pods) { ["JOB_COMPLETION_INDEX": String($0)] }
        for part in results { #expect(part?.status == 0, "\(part?.stderr ?? "did not run")") }
        let report = try shell(commands[1].replacingOccurrences(of: "/sweep/", with: sweep + "/"))
        #expect(report.status == 1, "\(report.stderr)")
        let merged = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let countries = merged["countries"] as? [[String: Any]] ?? []
        #expect(countries.count == 184, "every storefront")
        #expect(countries.filter { $0["appStore"] as? String == "missing" }.count == 184 - 7)
    }

    @Test func waitAsksTheStorefrontsTheAppIsSoldIn() throws {
        let token = UUID().uuidString
        let tokenFile = BuiltProducts.packageRoot.appendingPathComponent("Tests/Fixtures/asc/token.txt").path
        let result = try shell(
            "storerelease wait --id 414478124 --countries sold --version 8.0.2 --interval 0.05 --timeout 30 "
                + "--base-url \(server.baseURL("sweep", token: token)) --lookups-per-minute 6000 "
                + "--asc-token-file \(tokenFile) --asc-base-url \(server.baseURL("complete"))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try server.stats(token: token).requests == 6, "one round over the six storefronts it is sold in")
    }

    @Test func theManifestOfASweepAnnouncesWhatEveryStorefrontServes() throws {
        let tokenFile = BuiltProducts.packageRoot.appendingPathComponent("Tests/Fixtures/asc/token.txt").path
        let result = try shell(
            "storerelease manifest --platform appStore --id 414478124 --countries sold --minimum-supported 8.0.2 "
                + "--now 2030-01-01T00:00:00Z --base-url \(server.baseURL("sweep")) --lookups-per-minute 6000 "
                + "--asc-token-file \(tokenFile) --asc-base-url \(server.baseURL("complete"))")
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(manifest["latestVersion"] as? String == "8.0.2", "gb and jp still serve 8.0.2")
        #expect(manifest["minimumSupportedVersion"] == nil)
        #expect(
            result.stderr.contains("the lookup shows 8.0.10 but App Store Connect's live version is 8.0.2"),
            "forcing is judged over every storefront swept: \(result.stderr)")
    }

    @Test func aPartOfAnotherSweepAndABadShardAreRefused() throws {
        let cn = try shell(
            "storerelease lookup --id 414478124 --countries cn --base-url \(server.baseURL("sweep")) > a.json && "
                + "storerelease lookup --id 999 --countries de --base-url \(server.baseURL("sweep")) > b.json")
        #expect(cn.status == 0, "\(cn.stderr)")
        let mixed = try shell(
            "storerelease parity --lookup a.json,b.json --play-track \(BuiltProducts.packageRoot.path)/Docs/Examples/payloads/play-production.json"
        )
        #expect(mixed.status == 2 && mixed.stderr.contains("--lookup b.json is of app 999"), "\(mixed.stderr)")
        for bad in ["0/3", "4/3", "1/65", "x"] {
            let result = try shell("storerelease lookup --id 1 --countries all --shard \(bad)")
            #expect(result.status == 2 && result.stderr.contains("--shard \"\(bad)\""), "\(bad): \(result.stderr)")
        }
        let sold = try shell("STORERELEASE_ASC_TOKEN= storerelease parity --id 1 --countries sold --play-track x.json")
        #expect(sold.status == 2 && sold.stderr.contains("--countries sold needs App Store Connect credentials"))
        let unknown = try shell("storerelease lookup --id 1 --countries zz")
        #expect(unknown.status == 2 && unknown.stderr.contains("\"zz\""), "\(unknown.stderr)")
    }
}
