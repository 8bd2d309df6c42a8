import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A GitHub-hosted runner, as far as the recipes' workflows need one, so the tests run a
/// workflow's jobs the way GitHub does: each job in an empty folder, its steps in order, a step's
/// `${{ … }}` filled in first, `run:` under `bash -e` with nothing in the environment but what
/// the runner, the workflow, the job and the step set, `$GITHUB_PATH`, `$GITHUB_OUTPUT` and
/// `$GITHUB_STEP_SUMMARY` as files, a failed step skipping the rest but `if: always()`. The
/// actions the recipes use are played by what they do: checkout copies the package,
/// setup-swift puts a `swift` on PATH whose `swift build` delivers the binary this test run built
/// (the compile is the one thing not redone), artifacts travel between jobs without their
/// executable bits (as upload-artifact's zip loses them), the cache survives between runs, and
/// Google's auth action hands out a token when Workload Identity Federation is configured. A step
/// that runs past ten minutes is ended (status 124).
struct ActionsRunner {
    /// A value of a `${{ }}` expression.
    enum Value: Equatable {
        case text(String)
        case bool(Bool)
        case null

        var truthy: Bool {
            switch self {
            case .text(let text): !text.isEmpty
            case .bool(let bool): bool
            case .null: false
            }
        }

        var text: String {
            switch self {
            case .text(let text): text
            case .bool(let bool): bool ? "true" : "false"
            case .null: ""
            }
        }
    }

    /// Something the runner cannot play, named.
    struct Unplayable: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// One step's run.
    struct Step {
        let name: String
        let ran: Bool
        let status: Int32
        let output: String
    }

    /// One job's run.
    struct Job {
        let steps: [Step]
        let workspace: URL
        let summary: String
        var succeeded: Bool { steps.allSatisfy { !$0.ran || $0.status == 0 } }
        /// What every step printed, for a failure message.
        var log: String {
            steps.map { "[\($0.name): \($0.ran ? "exit \($0.status)" : "skipped")]\n\($0.output)" }.joined(
                separator: "\n")
        }
    }

    let workflow: RecipeYAML
    var vars: [String: String] = [:]
    var secrets: [String: String] = [:]
    var inputs: [String: Value] = [:]
    var eventName = "schedule"
    var runID = "1"
    /// The run's own folder: the jobs' workspaces and artifacts.
    let folder: URL
    /// The Actions cache, kept between runs.
    let cache: URL
    /// Turns a `run:` script into the one that reaches the loopback fakes.
    let point: (String) -> String

    static let packageToolsVersion = "6.1"

    init(workflow: String, folder: URL, cache: URL, point: @escaping (String) -> String) throws {
        guard let document = try RecipeYAML.documents(workflow).first else { throw Unplayable("an empty workflow") }
        self.workflow = document
        self.folder = folder
        self.cache = cache
        self.point = point
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("artifacts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    }

    /// The jobs' ids and each one's `needs`.
    var jobs: [String: [String]] {
        workflow["jobs"]?.entries.mapValues { job in
            job["needs"].map { $0.string.map { [$0] } ?? $0.items.compactMap(\.string) } ?? []
        } ?? [:]
    }

    /// The matrix of a job: each combination's values (one empty combination without a matrix).
    func matrix(_ job: String) -> [[String: String]] {
        guard let matrix = workflow["jobs"]?[job]?["strategy"]?["matrix"]?.entries, let (key, values) = matrix.first
        else { return [[:]] }
        return values.items.compactMap(\.string).map { [key: $0] }
    }

    /// Runs one job (one matrix combination) in a fresh workspace.
    func run(job id: String, matrix: [String: String] = [:]) throws -> Job {
        guard let job = workflow["jobs"]?[id] else { throw Unplayable("no job \(id)") }
        let name = ([id] + matrix.values.sorted()).joined(separator: "-")
        let workspace = folder.appendingPathComponent("work/\(name)")
        let temp = folder.appendingPathComponent("temp/\(name)")
        let home = folder.appendingPathComponent("home/\(name)")
        for made in [workspace, temp, home] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        let files = ["GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_ENV"].map {
            ($0, temp.appendingPathComponent("_\($0.lowercased())"))
        }
        for (_, file) in files { try Data().write(to: file) }
        var context = Context(
            runner: self, matrix: matrix, permissions: job["permissions"]?.entries.compactMapValues(\.string) ?? [:],
            environment: [:], outputs: [:])
        var environment = try context.values(workflow["env"])
        context.environment = environment
        environment.merge(try context.values(job["env"])) { $1 }
        var steps: [Step] = []
        var failed = false
        for (index, step) in (job["steps"]?.items ?? []).enumerated() {
            let title = step["name"]?.string ?? step["uses"]?.string ?? step["id"]?.string ?? "step \(index + 1)"
            let condition = step["if"]?.string
            let runs =
                condition.map { $0.contains("always()") || (!failed && (try? context.evaluate($0))?.truthy == true) }
                ?? !failed
            guard runs else {
                steps.append(Step(name: title, ran: false, status: 0, output: ""))
                continue
            }
            context.environment = environment
            var stepEnvironment = environment.merging(try context.values(step["env"])) { $1 }
            let added = try String(contentsOf: files[0].1, encoding: .utf8).split(separator: "\n").reversed()
            stepEnvironment.merge([
                "PATH": (added.map(String.init) + ["/usr/bin", "/bin"]).joined(separator: ":"), "HOME": home.path,
                "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.path, "RUNNER_TEMP": temp.path,
                "GITHUB_RUN_ID": runID, "GITHUB_EVENT_NAME": eventName,
            ]) { $1 }
            for (variable, file) in files { stepEnvironment[variable] = file.path }
            try Data().write(to: files[1].1)
            let result: Step
            if let script = step["run"]?.string {
                result = try shell(
                    point(try context.fill(script)), title: title, in: workspace, environment: stepEnvironment)
            } else if let uses = step["uses"]?.string {
                let with = try context.values(step["with"])
                let (status, output, outputs) = try action(
                    uses, with: with, context: context, workspace: workspace, files: files)
                result = Step(name: title, ran: true, status: status, output: output)
                if let id = step["id"]?.string { context.outputs[id] = outputs }
            } else {
                throw Unplayable("\(title): neither run nor uses")
            }
            if let id = step["id"]?.string, step["run"] != nil {
                let lines = try String(contentsOf: files[1].1, encoding: .utf8).split(separator: "\n")
                context.outputs[id] = Dictionary(
                    lines.compactMap { line in
                        line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
                    }
                ) { $1 }
            }
            steps.append(result)
            failed = failed || result.status != 0
        }
        let summary = try String(contentsOf: files[2].1, encoding: .utf8)
        return Job(steps: steps, workspace: workspace, summary: summary)
    }

    func shell(_ script: String, title: String, in workspace: URL, environment: [String: String]) throws -> Step {
        let file = folder.appendingPathComponent("script-\(UUID().uuidString).sh")
        try Data(script.utf8).write(to: file)
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["-i", "-C", workspace.path] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                + ["/usr/bin/timeout", "600", "/bin/bash", "-e", file.path])
        return Step(name: title, ran: true, status: result.status, output: result.stdout + result.stderr)
    }

    /// What an action does, and its outputs.
    func action(
        _ uses: String, with: [String: String], context: Context, workspace: URL, files: [(String, URL)]
    ) throws -> (Int32, String, [String: String]) {
        let manager = FileManager.default
        let action = uses.components(separatedBy: "@").first ?? uses
        switch action {
        case "actions/checkout":
            guard with["repository"]?.isEmpty == false else { return (1, "checkout: no repository", [:]) }
            for item in ["Package.swift", "Sources"] {
                try manager.copyItem(
                    at: BuiltProducts.packageRoot.appendingPathComponent(item),
                    to: workspace.appendingPathComponent(item))
            }
            return (0, "", [:])
        case "swift-actions/setup-swift":
            guard let version = with["swift-version"],
                version.compare(Self.packageToolsVersion, options: .numeric) != .orderedAscending
            else {
                return (
                    1,
                    "setup-swift: swift-version \(with["swift-version"] ?? "none") is older than Package.swift's tools version",
                    [:]
                )
            }
            let bin = try Self.swiftShim(in: folder)
            try Data((bin.path + "\n").utf8).append(to: files[0].1)
            return (0, "", [:])
        case "actions/cache/restore":
            guard let path = with["path"], let key = with["key"] else { return (1, "cache: no path or key", [:]) }
            let keys = (try? manager.contentsOfDirectory(atPath: cache.path)) ?? []
            let prefixes = (with["restore-keys"] ?? "").split(separator: "\n").map(String.init)
            let hit =
                keys.contains(key)
                ? key
                : prefixes.lazy.compactMap { prefix in
                    keys.filter { $0.hasPrefix(prefix) }.max { Self.created(cache, $0) < Self.created(cache, $1) }
                }.first
            guard let hit else { return (0, "Cache not found for input keys: \(key)", ["cache-hit": "false"]) }
            try manager.copyItem(
                at: cache.appendingPathComponent(hit).appendingPathComponent(path),
                to: workspace.appendingPathComponent(path))
            return (0, "Cache restored from key: \(hit)", ["cache-hit": hit == key ? "true" : "false"])
        case "actions/cache/save":
            guard let path = with["path"], let key = with["key"] else { return (1, "cache: no path or key", [:]) }
            let source = workspace.appendingPathComponent(path)
            guard manager.fileExists(atPath: source.path) else {
                return (0, "Warning: Path Validation Error: \(path)", [:])
            }
            let entry = cache.appendingPathComponent(key)
            guard !manager.fileExists(atPath: entry.path) else { return (0, "Cache already exists: \(key)", [:]) }
            try manager.createDirectory(at: entry, withIntermediateDirectories: true)
            try manager.copyItem(at: source, to: entry.appendingPathComponent(path))
            return (0, "", [:])
        case "actions/upload-artifact":
            guard let name = with["name"], let path = with["path"] else {
                return (1, "upload-artifact: no name or path", [:])
            }
            let source = workspace.appendingPathComponent(path)
            let entry = folder.appendingPathComponent("artifacts/\(name)")
            guard manager.fileExists(atPath: source.path) else {
                return (1, "No files were found with the provided path: \(path)", [:])
            }
            guard !manager.fileExists(atPath: entry.path) else {
                return (1, "an artifact named \(name) already exists", [:])
            }
            try manager.createDirectory(at: entry, withIntermediateDirectories: true)
            let copy = entry.appendingPathComponent(source.lastPathComponent)
            try manager.copyItem(at: source, to: copy)
            try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
            return (0, "", [:])
        case "actions/download-artifact":
            let target = workspace.appendingPathComponent(with["path"] ?? ".")
            try manager.createDirectory(at: target, withIntermediateDirectories: true)
            let all = try manager.contentsOfDirectory(atPath: folder.appendingPathComponent("artifacts").path)
            let chosen: [String]
            if let name = with["name"] {
                chosen = all.filter { $0 == name }
            } else if let pattern = with["pattern"] {
                chosen = all.filter { fnmatch(pattern, $0, 0) == 0 }
                guard with["merge-multiple"] == "true" else {
                    throw Unplayable("download-artifact without merge-multiple")
                }
            } else {
                chosen = all
            }
            guard !chosen.isEmpty else { return (1, "Unable to download artifact(s): Artifact not found", [:]) }
            for artifact in chosen {
                let entry = folder.appendingPathComponent("artifacts/\(artifact)")
                for file in try manager.contentsOfDirectory(atPath: entry.path) {
                    try manager.copyItem(
                        at: entry.appendingPathComponent(file), to: target.appendingPathComponent(file))
                }
            }
            return (0, "", [:])
        case "google-github-actions/auth":
            guard context.permissions["id-token"] == "write" else {
                return (1, "auth: the job lacks permissions id-token: write (GitHub's OIDC token)", [:])
            }
            guard let provider = with["workload_identity_provider"],
                provider.range(
                    of: #"^projects/[0-9]+/locations/global/workloadIdentityPools/[^/]+/providers/[^/]+$"#,
                    options: .regularExpression) != nil,
                with["service_account"]?.hasSuffix(".iam.gserviceaccount.com") == true
            else { return (1, "auth: the workload identity provider or the service account is not set", [:]) }
            // The action takes its scopes as a list, comma- or newline-separated.
            let scopes = (with["access_token_scopes"] ?? "").split { $0 == "," || $0 == "\n" }.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard with["token_format"] == "access_token",
                scopes.contains("https://www.googleapis.com/auth/androidpublisher")
            else { return (1, "auth: no access token for the androidpublisher scope asked for", [:]) }
            return (0, "", ["access_token": "ya29.workload-identity-\(runID)"])
        default:
            throw Unplayable("the runner does not play \(uses)")
        }
    }

    static func created(_ folder: URL, _ name: String) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.modificationDate]
            as? Date) ?? .distantPast
    }

    /// The `swift` setup-swift installs, as far as the recipes call it: `swift build -c release
    /// --product storerelease` in a package puts this test run's `storerelease` where SwiftPM puts it.
    static func swiftShim(in folder: URL) throws -> URL {
        let bin = folder.appendingPathComponent("swift-toolchain/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let built = BuiltProducts.directory.appendingPathComponent("storerelease").path
        let script = """
            #!/bin/sh
            [ "$1" = build ] || { echo "swift: only swift build is played here" >&2; exit 1; }
            [ -f Package.swift ] || { echo "error: Could not find Package.swift in this directory or any of its parent directories." >&2; exit 1; }
            case " $* " in *" -c release "*) ;; *) echo "swift: not a release build: $*" >&2; exit 1 ;; esac
            case " $* " in *" --product storerelease "*) ;; *) echo "swift: not the storerelease product: $*" >&2; exit 1 ;; esac
            mkdir -p .build/x86_64-unknown-linux-gnu/release && ln -sfn x86_64-unknown-linux-gnu/release .build/release
            cp '\(built)' .build/x86_64-unknown-linux-gnu/release/storerelease

            """
        let file = bin.appendingPathComponent("swift")
        try Data(script.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return bin
    }

    /// The contexts a job's expressions read.
    struct Context {
        let runner: ActionsRunner
        let matrix: [String: String]
        let permissions: [String: String]
        var environment: [String: String]
        var outputs: [String: [String: String]]

        /// A mapping's values with their expressions filled in.
        func values(_ node: RecipeYAML?) throws -> [String: String] {
            try (node?.entries ?? [:]).compactMapValues { try $0.string.map(fill) }
        }

        /// Text with every `${{ … }}` replaced by its value.
        func fill(_ text: String) throws -> String {
            var result = ""
            var rest = text[...]
            while let open = rest.range(of: "${{") {
                guard let close = rest[open.upperBound...].range(of: "}}") else {
                    throw Unplayable("an unclosed ${{ in \(text)")
                }
                result += rest[..<open.lowerBound]
                result += try evaluate(String(rest[open.upperBound..<close.lowerBound])).text
                rest = rest[close.upperBound...]
            }
            return result + rest
        }

        /// `a || b || 'c'`, each operand a context path, a quoted literal, or `path == 'x'`.
        func evaluate(_ expression: String) throws -> Value {
            let operands = expression.components(separatedBy: "||").map { $0.trimmingCharacters(in: .whitespaces) }
            var value = Value.null
            for operand in operands {
                value = try self.operand(operand)
                if value.truthy { return value }
            }
            return value
        }

        func operand(_ operand: String) throws -> Value {
            for (symbol, equal) in [(" == ", true), (" != ", false)] {
                if let range = operand.range(of: symbol) {
                    let left = try self.operand(String(operand[..<range.lowerBound]))
                    let right = try self.operand(String(operand[range.upperBound...]))
                    return .bool((left.text == right.text) == equal)
                }
            }
            if operand.hasPrefix("'"), operand.hasSuffix("'"), operand.count >= 2 {
                return .text(String(operand.dropFirst().dropLast()))
            }
            if operand == "true" || operand == "false" { return .bool(operand == "true") }
            let path = operand.split(separator: ".").map(String.init)
            switch (path.first, path.count) {
            case ("vars", 2): return runner.vars[path[1]].map(Value.text) ?? .text("")
            case ("secrets", 2): return runner.secrets[path[1]].map(Value.text) ?? .text("")
            case ("inputs", 2): return runner.inputs[path[1]] ?? .null
            case ("matrix", 2): return matrix[path[1]].map(Value.text) ?? .null
            case ("env", 2): return environment[path[1]].map(Value.text) ?? .null
            case ("steps", 4) where path[2] == "outputs": return outputs[path[1]]?[path[3]].map(Value.text) ?? .null
            case ("github", 2):
                switch path[1] {
                case "run_id": return .text(runner.runID)
                case "event_name": return .text(runner.eventName)
                case "repository": return .text("release-team/storerelease")
                default: break
                }
            default: break
            }
            throw Unplayable("the runner does not know ${{ \(operand) }}")
        }
    }
}

extension Data {
    /// Appends to a file, as `>>` does.
    func append(to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
