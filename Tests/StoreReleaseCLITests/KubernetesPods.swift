import Foundation

/// Kubernetes, as far as the recipes' manifests need it, so the tests run a pod the way the
/// kubelet would: its init containers in order and then its containers, each with the command and
/// arguments the manifest gives (or the image's ENTRYPOINT and CMD, read from the Dockerfile),
/// `$(VAR)` expanded, the environment the manifest defines and nothing else, and its volumes
/// mounted: a claim is a folder every pod of it shares (and must be defined in the manifests), a
/// secret is its keys as files (and must exist, made as the manifest's comment says), an
/// `emptyDir` is the pod's own. A mount path is a folder in the test's folder standing for it.
struct KubernetesPods {
    /// An image the pods run: the folder on its PATH, and its ENTRYPOINT and CMD.
    struct Image {
        let bin: URL
        let entrypoint: [String]
        let cmd: [String]
    }

    /// One container's run.
    struct Container {
        let name: String
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Something the manifests ask that the cluster could not give, named.
    struct Unschedulable: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let documents: [RecipeYAML]
    let folder: URL
    /// The secrets the person made: name → key → content.
    let secrets: [String: [String: Data]]
    /// The image a reference names.
    let image: (String) -> Image?
    /// Turns a container's arguments into the ones that reach the loopback fakes.
    let point: ([String]) -> [String]
    /// How long a container may run, in seconds: past it, it is ended (status 124, as `timeout`
    /// says), so a pod waiting for what never comes fails a test instead of hanging it.
    var deadline = 120

    func document(kind: String, name: String) -> RecipeYAML? {
        documents.first { $0["kind"]?.string == kind && $0["metadata"]?["name"]?.string == name }
    }

    /// The pod template of a Job or a CronJob.
    func template(kind: String, name: String) throws -> RecipeYAML {
        guard let object = document(kind: kind, name: name) else { throw Unschedulable("no \(kind) \(name)") }
        let template =
            kind == "CronJob" ? object["spec"]?["jobTemplate"]?["spec"]?["template"] : object["spec"]?["template"]
        guard let template else { throw Unschedulable("\(kind) \(name) has no pod template") }
        return template
    }

    /// Runs one pod of a template; stops at the first container that fails, as a pod with
    /// `restartPolicy: Never` does. `overrides` are the values the person puts in the manifest.
    func run(
        _ template: RecipeYAML, environment extra: [String: String] = [:], overrides: [String: String] = [:]
    ) throws -> [Container] {
        let manager = FileManager.default
        let pod = folder.appendingPathComponent("pods/\(UUID().uuidString)")
        try manager.createDirectory(at: pod, withIntermediateDirectories: true)
        let spec = template["spec"]
        if let account = spec?["serviceAccountName"]?.string, document(kind: "ServiceAccount", name: account) == nil {
            throw Unschedulable("the service account \(account) is not defined")
        }
        var volumes: [String: URL] = [:]
        for volume in spec?["volumes"]?.items ?? [] {
            guard let name = volume["name"]?.string else { throw Unschedulable("a volume without a name") }
            if let claim = volume["persistentVolumeClaim"]?["claimName"]?.string {
                guard document(kind: "PersistentVolumeClaim", name: claim) != nil else {
                    throw Unschedulable("the claim \(claim) is not defined")
                }
                volumes[name] = folder.appendingPathComponent("claims/\(claim)")
            } else if let secret = volume["secret"] {
                guard let secretName = secret["secretName"]?.string, let data = secrets[secretName] else {
                    throw Unschedulable("the secret \(secret["secretName"]?.string ?? "") does not exist")
                }
                let mounted = pod.appendingPathComponent("volumes/\(name)")
                try manager.createDirectory(at: mounted, withIntermediateDirectories: true)
                let items =
                    secret["items"]?.items.compactMap { item in
                        item["key"]?.string.flatMap { key in item["path"]?.string.map { (key, $0) } }
                    } ?? data.keys.map { ($0, $0) }
                let mode = secret["defaultMode"]?.string.flatMap { Int($0, radix: 8) } ?? 0o644
                for (key, path) in items {
                    guard let content = data[key] else {
                        throw Unschedulable("the secret \(secretName) has no key \(key)")
                    }
                    let file = mounted.appendingPathComponent(path)
                    try content.write(to: file)
                    try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
                }
                volumes[name] = mounted
            } else if volume["emptyDir"] != nil {
                volumes[name] = pod.appendingPathComponent("volumes/\(name)")
            } else {
                throw Unschedulable("volume \(name) is of a kind this cluster does not play")
            }
            if let made = volumes[name] { try manager.createDirectory(at: made, withIntermediateDirectories: true) }
        }
        var finished: [Container] = []
        for container in (spec?["initContainers"]?.items ?? []) + (spec?["containers"]?.items ?? []) {
            let result = try run(container, volumes: volumes, pod: pod, extra: extra, overrides: overrides)
            finished.append(result)
            if result.status != 0 { break }
        }
        return finished
    }

    func run(
        _ container: RecipeYAML, volumes: [String: URL], pod: URL, extra: [String: String], overrides: [String: String]
    ) throws -> Container {
        let name = container["name"]?.string ?? "container"
        guard let reference = container["image"]?.string, let image = image(reference) else {
            throw Unschedulable("\(name): no image this cluster can pull: \(container["image"]?.string ?? "none")")
        }
        var environment = extra
        for variable in container["env"]?.items ?? [] {
            guard let key = variable["name"]?.string else {
                throw Unschedulable("\(name): an env entry without a name")
            }
            if let value = variable["value"]?.string {
                environment[key] = overrides[key] ?? value
            } else if let reference = variable["valueFrom"]?["secretKeyRef"] {
                guard let secret = reference["name"]?.string, let item = reference["key"]?.string,
                    let data = secrets[secret]?[item]
                else { throw Unschedulable("\(name): \(key) refers to a secret key that does not exist") }
                environment[key] = String(decoding: data, as: UTF8.self)
            } else {
                throw Unschedulable("\(name): \(key) has neither value nor secretKeyRef")
            }
        }
        var mounts: [(String, URL)] = []
        for mount in container["volumeMounts"]?.items ?? [] {
            guard let volume = mount["name"]?.string, let path = mount["mountPath"]?.string,
                let folder = volumes[volume]
            else { throw Unschedulable("\(name): a mount of a volume the pod does not have") }
            mounts.append((path, folder))
        }
        let command = container["command"]?.items.compactMap(\.string)
        let arguments = container["args"]?.items.compactMap(\.string)
        var argv = (command ?? image.entrypoint) + (arguments ?? (command == nil ? image.cmd : []))
        argv = argv.map { argument in
            var expanded = argument
            for (key, value) in environment { expanded = expanded.replacingOccurrences(of: "$(\(key))", with: value) }
            for (path, folder) in mounts {
                expanded =
                    expanded == path
                    ? folder.path : expanded.replacingOccurrences(of: path + "/", with: folder.path + "/")
            }
            return expanded
        }
        let home = pod.appendingPathComponent("home-\(name)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment["PATH"] = image.bin.path + ":/usr/bin:/bin"
        environment["HOME"] = home.path
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["-i", "-C", pod.path] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                + ["/usr/bin/timeout", String(deadline)] + point(argv))
        return Container(name: name, status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// The secrets a documented `kubectl create secret generic NAME --from-file=KEY=FILE
    /// --from-literal=KEY=VALUE …` line makes, its files read from `folder`.
    static func secret(from line: String, files folder: URL) throws -> (String, [String: Data]) {
        let words = line.split(separator: " ").map(String.init)
        guard let start = words.firstIndex(of: "generic"), start + 1 < words.count else {
            throw Unschedulable("not a kubectl create secret generic line: \(line)")
        }
        var data: [String: Data] = [:]
        for word in words[(start + 2)...] {
            for (flag, isFile) in [("--from-file=", true), ("--from-literal=", false)] where word.hasPrefix(flag) {
                let pair = word.dropFirst(flag.count)
                guard let equals = pair.firstIndex(of: "=") else { throw Unschedulable("\(word): no KEY=") }
                let key = String(pair[..<equals])
                let value = String(pair[pair.index(after: equals)...])
                data[key] = isFile ? try Data(contentsOf: folder.appendingPathComponent(value)) : Data(value.utf8)
            }
        }
        return (words[start + 1], data)
    }
}
