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

    static func run(lines: Int, otherLines: Int, repetitions: Int, starts: Int) throws -> [Row] {
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
        let semverMix = try write("semver-mix.txt", semverMixStrings(count: lines))

        // The smallest peak a command can show here (see `measure`): /bin/true's.
        let floor = try measure(Command(name: "true", arguments: ["/bin/true"]), input: "/dev/null").peakMiB
        print(
            "peak memory is measured through a go-between: a command needing less than \(Row.short(floor)) MiB shows that"
        )
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
        rows += try startUp(executable, repetitions: starts)

        let few = max(1, min(repetitions, 3))
        let nodePath = (["/usr/share/nodejs"] + [ProcessInfo.processInfo.environment["NODE_PATH"]].compactMap { $0 })
            .joined(separator: ":")
        let script = folder.appendingPathComponent("sort.js").path
        try Data(nodeSemverSort.utf8).write(to: URL(fileURLWithPath: script))
        let node = Command(
            name: "node-semver compare", arguments: ["/usr/bin/env", "node", script],
            environment: ["NODE_PATH": nodePath])
        for (input, lines) in [(semver, "\(lines) x.y.z lines"), (semverMix, "\(lines) lines, the mix")] {
            rows += try optionalBaseline(
                node, probe: ["/usr/bin/env", "node", "-e", "require('semver')"], against: oursSemver,
                input: input, lines: lines, source: "Debian's node-semver",
                install: "node or its semver module is not installed (apt-get install node-semver)", repetitions: few)
        }
        let packaging = Command(
            name: "Python packaging.version", arguments: ["/usr/bin/env", "python3", "-c", packagingSort])
        rows += try optionalBaseline(
            packaging, probe: ["/usr/bin/env", "python3", "-c", "import packaging.version"], against: ours,
            input: appStoreFew, lines: "\(otherLines) lines", source: "PyPI's packaging",
            install: "python3 or packaging is not installed (pip install packaging)", repetitions: few)
        return rows
    }

    /// A baseline that may not be installed: measured against `subject` when `probe` runs, else
    /// a row saying it was skipped and how to install it.
    static func optionalBaseline(
        _ baseline: Command, probe: [String], against subject: Command, input: String, lines: String,
        source: String, install: String, repetitions: Int
    ) throws -> [Row] {
        let probe = Command(name: baseline.name, arguments: probe, environment: baseline.environment)
        guard (try? measure(probe, input: "/dev/null")) != nil else { return [skipped(baseline.name, install)] }
        let (baselineRuns, subjectRuns) = try pair(baseline, subject, input: input, repetitions: repetitions)
        return [
            row("\(baseline.name), \(lines)", baselineRuns, note: "baseline: \(source)"),
            row("\(subject.name), same lines", subjectRuns, against: baselineRuns, note: "vs \(source)"),
        ]
    }

    /// Plain SemVer versions, `x.y.z`, as release histories have them.
    static func semverStrings(count: Int) -> [String] {
        VersionBenchmarks.versionStrings(count: count, seed: 7, components: 3...3)
    }

    /// SemVer as a project's tags have it: ``semverStrings(count:)``, 30% of them pre-releases
    /// (`-rc.1`, `-beta`, `-alpha.3.1`…) and 10% with build metadata (`+build.7`, `+sha.5114f85`).
    static func semverMixStrings(count: Int) -> [String] {
        var state: UInt64 = 11
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        let preReleases = [
            "alpha", "alpha.1", "alpha.3.1", "alpha.beta", "beta", "beta.2", "beta.11", "rc.1", "rc.2", "rc.10",
            "0.3.7", "x.7.z.92", "x-y-z.0", "preview.20240517",
        ]
        let builds = ["build.7", "build.1024", "sha.5114f85", "20240517.1", "exp.sha.5114f85", "001"]
        return semverStrings(count: count).map { core in
            var version = core
            if next(10) < 3 { version += "-" + preReleases[Int(next(UInt64(preReleases.count)))] }
            if next(10) < 1 { version += "+" + builds[Int(next(UInt64(builds.count)))] }
            return version
        }
    }

    /// Start-up: `storerelease compare 8.0.2 8.0.10` against a Swift hello world linked the same
    /// way (`HelloProbe`), whole processes, alternately, `repetitions` times each.
    static func startUp(_ executable: String, repetitions: Int) throws -> [Row] {
        let hello = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("HelloProbe")
            .path
        guard FileManager.default.isExecutableFile(atPath: hello) else {
            return [skipped("storerelease compare", "the HelloProbe binary is not built beside this one")]
        }
        let (helloRuns, compareRuns) = try pair(
            Command(name: "hello world", arguments: [hello]),
            Command(name: "compare", arguments: [executable, "compare", "8.0.2", "8.0.10"]), input: "/dev/null",
            repetitions: repetitions)
        return [
            row("hello world (Swift, linked as storerelease)", helloRuns, note: "baseline: start-up"),
            row("storerelease compare 8.0.2 8.0.10", compareRuns, against: helloRuns, note: "vs a hello world"),
        ]
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

    /// The argument that makes this executable the small go-between of ``measure(_:input:)``.
    static let childFlag = "--measure-child"

    /// Runs a command with standard input from `input` and standard output to /dev/null, through
    /// this executable started again as a go-between (``measureChild(_:)``).
    ///
    /// Linux counts in a spawned child's peak memory the peak of the process that spawned it (the
    /// child shares its memory until it starts its program), so a child of this benchmark,
    /// which holds millions of strings, would report this benchmark's peak. The go-between is
    /// small and has not held them: its child's peak is the command's own (or its ~15 MiB).
    static func measure(_ command: Command, input: String) throws -> Run {
        guard let me = Bundle.main.executablePath else { throw Failure(description: "cannot find this executable") }
        let result = FileManager.default.temporaryDirectory.appendingPathComponent("measure-\(getpid()).txt").path
        defer { unlink(result) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 3, result, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let environment = ProcessInfo.processInfo.environment.merging(command.environment) { $1 }
        let status = try spawnAndWait([me, childFlag] + command.arguments, environment, &actions).status
        let fields = (try? String(contentsOfFile: result, encoding: .utf8))?.split(separator: " ").compactMap {
            Double($0)
        }
        guard status == 0, let fields, fields.count == 3, fields[2] == 0 else {
            throw Failure(
                description: "\(command.name) failed (\(fields.map { "status \($0.last ?? -1)" } ?? "no result"))")
        }
        return Run(milliseconds: fields[0], peakMiB: fields[1])
    }

    /// The go-between: runs `arguments` with this process's standard streams (file descriptor 3
    /// closed) and writes "milliseconds peakMiB exitStatus" to file descriptor 3.
    static func measureChild(_ arguments: [String]) -> Never {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addclose(&actions, 3)
        let start = ContinuousClock.now
        guard let (status, usage) = try? spawnAndWait(arguments, ProcessInfo.processInfo.environment, &actions) else {
            exit(127)
        }
        let milliseconds = (ContinuousClock.now - start).nanoseconds / 1e6
        let line = "\(milliseconds) \(Double(usage.ru_maxrss) / 1024) \(status)"
        _ = line.withCString { write(3, $0, strlen($0)) }
        exit(0)
    }

    /// Starts `arguments` with the file actions and waits for it.
    ///
    /// - Returns: Its exit status (or 128 and the signal that ended it) and its resource usage.
    private static func spawnAndWait(
        _ arguments: [String], _ environment: [String: String], _ actions: inout posix_spawn_file_actions_t
    ) throws -> (status: Int32, usage: rusage) {
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
            }
        }
        guard spawned == 0 else { throw Failure(description: "\(arguments[0]): cannot start (\(spawned))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "\(arguments[0]): wait4 failed") }
        }
        // The low 7 bits say how it ended (0: it exited), the next 8 its exit status.
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F, usage)
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
