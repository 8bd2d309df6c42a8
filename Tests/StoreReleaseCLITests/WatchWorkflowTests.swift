import Foundation
import StoreReleaseTestSupport
import Testing

/// The scheduled watches the docs ship (Docs/Watch: a crontab, a GitHub Actions schedule, a
/// Kubernetes CronJob): their exact commands, run three times each against the scripted release,
/// record a baseline and then deliver each round's events to the webhook.
@Suite struct WatchWorkflowTests {
    let server: LoopbackServer
    let folder: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-flow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".storerelease"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
        // gcloud as the docs call it: prints an access token.
        let gcloud = folder.appendingPathComponent("bin/gcloud")
        try Data("#!/bin/sh\necho watch-flow-play-token\n".utf8).write(to: gcloud)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: gcloud.path)
        let key = folder.appendingPathComponent("AuthKey.p8")
        let made = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path])
        #expect(made.status == 0, "openssl: \(made.stderr)")
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch/\(path)"), encoding: .utf8)
    }

    /// Runs a shell line of the docs in the test's folder, pointed at the timeline and the receiver.
    func run(_ line: String, token: String) throws -> BuiltProducts.Result {
        let base = server.baseURL("timeline-release", token: token).absoluteString
        let pointed = line.replacingOccurrences(
            of: "storerelease watch",
            with:
                "storerelease watch --base-url \(base) --play-base-url \(base) --asc-base-url \(base) --lookups-per-minute 6000"
        )
        return try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"\(folder.path)\" && \(pointed)"],
            environment: [
                "PATH": folder.appendingPathComponent("bin").path + ":" + BuiltProducts.directory.path
                    + ":/usr/bin:/bin",
                "HOME": folder.path, "SLACK_WEBHOOK_URL": server.hookURL("ok", token: token).absoluteString,
                "ASC_KEY_FILE": folder.appendingPathComponent("AuthKey.p8").path, "ASC_KEY_ID": "WATCHKEY01",
                "ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a",
                "GITHUB_STEP_SUMMARY": folder.appendingPathComponent("summary.md").path,
            ])
    }

    /// Three rounds of `line`: a baseline, then the timeline's first two changes, each delivered.
    func expectThreeRounds(_ line: String, printed expected: Int = 6, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let token = UUID().uuidString
        var printed: [String] = []
        for round in 1...3 {
            let result = try run(line, token: token)
            #expect(result.status == 0, "round \(round): \(result.stderr)", sourceLocation: sourceLocation)
            printed += result.stdout.split(separator: "\n").map(String.init)
        }
        let deliveries = try server.hooks(token: token)
        #expect(deliveries.count == 2 && deliveries.allSatisfy { $0.status == 200 }, sourceLocation: sourceLocation)
        let texts = deliveries.compactMap { ($0.body as? [String: String])?["text"] }
        #expect(
            texts.first?.contains("Play review of 81: IN_REVIEW → PUBLISHED") == true, sourceLocation: sourceLocation)
        #expect(texts.last?.contains("App Store us: 8.0.9 → 8.0.10") == true, sourceLocation: sourceLocation)
        let stats = try server.ascStats(token: token)
        #expect((stats["jwts"] as? Int ?? 0) >= 3 && stats["malformed"] as? Int == 0, "signed with the key file")
        #expect(printed.count == expected, "the two rounds' events on stdout", sourceLocation: sourceLocation)
    }

    @Test func theCrontabLineWatchesRoundByRound() throws {
        let line = try #require(try text("crontab").split(separator: "\n").first { $0.hasPrefix("*/5 ") })
        let command = line.split(separator: " ", maxSplits: 5).last.map(String.init) ?? ""
        try expectThreeRounds(command, printed: 0)
        let events = try String(
            contentsOf: folder.appendingPathComponent(".storerelease/events.jsonl"), encoding: .utf8)
        #expect(events.split(separator: "\n").count == 6, "the events appended as JSON lines")
    }

    @Test func theGitHubScheduleWatchesAndSummarisesTheLag() throws {
        let lines = try text("github-actions.yml").split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("run: ") && trimmed.contains("storerelease ") ? String(trimmed.dropFirst(5)) : nil
        }
        let watch = try #require(lines.first { $0.contains("storerelease watch") })
        let lag = try #require(lines.first { $0.contains("storerelease lag") })
        try expectThreeRounds(watch)
        let result = try run(lag, token: "unused")
        #expect(result.status == 0)
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.hasPrefix("8.0.10: ready "), "\(summary)")
    }

    @Test func theKubernetesCronJobWatchesWithItsStateOnTheVolume() throws {
        let job = try text("kubernetes-cronjob.yaml")
        let line = try #require(job.split(separator: "\n").first { $0.contains("command: [") })
        let array = String(line.drop { $0 != "[" })
        let command = try #require(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [String])
        #expect(command.prefix(2) == ["sh", "-c"] && job.contains("concurrencyPolicy: Forbid"))
        // The CronJob's Play token is a secret in its environment.
        try expectThreeRounds(
            "STORERELEASE_PLAY_TOKEN=watch-flow-play-token "
                + command[2].replacingOccurrences(of: "/state/", with: folder.path + "/"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("watch-state.json").path))
    }
}
