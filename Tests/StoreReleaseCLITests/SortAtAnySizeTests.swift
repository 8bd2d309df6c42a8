import Foundation
import StoreReleaseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sort` past `--memory`: sorted runs in a temporary file in TMPDIR, merged into the same bytes
/// the in-memory sort prints, and nothing left behind however the sort ends.
@Suite struct SortAtAnySizeTests {
    /// About 750 KB of versions, 80,000 lines: at `--memory 1` (about 26,000 such lines a part)
    /// the sort keeps three runs or more and merges them. Equal versions written differently,
    /// `\r\n` endings, lines off the fast path, a last line without its line break.
    static let appStoreSample = sample(semver: false)
    /// The same for `--scheme semver`: pre-releases and build metadata.
    static let semverSample = sample(semver: true)

    static func sample(semver: Bool, seed: UInt64 = 9) -> String {
        var state = seed
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        let preReleases = ["", "", "", "-rc.1", "-beta", "-alpha.3.1", "-rc.10", "-0.2"]
        var text = ""
        for _ in 0..<80_000 {
            let core = "\(next(5)).\(next(20)).\(next(100))"
            if semver {
                text += core + preReleases[Int(next(8))] + (next(10) == 0 ? "+build.\(next(9))" : "")
            } else {
                text += [core, core + ".0", "0" + core, core + ".\(next(3)).1", core][Int(next(5))]
            }
            text += next(9) == 0 ? "\r\n" : "\n"
        }
        return text + "1.0.0"
    }

    /// A fresh folder to be TMPDIR, removed afterwards by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sort-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func sort(_ arguments: [String], stdin: String, tmpdir: String) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), ["sort"] + arguments,
            stdin: stdin, environment: ["TMPDIR": tmpdir])
    }

    /// Each scheme once, one of them newest first (the merge's order is the runs' order, so
    /// either direction checks the other's code).
    @Test(arguments: zip([false, true], [[], ["--reverse"]]))
    func spillingGivesTheInMemorySortsBytes(semver: Bool, order: [String]) throws {
        let input = semver ? Self.semverSample : Self.appStoreSample
        let scheme = semver ? ["--scheme", "semver"] : []
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inMemory = try Self.sort(scheme + order, stdin: input, tmpdir: folder.path)
        let spilled = try Self.sort(scheme + order + ["--memory", "1"], stdin: input, tmpdir: folder.path)
        #expect(inMemory.status == 0 && spilled.status == 0, "\(spilled.stderr)")
        #expect(inMemory.stdout.utf8.count == input.utf8.count + 1)
        #expect(spilled.stdout == inMemory.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aSmallMemoryMakesItSpillAndAnUnusableDirectoryIsNamed() throws {
        let input = Self.appStoreSample
        let file = try Self.folder()
        defer { try? FileManager.default.removeItem(at: file) }
        let notADirectory = file.appendingPathComponent("a-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: notADirectory))
        // What fits in memory never touches TMPDIR; past --memory it must.
        #expect(try Self.sort([], stdin: input, tmpdir: "/nonexistent-tmpdir").status == 0)
        for directory in ["/nonexistent-tmpdir", notADirectory] {
            let result = try Self.sort(["--memory", "1"], stdin: input, tmpdir: directory)
            #expect(result.exited && result.status == 1)
            #expect(result.stdout.isEmpty, "nothing printed that could pass for sorted output")
            #expect(result.stderr.hasPrefix("storerelease: sort: cannot create a temporary file in \"\(directory)\": "))
        }
    }

    @Test func aBadLineInALaterPartIsNamedAndNothingIsPrinted() throws {
        let input = Self.appStoreSample + "\n1..2\n"
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.sort(["--memory", "1"], stdin: input, tmpdir: folder.path)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == #"storerelease: sort: line 80002: "1..2": empty component at offset 2"# + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: ["0", "-1", "abc", "1.5", "", "1048577"])
    func memoryMustBeAPositiveNumberOfMiB(_ value: String) throws {
        let result = try BuiltProducts.storerelease("sort", "--memory", value, stdin: "1\n")
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains("sort: --memory \(value.debugDescription) is not a number of MiB from 1 to 1048576"),
            "\(result.stderr)"
        )
    }

    /// Runs `storerelease sort` with standard input a file opened `offset` bytes in (the
    /// shell's `{ head -c 100 >/dev/null; storerelease sort; } < file`), or through a pipe from
    /// `cat`; returns its standard output, or its standard error when it failed.
    static func sort(file: URL, offset: UInt64, throughPipe: Bool) throws -> (status: Int32, output: Data) {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout")
        try Data().write(to: output)
        let binary = BuiltProducts.directory.appendingPathComponent("storerelease").path
        let process = Process()
        if throughPipe {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"tail -c +"$3" "$1" | "$2" sort"#, "sh", file.path, binary, String(offset + 1)]
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["sort"]
            let input = try FileHandle(forReadingFrom: file)
            try input.seek(toOffset: offset)
            process.standardInput = input
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try Data(contentsOf: output))
    }

    // 4.5 MB from a regular file is read as two halves at once, from where the file's offset is,
    // which a caller may have moved (here past a first line that is not a version); the bytes
    // are those the same input gives through a pipe, read as it comes.
    @Test func aLargeFileIsReadFromItsOffsetInTwoHalvesAsAPipeIsRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("versions.txt")
        let skipped = "not a version\n"
        let versions = String(repeating: Self.appStoreSample + "\n", count: 6)
        try #require(versions.utf8.count >= 4 << 20, "4 MiB or more are read in two halves")
        try Data((skipped + versions).utf8).write(to: file)
        let fromFile = try Self.sort(file: file, offset: UInt64(skipped.utf8.count), throughPipe: false)
        let fromPipe = try Self.sort(file: file, offset: UInt64(skipped.utf8.count), throughPipe: true)
        #expect(fromPipe.status == 0 && fromPipe.output.count == versions.utf8.count)
        #expect(
            fromFile.status == 0 && fromFile.output == fromPipe.output,
            "\(fromFile.status): \(String(decoding: fromFile.output.prefix(300), as: UTF8.self))")
    }

    #if os(Linux)
        @Test func anInterruptedSortLeavesNoTemporaryFile() throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = Process()
            process.executableURL = BuiltProducts.directory.appendingPathComponent("storerelease")
            process.arguments = ["sort", "--memory", "1"]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path]) { $1 }
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            // More than a part, and no end of input: the sort keeps runs and waits for more.
            input.fileHandleForWriting.write(Data(Self.appStoreSample.utf8))
            let descriptors = "/proc/\(process.processIdentifier)/fd"
            try waitUntil("the sort has a file open in TMPDIR", deadline: .seconds(120)) {
                let open = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
                return open.contains { name in
                    let target = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + name)
                    return target?.hasPrefix(folder.path + "/") == true
                }
            }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    #endif
}
