import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole processes, as a user runs them: `storerelease sort` against `LC_ALL=C sort -V`,
/// node-semver's `compare` and Python's `packaging.version`, each reading the same file, run
/// alternately round by round, with wall time and peak memory (the kernel's `ru_maxrss`).
enum ProcessBenchmarks {
    /// A command line, and what it adds to the environment.
    struct Command {
        let name: String
        let arguments: [String]
        var environment: [String: String] = [:]
    }

    /// One run: wall time in milliseconds and peak resident memory in MiB.
    struct Run {
        let milliseconds: Double
        let peakMiB: Double
    }

    /// Why a command could not be measured.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(lines: Int, otherLines: Int, repetitions: Int) throws -> [Row] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storerelease-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard
            let executable = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(
                "storerelease"
            ).path,
            FileManager.default.isExecutableFile(atPath: executable)
        else {
            return [skipped("storerelease sort", "the storerelease binary is not built beside this one")]
        }
        func write(_ name: String, _ versions: [String]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data((versions.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let appStore = try write("appstore.txt", VersionBenchmarks.versionStrings(count: lines, seed: 5))
        let semver = try write("semver.txt", semverStrings(count: lines))
        let appStoreFew = try write("appstore-few.txt", VersionBenchmarks.versionStrings(count: otherLines, seed: 6))
        let semverFew = try write("semver-few.txt", semverStrings(count: otherLines))

        let ours = Command(name: "storerelease sort", arguments: [executable, "sort"])
        let oursSemver = Command(
            name: "storerelease sort --scheme semver", arguments: [executable, "sort", "--scheme", "semver"])
        let gnu = Command(name: "LC_ALL=C sort -V", arguments: ["/usr/bin/sort", "-V"], environment: ["LC_ALL": "C"])
        var rows: [Row] = []

        let (gnuRuns, ourRuns) = try pair(gnu, ours, input: appStore, repetitions: repetitions)
        rows += [
            row("\(gnu.name), \(lines) lines", gnuRuns, note: "baseline: GNU coreutils"),
            row("\(ours.name), \(lines) lines", ourRuns, against: gnuRuns, note: "vs sort -V"),
            Row(
                name: "  peak memory, \(ours.name)", samples: Samples(values: ourRuns.map(\.peakMiB)), unit: "MiB",
                baseline: Samples(values: gnuRuns.map(\.peakMiB)), note: "vs sort -V's peak",
                words: ("less", "more")),
        ]

        let (appStoreRuns, semverRuns) = try pair(ours, oursSemver, input: semver, repetitions: repetitions)
        rows += [
            row("\(ours.name), \(lines) x.y.z lines", appStoreRuns, note: "baseline: the App Store scheme"),
            row("\(oursSemver.name), same lines", semverRuns, against: appStoreRuns, note: "vs the App Store scheme"),
        ]

        let few = max(1, min(repetitions, 3))
        let nodePath = (["/usr/share/nodejs"] + [ProcessInfo.processInfo.environment["NODE_PATH"]].compactMap { $0 })
            .joined(separator: ":")
        let script = folder.appendingPathComponent("sort.js").path
        try Data(nodeSemverSort.utf8).write(to: URL(fileURLWithPath: script))
        let node = Command(
            name: "node-semver compare", arguments: ["/usr/bin/env", "node", script],
            environment: ["NODE_PATH": nodePath])
        if (try? measure(
            Command(
                name: "", arguments: ["/usr/bin/env", "node", "-e", "require('semver')"], environment: node.environment),
            input: "/dev/null")) != nil
        {
            let (nodeRuns, ourRuns) = try pair(node, oursSemver, input: semverFew, repetitions: few)
            rows += [
                row("\(node.name), \(otherLines) x.y.z lines", nodeRuns, note: "baseline: Debian's node-semver"),
                row("\(oursSemver.name), same lines", ourRuns, against: nodeRuns, note: "vs node-semver"),
            ]
        } else {
            rows.append(skipped(node.name, "node or its semver module is not installed (apt-get install node-semver)"))
        }

        let packaging = Command(
            name: "Python packaging.version", arguments: ["/usr/bin/env", "python3", "-c", packagingSort])
        if (try? measure(
            Command(name: "", arguments: ["/usr/bin/env", "python3", "-c", "import packaging.version"]),
            input: "/dev/null")) != nil
        {
            let (pythonRuns, ourRuns) = try pair(packaging, ours, input: appStoreFew, repetitions: few)
            rows += [
                row("\(packaging.name), \(otherLines) lines", pythonRuns, note: "baseline: PyPI's packaging"),
                row("\(ours.name), same lines", ourRuns, against: pythonRuns, note: "vs packaging"),
            ]
        } else {
            rows.append(skipped(packaging.name, "python3 or packaging is not installed (pip install packaging)"))
        }
        return rows
    }

    /// Plain SemVer versions, `x.y.z`, as release histories have them.
    static func semverStrings(count: Int) -> [String] {
        VersionBenchmarks.versionStrings(count: count, seed: 7, components: 3...3)
    }

    static let nodeSemverSort = """
        const semver = require('semver');
        const lines = require('fs').readFileSync(0, 'utf8').split('\\n');
        if (lines[lines.length - 1] === '') lines.pop();
        lines.sort(semver.compare);
        process.stdout.write(lines.join('\\n') + '\\n');
        """

    static let packagingSort = """
        import sys
        from packaging.version import Version
        lines = sys.stdin.read().splitlines()
        sys.stdout.write('\\n'.join(sorted(lines, key=Version)) + '\\n')
        """

    /// Runs two commands alternately on the same input, `repetitions` times each.
    static func pair(_ baseline: Command, _ subject: Command, input: String, repetitions: Int) throws
        -> (baseline: [Run], subject: [Run])
    {
        var runs: ([Run], [Run]) = ([], [])
        for round in 0..<repetitions {
            if round % 2 == 0 {
                runs.0.append(try measure(baseline, input: input))
                runs.1.append(try measure(subject, input: input))
            } else {
                runs.1.append(try measure(subject, input: input))
                runs.0.append(try measure(baseline, input: input))
            }
        }
        return runs
    }

    static func row(_ name: String, _ runs: [Run], against baseline: [Run]? = nil, note: String) -> Row {
        Row(
            name: name, samples: Samples(values: runs.map(\.milliseconds)), unit: "ms",
            baseline: baseline.map { Samples(values: $0.map(\.milliseconds)) }, note: note,
            peakMiB: runs.map(\.peakMiB).max())
    }

    static func skipped(_ name: String, _ reason: String) -> Row {
        Row(name: name, samples: Samples(values: []), unit: "", note: "skipped: \(reason)")
    }

    /// Runs a command with standard input from `input` and standard output to /dev/null.
    static func measure(_ command: Command, input: String) throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let environment = ProcessInfo.processInfo.environment.merging(command.environment) { $1 }
            .map { "\($0.key)=\($0.value)" }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = withCStrings(command.arguments) { arguments in
            withCStrings(environment) { environment in
                posix_spawn(&pid, command.arguments[0], &actions, nil, arguments, environment)
            }
        }
        guard spawned == 0 else { throw Failure(description: "\(command.name): cannot start (\(spawned))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "\(command.name): wait4 failed") }
        }
        let elapsed = ContinuousClock.now - start
        // Exited normally with status 0: the low 7 bits say how it ended, the next 8 its status.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw Failure(description: "\(command.name) failed (wait status \(status))")
        }
        return Run(milliseconds: elapsed.nanoseconds / 1e6, peakMiB: Double(usage.ru_maxrss) / 1024)
    }

    /// Calls `body` with a NULL-terminated C array of the strings.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
