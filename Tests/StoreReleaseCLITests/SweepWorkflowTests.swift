import Foundation
import StoreReleaseTestSupport
import Testing

/// The sharded sweep the docs ship (a GitHub Actions matrix, a Kubernetes Indexed Job), run as
/// written for where it runs (each job on a fresh runner, the binary built once and carried as an
/// artifact; pods with the manifest's environment, volumes, secrets and images) against the
/// loopback fakes: each part sweeps the storefronts App Store Connect says the app is sold in
/// (`--countries sold`), the parts merge into the same answer as one unsharded sweep, an app sold
/// in 40 storefronts that all serve Play's release is reported as agreeing, and stores that do not
/// agree are reported without failing a scheduled run.
///
/// Each test's folder (the runners' copies of the tool, about 330 MB a test) is removed when the
/// test ends, whatever its outcome.
@Suite struct SweepWorkflowTests {
    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("sweep")
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// A command of the docs pointed at the fakes: the lookup API's sweep (or `scenario`), App
    /// Store Connect's released app and the Play API.
    func pointed(_ command: String, token: String, scenario: String = "sweep") -> String {
        let connect = "--asc-base-url \(server.baseURL("complete", token: token))"
        return
            command
            .replacingOccurrences(
                of: "storerelease lookup",
                with:
                    "storerelease lookup --base-url \(server.baseURL(scenario, token: token)) --lookups-per-minute 6000 "
                    + connect
            )
            .replacingOccurrences(
                of: "storerelease parity",
                with: "storerelease parity --play-base-url \(server.baseURL("ok", token: token)) \(connect)")
    }

    /// An App Store Connect key, as the person downloads it, and the flags that sign with it.
    func ascKey() throws -> (text: String, flags: String) {
        let key = folder.appendingPathComponent("AuthKey_SWEEP01.p8")
        if !FileManager.default.fileExists(atPath: key.path) { try RecipeTools.ascKey(at: key) }
        return (
            try String(contentsOf: key, encoding: .utf8),
            "--asc-key-file \(key.path) --asc-key-id SWEEP01 --asc-issuer-id 57246542-96fe-1a63-e053-0824d011072a"
        )
    }

    /// Runs a shell line in the test's folder with the built tool first on PATH.
    func shell(_ line: String, in directory: URL? = nil, environment: [String: String] = [:]) throws
        -> BuiltProducts.Result
    {
        try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"\((directory ?? folder).path)\" && \(line)"],
            environment: ["PATH": BuiltProducts.directory.path + ":/usr/bin:/bin", "STORERELEASE_PLAY_TOKEN": "sweep"]
                .merging(environment) { $1 })
    }

    /// Runs side by side, as the runners or pods of a sweep run, and returns each one's result.
    /// (Not `&` and `wait` in one shell: a shell started from the test process inherits a signal
    /// mask under which its `wait` never returns.)
    func sideBySide<Result>(_ count: Int, _ body: (Int) throws -> Result) -> [Result?] {
        withoutActuallyEscaping(body) { body in
            let results = Results<Result>(count: count, body)
            DispatchQueue.concurrentPerform(iterations: count) { index in results.run(index) }
            for (index, error) in results.failures.sorted(by: { $0.key < $1.key }) {
                Issue.record("run \(index + 1) of \(count) did not finish: \(error)")
            }
            return results.all
        }
    }

    /// Concurrent runs of one body, and their results, one slot each.
    final class Results<Result>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result?]
        private let body: (Int) throws -> Result
        init(count: Int, _ body: @escaping (Int) throws -> Result) {
            slots = Array(repeating: nil, count: count)
            self.body = body
        }
        private var errors: [Int: String] = [:]
        func run(_ index: Int) {
            do {
                let result = try body(index)
                lock.withLock { slots[index] = result }
            } catch {
                lock.withLock { errors[index] = "\(error)" }
            }
        }
        var all: [Result?] { lock.withLock { slots } }
        var failures: [Int: String] { lock.withLock { errors } }
    }

    /// How many storefronts `--countries all` asks: the catalogue's.
    func catalogue() throws -> Int {
        let listed = try shell("storerelease storefronts")
        return (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count ?? -1
    }

    /// The report of one unsharded sweep of every storefront the app is sold in.
    func unsharded() throws -> [String: Any] {
        let result = try shell(
            "storerelease parity --id 414478124 --countries sold --base-url \(server.baseURL("sweep")) "
                + "--lookups-per-minute 6000 --package com.example.rollout --play-base-url \(server.baseURL("ok")) "
                + "--asc-base-url \(server.baseURL("complete")) \(try ascKey().flags)")
        #expect(result.status == 1, "the stores do not agree: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The JSON report of parts merged, as the recipe's report merges them.
    func merged(_ parts: [String], in directory: URL) throws -> [String: Any] {
        let result = try shell(
            "storerelease parity --lookup \(parts.joined(separator: ",")) --countries sold --package com.example.rollout "
                + "--play-base-url \(server.baseURL("ok")) --asc-base-url \(server.baseURL("complete")) "
                + (try ascKey().flags), in: directory)
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

    /// One run of the workflow: the build job, the matrix side by side, the report.
    func runWorkflow(
        _ workflow: String, number: Int, event: String = "schedule", inputs: [String: ActionsRunner.Value] = [:],
        vars extra: [String: String] = [:], secrets: [String: String] = [:], scenario: String = "sweep"
    ) throws -> (build: ActionsRunner.Job, lookups: [ActionsRunner.Job?], report: ActionsRunner.Job?) {
        let token = UUID().uuidString
        var runner = try ActionsRunner(
            workflow: workflow, folder: folder.appendingPathComponent("run-\(number)"),
            cache: folder.appendingPathComponent("cache")
        ) { pointed($0, token: token, scenario: scenario) }
        runner.secrets = [
            "ASC_PRIVATE_KEY": try ascKey().text, "ASC_KEY_ID": "SWEEP01",
            "ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a",
        ].merging(secrets) { $1 }.filter { !$0.value.isEmpty }
        runner.vars = [
            "APP_STORE_ID": "414478124", "PLAY_PACKAGE": "com.example.rollout",
            "GCP_WORKLOAD_IDENTITY_PROVIDER":
                "projects/123456789/locations/global/workloadIdentityPools/github/providers/release-team",
            "PLAY_SERVICE_ACCOUNT": "storerelease@release-team.iam.gserviceaccount.com",
        ].merging(extra) { $1 }.filter { !$0.value.isEmpty }
        runner.eventName = event
        runner.inputs = inputs
        runner.runID = String(number)
        let build = try runner.run(job: "build")
        guard build.succeeded else { return (build, [], nil) }
        #expect(runner.jobs["lookup"] == ["build"] && runner.jobs["report"] == ["lookup"])
        let shards = runner.matrix("lookup")
        #expect(shards.map { $0["shard"] } == ["1", "2", "3"])
        let frozen = runner
        let lookups = sideBySide(shards.count) { try frozen.run(job: "lookup", matrix: shards[$0]) }
        guard lookups.allSatisfy({ $0?.succeeded == true }) else { return (build, lookups, nil) }
        return (build, lookups, try runner.run(job: "report"))
    }

    @Test func theGitHubMatrixBuildsOnceAndMergesIntoTheUnshardedAnswer() throws {
        let workflow = try text("Docs/Sweep/github-actions.yml")
        #expect(workflow.components(separatedBy: "swift build").count == 2, "one build, in the build job")
        let run = try runWorkflow(workflow, number: 1)
        #expect(run.build.succeeded, "\(run.build.log)")
        for lookup in run.lookups { #expect(lookup?.succeeded == true, "\(lookup?.log ?? "did not run")") }
        let report = try #require(run.report)
        #expect(report.succeeded, "a scheduled run that finds the stores apart passes: \(report.log)")
        #expect(report.log.contains("::warning::the stores do not agree"), "\(report.log)")
        // Sold in six storefronts: the other 169 are not sold, not missing.
        let notSold = try catalogue() - 6
        #expect(
            report.summary.hasPrefix("### The stores do not agree")
                && report.summary.contains("Storefronts: 4 live, 2 behind (gb, jp), \(notSold) not sold"),
            "\(report.summary)")
        let parts = (1...3).map { "part-\($0).json" }
        expectSameAnswer(try merged(parts, in: report.workspace), try unsharded())
    }

    @Test func anAppSoldIn40StorefrontsThatAllServePlaysReleaseAgrees() throws {
        let workflow = try text("Docs/Sweep/github-actions.yml")
        let run = try runWorkflow(workflow, number: 1, vars: ["APP_STORE_ID": "1000000040"], scenario: "sold40")
        for lookup in run.lookups { #expect(lookup?.succeeded == true, "\(lookup?.log ?? "did not run")") }
        let report = try #require(run.report)
        #expect(report.succeeded && !report.log.contains("::warning::"), "\(report.log)")
        let notSold = try catalogue() - 40
        #expect(
            report.summary.hasPrefix("### The stores agree")
                && report.summary.contains("Storefronts: 40 live, \(notSold) not sold"),
            "\(report.summary)")
    }

    @Test func aRunByHandFailsOnDisagreementWhenAskedAndAMissingAppIdStopsTheRun() throws {
        let workflow = try text("Docs/Sweep/github-actions.yml")
        let asked = try runWorkflow(
            workflow, number: 1, event: "workflow_dispatch", inputs: ["fail-on-disagreement": .bool(true)])
        let report = try #require(asked.report)
        #expect(!report.succeeded && report.log.contains("::error::the stores do not agree"), "\(report.log)")
        #expect(report.summary.hasPrefix("### The stores do not agree"), "the report is in the summary either way")
        let byVariable = try runWorkflow(workflow, number: 2, vars: ["FAIL_ON_DISAGREEMENT": "true"])
        #expect(byVariable.report?.succeeded == false, "the variable makes a scheduled run fail")
        let unnamed = try runWorkflow(workflow, number: 3, vars: ["PLAY_PACKAGE": ""])
        #expect(
            !unnamed.build.succeeded
                && unnamed.build.log.contains("set the repository variables APP_STORE_ID and PLAY_PACKAGE"))
        #expect(unnamed.report == nil)
        let keyless = try runWorkflow(workflow, number: 4, secrets: ["ASC_KEY_ID": ""])
        #expect(
            !keyless.build.succeeded
                && keyless.build.log.contains("set the secrets ASC_PRIVATE_KEY, ASC_KEY_ID and ASC_ISSUER_ID"),
            "\(keyless.build.log)")
    }

    @Test func theKubernetesIndexedJobMergesIntoTheUnshardedAnswerAndTheReportReadsItsParts() throws {
        let manifest = try text("Docs/Sweep/kubernetes-job.yaml")
        let documents = try RecipeYAML.documents(manifest)
        let job = try #require(
            documents.first { $0["metadata"]?["name"]?.string == "storefront-sweep" && $0["kind"]?.string == "Job" })
        #expect(job["spec"]?["completionMode"]?.string == "Indexed" && job["spec"]?["completions"]?.string == "3")
        let token = UUID().uuidString
        // gcloud's image is made before any pod runs (see RecipeTools.gcloud).
        _ = try RecipeTools.gcloud(in: folder, token: "ya29.gcloud-sweep")
        // The secret as the comment makes it, from the person's key file.
        let person = folder.appendingPathComponent("person")
        try RecipeTools.ascKey(at: person.appendingPathComponent("AuthKey_ABC123.p8"))
        let (secret, data) = try KubernetesPods.secret(
            from: try #require(RecipeTools.kubectlLine(manifest)), files: person)
        let cluster = KubernetesPods(
            documents: documents, folder: folder.appendingPathComponent("cluster"), secrets: [secret: data],
            image: { try? RecipeTools.image($0, in: folder, gcloudToken: "ya29.gcloud-sweep") },
            point: { argv in
                argv.count == 3 && argv[0] == "sh" ? Array(argv[...1]) + [pointed(argv[2], token: token)] : argv
            })
        // Before the parts are there, the report waits for them (and its deadline ends it).
        var impatient = cluster
        impatient.deadline = 2
        let early = try impatient.run(
            try cluster.template(kind: "Job", name: "storefront-sweep-report"),
            overrides: ["PLAY_PACKAGE": "com.example.rollout"])
        #expect(early.map(\.name) == ["parts"] && early.first?.status == 124, "\(early.map(\.stderr))")
        let lookup = try cluster.template(kind: "Job", name: "storefront-sweep")
        let pods = sideBySide(3) { index in
            try cluster.run(lookup, environment: ["JOB_COMPLETION_INDEX": String(index)])
        }
        for pod in pods {
            #expect(pod?.allSatisfy { $0.status == 0 } == true, "\(pod?.map(\.stderr) ?? ["did not run"])")
        }
        let claim = folder.appendingPathComponent("cluster/claims/storefront-sweep")
        let parts = (1...3).map { claim.appendingPathComponent("part-\($0).json").path }
        expectSameAnswer(try merged(parts, in: claim), try unsharded())

        let report = try cluster.run(
            try cluster.template(kind: "Job", name: "storefront-sweep-report"),
            overrides: ["PLAY_PACKAGE": "com.example.rollout"])
        #expect(
            report.map(\.name) == ["parts", "play-token", "parity"], "\(report.map { "\($0.name): \($0.stderr)" })")
        let parity = try #require(report.last)
        #expect(parity.status == 1, "the stores do not agree: \(parity.stderr)")
        #expect(parity.stdout.hasPrefix("The stores do not agree"), "\(parity.stdout)")
        #expect(try server.playStats(token: token)["bearer"] as? [String] == ["ya29.gcloud-sweep"], "gcloud's token")
        #expect(
            parts.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "the claim is cleared for the next sweep")
    }

    @Test func theKubernetesRecipeBindsItsOwnServiceAccountAndNamesAStorageClassForItsSharedClaim() throws {
        let manifest = try text("Docs/Sweep/kubernetes-job.yaml")
        let documents = try RecipeYAML.documents(manifest)
        let report = try #require(
            documents.first { $0["metadata"]?["name"]?.string == "storefront-sweep-report" }?["spec"]?["template"])
        let account = try #require(report["spec"]?["serviceAccountName"]?.string)
        #expect(
            documents.contains { $0["kind"]?.string == "ServiceAccount" && $0["metadata"]?["name"]?.string == account })
        // The IAM binding the comment gives is for that Kubernetes service account, not another recipe's.
        let binding = try #require(
            manifest.split(separator: "\n").first { $0.contains("gcloud iam service-accounts add-iam-policy-binding") })
        #expect(binding.hasSuffix("/sa/\(account)"), "\(binding)")
        #expect(binding.contains("--role=roles/iam.serviceAccountTokenCreator"))
        // A ReadWriteMany claim needs a storage class that provides one: the default class rarely does.
        let claim = try #require(documents.first { $0["kind"]?.string == "PersistentVolumeClaim" })
        #expect(claim["spec"]?["accessModes"]?.items.compactMap(\.string) == ["ReadWriteMany"])
        let storageClass = try #require(claim["spec"]?["storageClassName"]?.string)
        #expect(manifest.contains("\(storageClass) (GKE's Filestore CSI driver"), "the comment says what it is")
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
