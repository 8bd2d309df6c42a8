import Foundation
import StoreReleaseTestSupport
import Testing

/// The scheduled watches the docs ship (Docs/Watch: a crontab, a GitHub Actions schedule, a
/// Kubernetes CronJob), each run three times under the conditions it is written for (cron's
/// environment; a fresh runner a run; a pod a round) against the scripted release: a baseline,
/// then each round's events delivered to the webhook, signed with the App Store Connect key and
/// with the Play token the recipe makes.
@Suite struct WatchWorkflowTests {
    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("watch-flow")
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch/\(path)"), encoding: .utf8)
    }

    /// The flags that point a watch at the timeline and the receiver of one token.
    func fakes(_ token: String) -> [String] {
        let base = server.baseURL("timeline-release", token: token).absoluteString
        return [
            "--base-url", base, "--play-base-url", base, "--asc-base-url", base, "--lookups-per-minute", "6000",
        ]
    }

    func point(_ line: String, token: String) -> String {
        // A line that reads the stores' health reads Play's from the fake's reporting API too.
        let reporting =
            line.contains(" --health ")
            ? ["--play-reporting-base-url", server.baseURL("timeline-release", token: token).absoluteString] : []
        return line.replacingOccurrences(
            of: "storerelease watch", with: "storerelease watch " + (fakes(token) + reporting).joined(separator: " "))
    }

    /// Three rounds of `round` (given the token, it runs one and returns its status and what it
    /// printed): a baseline, then the timeline's first two changes, each delivered.
    func expectThreeRounds(
        printed expected: Int = 6, playToken: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ round: (String, Int) throws -> (status: Int32, printed: String, log: String)
    ) throws {
        let token = UUID().uuidString
        var printed: [String] = []
        for number in 1...3 {
            let result = try round(token, number)
            #expect(result.status == 0, "round \(number): \(result.log)", sourceLocation: sourceLocation)
            printed += result.printed.split(separator: "\n").filter { $0.hasPrefix("{") }.map(String.init)
        }
        let deliveries = try server.hooks(token: token)
        #expect(deliveries.count == 2 && deliveries.allSatisfy { $0.status == 200 }, sourceLocation: sourceLocation)
        let texts = deliveries.compactMap { ($0.body as? [String: String])?["text"] }
        #expect(
            texts.first?.contains("Play review of 81: IN_REVIEW → PUBLISHED") == true, sourceLocation: sourceLocation)
        #expect(texts.last?.contains("App Store us: 8.0.9 → 8.0.10") == true, sourceLocation: sourceLocation)
        let stats = try server.ascStats(token: token)
        #expect((stats["jwts"] as? Int ?? 0) >= 3 && stats["malformed"] as? Int == 0, "signed with the key file")
        let bearers = try server.playStats(token: token)["bearer"] as? [String] ?? []
        #expect(
            !bearers.isEmpty && bearers.allSatisfy { $0.hasPrefix(playToken) }, "\(bearers)",
            sourceLocation: sourceLocation)
        #expect(printed.count == expected, "the two rounds' events on stdout", sourceLocation: sourceLocation)
    }

    /// A crontab of Docs/Watch on the machine its comment sets up: storerelease in /usr/local/bin,
    /// gcloud in /usr/bin, the key and the webhook's URL in ~/.config/storerelease, nothing in
    /// ~/.local/state. `run` runs its line (pointed at the fakes of a token) under cron's
    /// environment and the crontab's own lines (literal: cron expands nothing); `bare` the line as
    /// written without the crontab's PATH.
    func cronMachine(_ name: String, playToken: String) throws -> (
        home: URL, run: (String) throws -> BuiltProducts.Result, bare: () throws -> BuiltProducts.Result
    ) {
        let crontab = try text(name)
        let lines = crontab.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let schedule = try #require(lines.first { $0.first?.isNumber == true || $0.hasPrefix("*") })
        let command = String(schedule.split(separator: " ", maxSplits: 5)[5])
        #expect(!command.contains("%"), "cron turns % into a new line")
        let variables = lines.filter { $0 != schedule }.map { line in
            (String(line.prefix { $0 != "=" }), String(line.drop { $0 != "=" }.dropFirst()))
        }
        let home = folder.appendingPathComponent("home")
        let keyID = try #require(variables.first { $0.0 == "ASC_KEY_ID" }?.1)
        try RecipeTools.ascKey(at: home.appendingPathComponent(".config/storerelease/AuthKey_\(keyID).p8"))
        let localBin = folder.appendingPathComponent("usr-local-bin")
        try FileManager.default.createDirectory(at: localBin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: localBin.appendingPathComponent("storerelease"),
            withDestinationURL: BuiltProducts.directory.appendingPathComponent("storerelease"))
        let gcloud = try RecipeTools.gcloud(in: folder, token: playToken)
        func environment(_ variables: [(String, String)]) -> [String] {
            var environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "SHELL": "/bin/sh", "LOGNAME": "release"]
            for (name, value) in variables { environment[name] = value }
            environment["PATH"] = environment["PATH"]?.split(separator: ":").map { directory in
                switch directory {
                case "/usr/local/bin": localBin.path
                case "/usr/bin": gcloud.path + ":/usr/bin"
                default: String(directory)
                }
            }.joined(separator: ":")
            return environment.map { "\($0.key)=\($0.value)" }
        }
        func cron(_ line: String, _ variables: [(String, String)]) throws -> BuiltProducts.Result {
            try BuiltProducts.run(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                ["-i", "-C", home.path] + environment(variables) + ["/bin/sh", "-c", line])
        }
        return (
            home,
            { token in
                try FileManager.default.createDirectory(
                    at: home.appendingPathComponent(".config/storerelease"), withIntermediateDirectories: true)
                try Data((server.hookURL("ok", token: token).absoluteString + "\n").utf8)
                    .write(to: home.appendingPathComponent(".config/storerelease/slack-webhook-url"))
                return try cron(point(command, token: token), variables)
            },
            { try cron(command, variables.filter { $0.0 != "PATH" }) }
        )
    }

    @Test func theCrontabLineWatchesRoundByRoundUnderCronsEnvironment() throws {
        let machine = try cronMachine("crontab", playToken: "ya29.cron")
        let state = machine.home.appendingPathComponent(".local/state/storerelease")
        try expectThreeRounds(printed: 0, playToken: "ya29.cron") { token, _ in
            let result = try machine.run(token)
            let log = try? String(contentsOf: state.appendingPathComponent("watch.log"), encoding: .utf8)
            return (result.status, result.stdout, result.stderr + (log ?? ""))
        }
        let events = try String(contentsOf: state.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.split(separator: "\n").count == 6, "the events appended as JSON lines")
        // Without the crontab's PATH, cron's own finds no storerelease.
        let bare = try machine.bare()
        #expect(bare.status == 127, "\(bare.stderr)")
    }

    /// The rollout's crontab (`watch --rollout --lockstep --health`) under cron's environment,
    /// three rounds of the scripted release: each holds (the step is young, Play's health cannot
    /// be read for this app, Play has changes in review; then the review is over; then lockstep,
    /// Play being far above the phased release), says why once a change of reasons, records the
    /// decision on each history line, and writes nothing to Play. Each round decides on the
    /// stores as its own read saw them (one read a round: the scripted fake moves on with each
    /// request).
    @Test func theRolloutCrontabLineHoldsWithItsReasonsUnderCronsEnvironment() throws {
        let machine = try cronMachine("rollout-crontab", playToken: "ya29.cron")
        let state = machine.home.appendingPathComponent(".local/state/storerelease")
        let token = UUID().uuidString
        for round in 1...3 {
            let result = try machine.run(token)
            let log = (try? String(contentsOf: state.appendingPathComponent("rollout.log"), encoding: .utf8)) ?? ""
            #expect(result.status == 0, "round \(round): \(result.stderr) \(log)")
        }
        let log = try String(contentsOf: state.appendingPathComponent("rollout.log"), encoding: .utf8)
        #expect(log.components(separatedBy: "watch: the rollout of 8.0.10: hold").count - 1 == 3, "\(log)")
        let history = try String(contentsOf: state.appendingPathComponent("rollout-history.jsonl"), encoding: .utf8)
        let lines = history.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains(#""rollout":{"decision":"hold""#) })
        let events = try String(contentsOf: state.appendingPathComponent("rollout-events.jsonl"), encoding: .utf8)
        let held = events.split(separator: "\n").filter { $0.contains(#""type":"rolloutHeld""#) }
        #expect(held.count == 3, "a hold a round, each for new reasons: \(held)")
        #expect(held.first?.contains("Play has changes in review") == true, "\(held)")
        #expect(held.dropFirst().first?.contains("Play has changes in review") == false, "the review is over")
        #expect(held.last?.contains("lockstep: Play at 100% would be more than a step above") == true)
        let deliveries = try server.hooks(token: token)
        #expect(deliveries.count == 3 && deliveries.allSatisfy { $0.status == 200 })
        #expect(try server.playStats(token: token)["writes"] as? Int == 0, "a hold writes nothing to Play")
        let bearers = try server.playStats(token: token)["bearer"] as? [String] ?? []
        #expect(!bearers.isEmpty && bearers.allSatisfy { $0.hasPrefix("ya29.cron") }, "\(bearers)")
    }

    /// What the workflow's secrets and variables hold, as a repository's settings would.
    func settings(token: String) throws -> (vars: [String: String], secrets: [String: String]) {
        let key = folder.appendingPathComponent("AuthKey.p8")
        if !FileManager.default.fileExists(atPath: key.path) { try RecipeTools.ascKey(at: key) }
        return (
            [
                "APP_STORE_ID": "414478124", "PLAY_PACKAGE": "com.tencent.mm",
                "GCP_WORKLOAD_IDENTITY_PROVIDER":
                    "projects/123456789/locations/global/workloadIdentityPools/github/providers/release-team",
                "PLAY_SERVICE_ACCOUNT": "storerelease@release-team.iam.gserviceaccount.com",
            ],
            [
                "ASC_PRIVATE_KEY": try String(contentsOf: key, encoding: .utf8), "ASC_KEY_ID": "WATCHKEY01",
                "ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a",
                "SLACK_WEBHOOK_URL": server.hookURL("ok", token: token).absoluteString,
            ]
        )
    }

    @Test func theGitHubScheduleWatchesOnAFreshRunnerEachRunAndSummarisesTheLag() throws {
        let workflow = try text("github-actions.yml")
        let cache = folder.appendingPathComponent("actions-cache")
        var last: ActionsRunner.Job?
        var built: [Bool] = []
        try expectThreeRounds(playToken: "ya29.workload-identity-") { token, number in
            var runner = try ActionsRunner(
                workflow: workflow, folder: folder.appendingPathComponent("run-\(number)"), cache: cache
            ) { point($0, token: token) }
            (runner.vars, runner.secrets) = try settings(token: token)
            runner.runID = String(number)
            let job = try runner.run(job: "watch")
            last = job
            built.append(job.steps.first { $0.name == "Build storerelease" }?.ran == true)
            let round = job.steps.first { $0.name == "One round" }
            return (job.succeeded ? 0 : 1, round?.output ?? "", job.log)
        }
        #expect(built == [true, false, false], "built on the first run only, then restored from the cache")
        let summary = try #require(last?.summary)
        #expect(summary.hasPrefix("8.0.10: ready "), "\(summary)")
        #expect(summary.contains("[The release's timeline]("), "the summary links the timeline: \(summary)")
        let drawn = try String(
            contentsOf: folder.appendingPathComponent("run-3/artifacts/timeline/timeline.html"), encoding: .utf8)
        #expect(
            drawn.hasPrefix("<!doctype html>") && drawn.contains("<svg "), "the timeline is published as an artifact")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("run-3/artifacts/watch-history/watch-history.jsonl").path))
    }

    /// The rollout's schedule (`watch --rollout --lockstep --health`), three runs on fresh runners
    /// against the scripted release: each run holds for new reasons (told as `rolloutHeld`), the
    /// history kept in the cache grows by a line a run with the gate's decision, the timeline is
    /// published, and nothing is written to Play.
    @Test func theRolloutScheduleHoldsWithItsReasonsOnAFreshRunnerEachRun() throws {
        let workflow = try text("rollout-github-actions.yml")
        let cache = folder.appendingPathComponent("rollout-cache")
        let token = UUID().uuidString
        var printed: [String] = []
        for number in 1...3 {
            var runner = try ActionsRunner(
                workflow: workflow, folder: folder.appendingPathComponent("rollout-\(number)"), cache: cache
            ) { point($0, token: token) }
            (runner.vars, runner.secrets) = try settings(token: token)
            runner.runID = String(number)
            let job = try runner.run(job: "rollout")
            #expect(job.succeeded, "run \(number): \(job.log)")
            printed += (job.steps.first { $0.name == "One round" }?.output ?? "").split(separator: "\n").map(
                String.init)
        }
        #expect(printed.filter { $0.contains(#""type":"rolloutHeld""#) }.count == 3, "\(printed)")
        let history = try String(
            contentsOf: folder.appendingPathComponent("rollout-3/artifacts/rollout-history/rollout-history.jsonl"),
            encoding: .utf8)
        let lines = history.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains(#""rollout":{"decision":"hold""#) })
        let drawn = try String(
            contentsOf: folder.appendingPathComponent("rollout-3/artifacts/timeline/timeline.html"), encoding: .utf8)
        #expect(drawn.contains("<svg ") && drawn.contains("Rollout gate"), "the timeline shows the gate's decisions")
        #expect(try server.playStats(token: token)["writes"] as? Int == 0, "a hold writes nothing to Play")
        let deliveries = try server.hooks(token: token)
        #expect(deliveries.count == 3 && deliveries.allSatisfy { $0.status == 200 })
    }

    @Test func theGitHubScheduleNeedsItsSwiftSetUp() throws {
        let workflow = try text("github-actions.yml")
        // The workflow without its setup-swift step (from its `- uses:` line to the next step).
        var lines = workflow.split(separator: "\n", omittingEmptySubsequences: false)
        let setUp = try #require(lines.firstIndex { $0.contains("- uses: swift-actions/setup-swift") })
        let next = try #require(lines[(setUp + 1)...].firstIndex { $0.hasPrefix("      - ") })
        lines.removeSubrange(setUp..<next)
        let without = lines.joined(separator: "\n")
        var runner = try ActionsRunner(
            workflow: without, folder: folder.appendingPathComponent("run"),
            cache: folder.appendingPathComponent("cache")
        ) { point($0, token: "unused") }
        (runner.vars, runner.secrets) = try settings(token: "unused")
        let job = try runner.run(job: "watch")
        let build = try #require(job.steps.first { $0.name == "Build storerelease" })
        #expect(
            build.status == 127 && build.output.contains("swift"), "a fresh runner has no swift of its own: \(job.log)")
    }

    /// The rollout's CronJob (`watch --rollout --lockstep --health`), a pod a round, three rounds
    /// of the scripted release: each holds for new reasons (told as `rolloutHeld`), the state and
    /// the history (a line a round with the decision) stay on the claim, nothing is written to Play.
    @Test func theRolloutCronJobHoldsWithItsReasonsAPodARound() throws {
        let job = try cronJob("rollout-kubernetes-cronjob.yaml", name: "storerelease-rollout", in: "rollout")
        let token = UUID().uuidString
        var printed: [String] = []
        for round in 1...3 {
            let containers = try job.round(token)
            #expect(
                containers.allSatisfy { $0.status == 0 },
                "round \(round): \(containers.map { "\($0.name): \($0.stderr)" })")
            printed += (containers.last?.stdout ?? "").split(separator: "\n").map(String.init)
        }
        #expect(printed.filter { $0.contains(#""type":"rolloutHeld""#) }.count == 3, "\(printed)")
        let claim = job.pods.appendingPathComponent("claims/storerelease-rollout")
        #expect(FileManager.default.fileExists(atPath: claim.appendingPathComponent("rollout-state.json").path))
        let history = try String(contentsOf: claim.appendingPathComponent("rollout-history.jsonl"), encoding: .utf8)
        let lines = history.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains(#""rollout":{"decision":"hold""#) })
        #expect(try server.playStats(token: token)["writes"] as? Int == 0, "a hold writes nothing to Play")
    }

    /// A CronJob of Docs/Watch in a cluster standing in a folder (`place`): `round(token)` runs
    /// its pod once against the fakes of `token`, the secret made from the person's files as the
    /// comment says (a line that reads health reads Play's from the fake's reporting API too).
    func cronJob(_ file: String, name job: String, in place: String) throws -> (
        round: (String) throws -> [KubernetesPods.Container], pods: URL
    ) {
        let manifest = try text(file)
        let documents = try RecipeYAML.documents(manifest)
        let cronJob = try #require(documents.first { $0["kind"]?.string == "CronJob" })
        #expect(cronJob["spec"]?["concurrencyPolicy"]?.string == "Forbid")
        let person = folder.appendingPathComponent("\(place)-person")
        try RecipeTools.ascKey(at: person.appendingPathComponent("AuthKey_ABC123.p8"))
        let line = try #require(RecipeTools.kubectlLine(manifest))
        let pods = folder.appendingPathComponent("\(place)-cluster")
        let round = { (token: String) throws -> [KubernetesPods.Container] in
            try Data((server.hookURL("ok", token: token).absoluteString + "\n").utf8)
                .write(to: person.appendingPathComponent("slack-webhook-url"))
            let (name, data) = try KubernetesPods.secret(from: line, files: person)
            let cluster = KubernetesPods(
                documents: documents, folder: pods, secrets: [name: data],
                image: { try? RecipeTools.image($0, in: folder, gcloudToken: "ya29.gcloud-pod") },
                point: { argv in
                    guard argv.count > 1, argv[0] == "storerelease", argv[1] == "watch" else { return argv }
                    let reporting =
                        argv.contains("--health")
                        ? [
                            "--play-reporting-base-url",
                            server.baseURL("timeline-release", token: token).absoluteString,
                        ]
                        : []
                    return Array(argv[...1]) + fakes(token) + reporting + argv[2...]
                })
            return try cluster.run(try cluster.template(kind: "CronJob", name: job))
        }
        return (round, pods)
    }

    @Test func theKubernetesCronJobWatchesAPodARoundWithItsStateOnTheClaim() throws {
        let job = try cronJob("kubernetes-cronjob.yaml", name: "storerelease-watch", in: "watch")
        try expectThreeRounds(playToken: "ya29.gcloud-pod") { token, _ in
            let containers = try job.round(token)
            let failed = containers.first { $0.status != 0 }
            #expect(containers.map(\.name) == ["play-token", "watch"], "\(containers.map(\.name))")
            return (
                failed?.status ?? 0, containers.last?.stdout ?? "",
                containers.map { "\($0.name): \($0.stderr)" }.joined(separator: "\n")
            )
        }
        #expect(
            FileManager.default.fileExists(
                atPath: job.pods.appendingPathComponent("claims/storerelease-watch/watch-state.json").path))
    }
}
