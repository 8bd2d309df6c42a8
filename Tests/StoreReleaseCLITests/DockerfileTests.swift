import Foundation
import StoreReleaseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The package's Dockerfile, as `docker build` reads it: its stages, each a base image and its
/// instructions (continuation lines joined, comments dropped).
struct Dockerfile {
    struct Instruction {
        let keyword: String
        let text: String
    }

    struct Stage {
        let base: String
        let name: String?
        var instructions: [Instruction] = []

        func all(_ keyword: String) -> [String] { instructions.filter { $0.keyword == keyword }.map(\.text) }

        /// An exec-form (`["a", "b"]`) ENTRYPOINT or CMD.
        func exec(_ keyword: String) -> [String]? {
            all(keyword).last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String] }
        }
    }

    let stages: [Stage]

    static let packaged = BuiltProducts.packageRoot.appendingPathComponent("Dockerfile")

    init(_ text: String) {
        var joined: [String] = []
        var pending = ""
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") || trimmed.isEmpty { continue }
            if trimmed.hasSuffix("\\") {
                pending += trimmed.dropLast() + " "
            } else {
                joined.append(pending + trimmed)
                pending = ""
            }
        }
        var stages: [Stage] = []
        for line in joined {
            let keyword = String(line.prefix { $0 != " " }).uppercased()
            let text = line.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces)
            if keyword == "FROM" {
                let words = text.split(separator: " ").map(String.init)
                stages.append(Stage(base: words.first ?? "", name: words.count == 3 ? words[2] : nil))
            } else if !stages.isEmpty {
                stages[stages.count - 1].instructions.append(Instruction(keyword: keyword, text: text))
            }
        }
        self.stages = stages
    }

    /// The stage the image is (the last), and where it puts `storerelease`.
    var runtime: Stage? { stages.last }

    var installedBinary: String? {
        runtime?.all("COPY").compactMap { $0.split(separator: " ").last.map(String.init) }
            .first { $0.hasSuffix("/storerelease") }
    }
}

/// The Dockerfile the Kubernetes recipes run: its build and run commands, run on this machine (a
/// Debian 12 one, as the image is) as far as a machine without Docker can, and the image's
/// packages checked against what `ldd` says the binary needs.
@Suite struct DockerfileTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("dockerfile")
    }

    func read() throws -> Dockerfile { Dockerfile(try String(contentsOf: Dockerfile.packaged, encoding: .utf8)) }

    /// The build context `docker build .` sends: the package without what .dockerignore names.
    func context() throws -> URL {
        let ignore = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent(".dockerignore"), encoding: .utf8)
        let patterns = ignore.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let context = folder.appendingPathComponent("context")
        let root = BuiltProducts.packageRoot.standardizedFileURL.path
        let manager = FileManager.default
        guard let walk = manager.enumerator(atPath: root) else { throw CocoaError(.fileReadNoSuchFile) }
        while let path = walk.nextObject() as? String {
            let ignored = patterns.contains { pattern in
                let directory = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
                if pattern.hasPrefix("**/") {
                    return fnmatch(String(pattern.dropFirst(3)), (path as NSString).lastPathComponent, 0) == 0
                }
                return path == directory || path.hasPrefix(directory + "/")
            }
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
            if ignored {
                if isFolder.boolValue { walk.skipDescendants() }
                continue
            }
            let target = context.appendingPathComponent(path)
            if isFolder.boolValue {
                try manager.createDirectory(at: target, withIntermediateDirectories: true)
            } else {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.copyItem(atPath: root + "/" + path, toPath: target.path)
            }
        }
        return context
    }

    @Test func theBuilderIsSwiftsImageAndTheContextHoldsWhatThePackageNames() throws {
        let dockerfile = try read()
        #expect(dockerfile.stages.count == 2, "a builder and the image")
        let builder = try #require(dockerfile.stages.first)
        let version = try #require(builder.base.firstMatch(of: /^swift:(6\.[0-9]+)-bookworm$/)?.1)
        #expect(String(version).compare(ActionsRunner.packageToolsVersion, options: .numeric) != .orderedAscending)
        #expect(dockerfile.runtime?.base == "debian:bookworm-slim", "a slim base of the builder's Debian")
        let context = try context()
        let manifest = try String(contentsOf: context.appendingPathComponent("Package.swift"), encoding: .utf8)
        let paths = manifest.matches(of: /path: "([^"]+)"/).map { String($0.1) } + ["Sources/storerelease"]
        for path in paths {
            #expect(
                FileManager.default.fileExists(atPath: context.appendingPathComponent(path).path), "\(path) left out")
        }
        for left in [".build", ".git", ".ci"] {
            #expect(!FileManager.default.fileExists(atPath: context.appendingPathComponent(left).path), "\(left) sent")
        }
    }

    @Test func theBuildAndRunCommandsRunAndTheImageHoldsWhatTheBinaryLinks() throws {
        let dockerfile = try read()
        let builder = try #require(dockerfile.stages.first)
        let runtime = try #require(dockerfile.runtime)
        let build = try #require(builder.all("RUN").first { $0.contains("swift build") })
        #expect(build.contains("swift build -c release --product storerelease --static-swift-stdlib"))
        // The builder's RUN in a copy of the build context, its absolute paths under the stage's
        // root; `swift build` delivers this test run's binary (a release build takes minutes).
        let context = try context()
        let builderRoot = folder.appendingPathComponent("builder")
        let toolchain = try ActionsRunner.swiftShim(in: folder)
        let rooted = build.replacingOccurrences(of: " /", with: " \(builderRoot.path)/")
        let made = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["-i", "-C", context.path, "PATH=\(toolchain.path):/usr/bin:/bin", "/bin/sh", "-c", rooted])
        #expect(made.status == 0, "\(rooted): \(made.stderr)")
        // COPY --from=build SOURCE TARGET, then the image's ENTRYPOINT and CMD with the image's PATH.
        let copy = try #require(runtime.all("COPY").first { $0.hasPrefix("--from=") }?.split(separator: " "))
        let imageRoot = folder.appendingPathComponent("image")
        let target = imageRoot.appendingPathComponent(String(copy[2]))
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: builderRoot.path + String(copy[1]), toPath: target.path)
        let entrypoint = try #require(runtime.exec("ENTRYPOINT"))
        #expect(entrypoint == ["storerelease"] && dockerfile.installedBinary == "/usr/local/bin/storerelease")
        let ran = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["-i", "PATH=\(imageRoot.path)/usr/local/bin:/usr/bin:/bin", "HOME=/"] + entrypoint
                + (runtime.exec("CMD") ?? []))
        #expect(ran.status == 0 && ran.stdout.contains("storerelease"), "\(ran.stderr)")

        // What the binary links, and the packages the image installs.
        let install = try #require(runtime.all("RUN").first { $0.contains("apt-get install") })
        let named = Set(
            install.components(separatedBy: "&&").first { $0.contains("apt-get install") }?
                .split(separator: " ").map(String.init).filter {
                    !$0.hasPrefix("-") && !["apt-get", "install"].contains($0)
                } ?? [])
        for needed in ["openssl", "ca-certificates"] {
            #expect(
                named.contains(needed),
                "\(needed): the ASC signer runs openssl; curl checks https against the CA bundle")
        }
        let present = try Self.packagesOnABaseImage(named: named)
        let ldd = try BuiltProducts.run(executable: URL(fileURLWithPath: "/usr/bin/ldd"), [target.path])
        #expect(ldd.status == 0, "\(ldd.stderr)")
        let libraries = ldd.stdout.split(separator: "\n").compactMap { line -> String? in
            line.firstMatch(of: /=> (\/\S+)/).map { String($0.1) }
        }
        if !libraries.contains(where: { $0.hasSuffix("/libcurl.so.4") }) {
            // A release build loads curl on its first request (CLazyCurl), by the name it holds:
            // the image must carry the package that provides it all the same.
            #expect(try BuiltProducts.loadsCurlByName(target), "curl is neither linked nor loaded: \(ldd.stdout)")
            #expect(named.contains("libcurl4"), "the binary loads libcurl.so.4, which libcurl4 provides")
        }
        for library in libraries {
            if library.contains("/lib/swift/linux/") {
                // A Swift runtime library: --static-swift-stdlib links its archive into the binary.
                let archive = library.replacingOccurrences(of: "/lib/swift/linux/", with: "/lib/swift_static/linux/")
                    .replacingOccurrences(of: ".so", with: ".a")
                #expect(
                    build.contains("--static-swift-stdlib") && FileManager.default.fileExists(atPath: archive),
                    "\(library) is neither in the image nor linked statically")
                continue
            }
            let owner = try Self.package(owning: library)
            #expect(
                owner.map { present.contains($0) } == true, "\(library) (\(owner ?? "no package")) is not in the image")
        }
    }

    /// The package that installed a file, as `dpkg -S` says (Debian 12 keeps some under /lib,
    /// some under /usr/lib).
    static func package(owning library: String) throws -> String? {
        let candidates = [library, library.hasPrefix("/lib") ? "/usr" + library : String(library.dropFirst(4))]
        for candidate in candidates {
            let found = try BuiltProducts.run(executable: URL(fileURLWithPath: "/usr/bin/dpkg"), ["-S", candidate])
            if found.status == 0, let line = found.stdout.split(separator: "\n").first,
                let colon = line.firstIndex(of: ":")
            {
                return String(line[..<colon])
            }
        }
        return nil
    }

    /// The packages on `debian:bookworm-slim` after `apt-get install NAMED`: every essential and
    /// required package, the named ones, and everything they depend on.
    static func packagesOnABaseImage(named: Set<String>) throws -> Set<String> {
        let query = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/dpkg-query"),
            ["-W", "-f", "${Package}\t${Essential}\t${Priority}\t${Pre-Depends}, ${Depends}\n"])
        var depends: [String: [String]] = [:]
        var base: Set<String> = named
        for line in query.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { continue }
            if fields[1] == "yes" || fields[2] == "required" { base.insert(fields[0]) }
            depends[fields[0]] = fields[3].split(whereSeparator: { $0 == "," || $0 == "|" }).compactMap { item in
                item.trimmingCharacters(in: .whitespaces).split(separator: " ").first
                    .map { String($0.split(separator: ":").first ?? $0) }
            }
        }
        var reached = base
        var queue = Array(base)
        while let next = queue.popLast() {
            for dependency in depends[next] ?? [] where !reached.contains(dependency) {
                reached.insert(dependency)
                queue.append(dependency)
            }
        }
        return reached
    }
}
