import Foundation
import StoreReleaseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `storerelease decide`, run as a user runs it.
@Suite struct DecideCommandTests {
    static let wechat = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/appstore/wechat-cn.json").path

    func decision(_ arguments: [String], stdin: String = "") throws -> [String: Any] {
        let result = try BuiltProducts.run("storerelease", ["decide"] + arguments, stdin: stdin)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func aNewerReleaseOnTheAppStoreIsAFlexiblePrompt() throws {
        let object = try decision(["--installed", "8.0.1", "--lookup", Self.wechat, "--now", "2021-02-05T00:00:00Z"])
        #expect(object["action"] as? String == "flexible" && object["reason"] as? String == "updateAvailable")
        #expect(object["installedVersion"] as? String == "8.0.1" && object["storeVersion"] as? String == "8.0.2")
        #expect(object["storeURL"] as? String == "https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4")
        #expect(
            Set(object.keys) == [
                "action", "reason", "installedVersion", "storeVersion", "storeURL", "releaseNotes",
                "failedPreconditions", "allowAssetPackDeletion", "warnings",
            ])
        #expect(object["failedPreconditions"] as? [String] == [] && object["allowAssetPackDeletion"] as? Bool == false)
    }

    @Test func theRulesTheFlagsFeed() throws {
        let base = ["--lookup", Self.wechat, "--now", "2021-02-05T00:00:00Z"]
        #expect(try decision(["--installed", "8.0.10"] + base)["reason"] as? String == "installedIsNewer")
        #expect(try decision(["--installed", "8.0.2.0"] + base)["reason"] as? String == "upToDate")
        #expect(
            try decision(["--installed", "8.0.1", "--os-version", "10.3"] + base)["reason"] as? String == "osTooOld")
        #expect(
            try decision(["--installed", "8.0.1", "--skipped-version", "8.0.2"] + base)["reason"] as? String
                == "skippedVersion")
        #expect(
            try decision(["--installed", "8.0.1", "--last-prompted", "2021-02-04T12:00:00Z"] + base)["reason"]
                as? String
                == "remindLater")
        let early = ["--installed", "8.0.1", "--lookup", Self.wechat, "--now", "2021-02-02T20:00:00Z"]
        #expect(try decision(early)["reason"] as? String == "releaseTooRecent")
        let policy = try decision(["--installed", "7.9", "--policy", "-"] + base, stdin: #"{"forceUpdateOn":"major"}"#)
        #expect(policy["action"] as? String == "immediate" && policy["reason"] as? String == "forcedByVersionChange")
    }

    @Test func readsTheOutputOfLookupFromStdin() throws {
        let server = try LoopbackServer.shared.get()
        let lookup = try BuiltProducts.storerelease(
            "lookup", "--id", "414478124", "--country", "cn", "--base-url", server.baseURL("ok").absoluteString)
        let object = try decision(
            ["--installed", "8.0.1", "--lookup", "-", "--now", "2030-01-01T00:00:00Z"], stdin: lookup.stdout)
        #expect(object["action"] as? String == "flexible")
    }

    @Test func theDescriptionsMinimumVersionTagForcesAnUpdate() throws {
        let fixture = try String(contentsOfFile: Self.wechat, encoding: .utf8)
        func tagged(_ tag: String) -> String {
            fixture.replacingOccurrences(of: #""description":""#, with: #""description":"\#(tag) "#)
        }
        #expect(fixture.contains(#""description":""#))
        let base = ["--installed", "8.0.0", "--lookup", "-", "--now", "2021-02-05T00:00:00Z"]
        let forced = try decision(base, stdin: tagged("[:mav: 8.0.1]"))
        #expect(forced["action"] as? String == "immediate" && forced["reason"] as? String == "belowMinimumSupported")
        #expect(forced["warnings"] as? [String] == [])
        let ignored = try decision(base, stdin: tagged("[:mav: x.y]"))
        #expect(ignored["action"] as? String == "flexible")
        #expect((ignored["warnings"] as? [String])?.first?.contains("[:mav: x.y] was ignored") == true)
    }

    /// What JSONDecoder lets through: a key given twice (it keeps one), a number a Double
    /// cannot hold (it says only "not valid JSON"); and an empty install id (every install in
    /// one bucket).
    @Test(arguments: [
        (
            "--manifest", #"{"latestVersion": "8.0.10", "minimumSupportedVersion": "8.0", "latestVersion": "1.0"}"#,
            #"latestVersion: the key "latestVersion" is given twice in this object"#
        ),
        (
            "--manifest", #"{"schemaVersion": 2, "latestVersion": "8.0.10", "rollout": {"percent": 1e-400}}"#,
            #"rollout.percent: the number "1e-400" is too small for a number (it underflows to 0)"#
        ),
        (
            "--policy", #"{"forceUpdateOn": "major", "forceUpdateOn": "none"}"#,
            #"forceUpdateOn: the key "forceUpdateOn""#
        ),
        ("--lookup", #"{"resultCount": 1, "resultCount": 2, "results": []}"#, #"resultCount: the key "resultCount""#),
    ])
    func aRepeatedKeyOrAnUnderflowIsNamedWithItsFile(flag: String, json: String, message: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decide-strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("input.json")
        try Data(json.utf8).write(to: file)
        let source = flag == "--policy" ? ["--manifest", "-"] : []
        let result = try BuiltProducts.run(
            "storerelease", ["decide", "--installed", "8.0.1", flag, file.path] + source,
            stdin: #"{"latestVersion": "8.0.10"}"#)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("decide: \(flag) \(file.path): "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func anEmptyInstallIDIsRefused() throws {
        for id in ["", " "] {
            let result = try BuiltProducts.run(
                "storerelease", ["decide", "--installed", "8.0.1", "--manifest", "-", "--install-id", id],
                stdin: #"{"schemaVersion": 2, "latestVersion": "8.0.10", "rollout": {"percent": 50}}"#)
            #expect(result.status == 2 && result.stderr.contains("decide: --install-id is empty"), "\(result.stderr)")
        }
    }

    @Test func manifestVersionTwoBlocksRollsOutAndNamesPlaysVersions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decide-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(
            #"{"schemaVersion": 2, "latestVersion": "8.0.10", "releaseDate": "2021-02-02T08:15:22Z", "blockedVersions": ["8.0.7"], "rollout": {"percent": 50}, "versionNames": {"80": "8.0.9", "90": "9.0"}}"#
                .utf8
        ).write(to: manifest)
        let base = ["--manifest", manifest.path, "--now", "2021-02-06T00:00:00Z"]
        let blocked = try decision(["--installed", "8.0.7"] + base)
        #expect(blocked["action"] as? String == "immediate" && blocked["reason"] as? String == "blockedVersion")
        // install-0 is in bucket 94 of 8.0.10, install-1 in 36 (ManifestVersionTwoTests pins them).
        #expect(
            try decision(["--installed", "8.0.9", "--install-id", "install-0"] + base)["reason"] as? String
                == "notInRollout")
        #expect(
            try decision(["--installed", "8.0.9", "--install-id", "install-1"] + base)["reason"] as? String
                == "updateAvailable")
        let record = #"""
            {"packageName":"com.example.app","availableVersionCode":90,"updateAvailability":"UPDATE_AVAILABLE",
             "installStatus":"UNKNOWN","allowedUpdateTypes":["flexible","immediate"]}
            """#
        let playWithNames = ["--installed", "80", "--play", "-", "--manifest", manifest.path]
        #expect(try decision(playWithNames, stdin: record)["reason"] as? String == "updateAvailable")
        let policy = folder.appendingPathComponent("policy.json")
        try Data(#"{"forceUpdateOn": "major"}"#.utf8).write(to: policy)
        let forced = try decision(playWithNames + ["--policy", policy.path], stdin: record)
        #expect(forced["action"] as? String == "immediate" && forced["reason"] as? String == "forcedByVersionChange")
        try Data(#"{"schemaVersion": 2, "latestVersion": "8.0.10", "blockedVersions": ["8.0.x"]}"#.utf8).write(
            to: manifest)
        let bad = try BuiltProducts.storerelease("decide", "--installed", "8.0.7", "--manifest", manifest.path)
        #expect(
            bad.status == 2 && bad.stderr.contains(#"blockedVersions[0] "8.0.x" is not a version"#), "\(bad.stderr)")
        let written = try BuiltProducts.storerelease(
            "manifest", "--platform", "googlePlay", "--play-track",
            LoopbackServer.packageRoot.appendingPathComponent("Docs/Examples/payloads/play-production.json").path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written.stdout.utf8)) as? [String: Any])
        #expect(
            object["schemaVersion"] as? Int == 2 && (object["versionNames"] as? [String: String])?["81"] == "8.0.10")
    }

    @Test func playsPreconditionsAndTheAssetPackDeletionItNeeds() throws {
        let record = #"""
            {"packageName":"com.example.app","availableVersionCode":42,"updateAvailability":"UPDATE_AVAILABLE",
             "installStatus":"UNKNOWN","allowedUpdateTypes":[],"allowedUpdateTypesWithAssetPackDeletion":["flexible"],
             "failedUpdatePreconditions":{"flexible":["INSUFFICIENT_STORAGE"]}}
            """#
        let deleting = try decision(["--installed", "41", "--play", "-"], stdin: record)
        #expect(deleting["action"] as? String == "flexible" && deleting["allowAssetPackDeletion"] as? Bool == true)
        #expect(deleting["failedPreconditions"] as? [String] == ["INSUFFICIENT_STORAGE"])
        let refused = try decision(
            ["--installed", "41", "--play", "-"],
            stdin: record.replacingOccurrences(
                of: #""allowedUpdateTypesWithAssetPackDeletion":["flexible"],"#, with: ""))
        #expect(
            refused["reason"] as? String == "updateTypeNotAllowed"
                && refused["allowAssetPackDeletion"] as? Bool == false)
        #expect(refused["failedPreconditions"] as? [String] == ["INSUFFICIENT_STORAGE"])
    }

    @Test func aPlayRecordDecidesByVersionCode() throws {
        let info = #"""
            {"packageName":"com.example.app","availableVersionCode":42,"updateAvailability":"UPDATE_AVAILABLE",
             "installStatus":"DOWNLOADED","updatePriority":0,"clientVersionStalenessDays":null,"bytesDownloaded":0,
             "totalBytesToDownload":0,"installErrorCode":0,"allowedUpdateTypes":["flexible","immediate"]}
            """#
        let object = try decision(["--installed", "41", "--play", "-"], stdin: info)
        #expect(object["action"] as? String == "completeUpdate" && object["reason"] as? String == "downloaded")
        #expect(object["storeVersion"] as? String == "42" && object["storeURL"] is NSNull)
    }

    @Test(arguments: [
        (["--lookup", "x"], "decide: --installed V is required"),
        (["--installed", "1"], "decide: give exactly one of --lookup, --play or --manifest"),
        (
            ["--installed", "1", "--lookup", "a", "--play", "b"],
            "decide: give exactly one of --lookup, --play or --manifest"
        ),
        (
            ["--installed", "8.0.x", "--lookup", "WECHAT"],
            #"decide: --installed "8.0.x": unexpected character "x" at offset 4"#
        ),
        (
            ["--installed", "8", "--lookup", "WECHAT", "--now", "tomorrow"],
            #"decide: --now "tomorrow" is not an ISO 8601 time"#
        ),
        (["--installed", "8", "--lookup", "WECHAT", "--os-version", "iOS 17"], #"decide: --os-version "iOS 17""#),
        (["--installed", "abc", "--play", "WECHAT"], "decide: --installed (with --play, the installed versionCode)"),
        (
            ["--installed", "8", "--lookup", "/nonexistent.json"],
            #"decide: cannot read "/nonexistent.json": no such file"#
        ),
        (["--installed", "8", "--play", "WECHAT"], "decide: --play"),
        (
            ["--installed", "8", "--manifest", "/nonexistent/m.json"],
            #"decide: cannot read "/nonexistent/m.json": no such file"#
        ),
        (
            ["--installed", "8", "--manifest", "WECHAT"],
            #"decide: --manifest WECHAT_PATH: resultCount: "resultCount", "results" are not keys of a manifest"#
        ),
    ])
    func badInputExitsTwoNamingIt(_ arguments: [String], _ message: String) throws {
        let resolved = arguments.map { $0 == "WECHAT" ? Self.wechat : $0 }
        let result = try BuiltProducts.run("storerelease", ["decide"] + resolved)
        #expect(result.status == 2)
        let expected = message.replacingOccurrences(of: "WECHAT_PATH", with: Self.wechat)
        #expect(result.stderr.contains(expected), "stderr: \(result.stderr)")
    }

    @Test func aManifestDecidesAndInReviewSilencesEveryPrompt() throws {
        let manifest = #"""
            {"latestVersion": "2.0", "minimumSupportedVersion": "1.5", "releaseDate": "2021-02-02T08:15:22Z",
             "releaseNotes": {"en": "Fixes.", "zh-Hans": "修复。"}, "storeURL": "https://apps.apple.com/app/id1"}
            """#
        let forced = try decision(
            ["--installed", "1.0", "--manifest", "-", "--now", "2021-03-01T00:00:00Z"], stdin: manifest)
        #expect(forced["action"] as? String == "immediate" && forced["reason"] as? String == "belowMinimumSupported")
        #expect(
            forced["releaseNotes"] as? String == "Fixes."
                && forced["storeURL"] as? String == "https://apps.apple.com/app/id1")
        let review = manifest.replacingOccurrences(
            of: #""latestVersion": "2.0","#, with: #""latestVersion": "2.0", "inReview": true,"#)
        let silent = try decision(["--installed", "1.0", "--manifest", "-"], stdin: review)
        #expect(silent["action"] as? String == "none" && silent["reason"] as? String == "inReview")
    }

    @Test func remindersFollowTheReleaseAndOnlyStoreInstallsArePrompted() throws {
        let base = [
            "--lookup", Self.wechat, "--now", "2021-02-05T00:00:00Z", "--last-prompted", "2021-02-04T23:00:00Z",
        ]
        let older = try decision(["--installed", "8.0.1", "--reminded-version", "8.0.1.5"] + base)
        #expect(older["action"] as? String == "flexible", "\"later\" to 8.0.1.5 ends when 8.0.2 arrives")
        let same = try decision(["--installed", "8.0.1", "--reminded-version", "8.0.2"] + base)
        #expect(same["reason"] as? String == "remindLater")
        for channel in ["testFlight", "sandbox", "debug"] {
            let decided = try decision(["--installed", "8.0.1", "--install-channel", channel] + base)
            #expect(decided["action"] as? String == "none" && decided["reason"] as? String == "notFromTheStore")
        }
        let small = try decision(
            ["--installed", "8.0.1", "--lookup", Self.wechat, "--policy", "-"], stdin: #"{"promptOn": "minor"}"#)
        #expect(small["reason"] as? String == "changeTooSmall")
        let forcedOnly = try decision(
            ["--installed", "8.0.1", "--lookup", Self.wechat, "--policy", "-"], stdin: #"{"onlyForced": true}"#)
        #expect(forcedOnly["reason"] as? String == "notForced")
    }

    @Test(arguments: [
        (["--install-channel", "enterprise"], #"--install-channel "enterprise" is not one of appStore, testFlight"#),
        (["--reminded-version", "v8"], "--reminded-version"),
        (["--policy", "-"], #"promptOn "tiny" is not major, minor or patch"#),
    ])
    func badNewFlagsAndKeysExitTwoNamingThem(_ extra: [String], _ message: String) throws {
        let result = try BuiltProducts.run(
            "storerelease", ["decide", "--installed", "8", "--lookup", Self.wechat] + extra,
            stdin: #"{"promptOn": "tiny"}"#)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func badPolicyJSONExitsTwoNamingTheKey() throws {
        let result = try BuiltProducts.run(
            "storerelease", ["decide", "--installed", "8", "--lookup", Self.wechat, "--policy", "-"],
            stdin: #"{"releaseDelay": 5}"#)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                #"decide: --policy stdin: releaseDelay: "releaseDelay" is not a key of a policy (its keys: forceUpdateOn"#
            ))
        let truncated = try BuiltProducts.run(
            "storerelease", ["decide", "--installed", "8", "--lookup", "-"], stdin: #"{"resultCount":1,"results":["#)
        #expect(
            truncated.status == 2
                && truncated.stderr.contains(
                    "decide: --lookup stdin: not a lookup response: not JSON: Unexpected end of file during JSON parse."
                ))
    }

    @Test(arguments: [
        (
            "<html><body>503 Service Unavailable</body></html>",
            "not JSON: Invalid value around character 0. (it looks like HTML, not JSON)"
        ),
        ("", "the input is empty, not JSON"),
        ("  \n", "the input is empty, not JSON"),
        (#"{"resultCount": 1 "results": []}"#, "not JSON: "),
    ])
    func aFileThatIsNotJSONSaysWhereAndWhy(_ text: String, _ message: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lookup.json")
        try Data(text.utf8).write(to: file)
        for flag in ["--lookup", "--manifest", "--play"] {
            let result = try BuiltProducts.storerelease("decide", "--installed", "8", flag, file.path)
            #expect(result.status == 2 && result.stdout.isEmpty)
            #expect(result.stderr.contains("decide: \(flag) \(file.path): "), "\(flag): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(flag): \(result.stderr)")
        }
    }
}

/// Input files are regular files, bounded, and a byte-order mark at their start is skipped.
@Suite struct InputFileLimitTests {
    @Test func anEndlessStreamIsRefusedNamingTheFileAndTheLimit() throws {
        for arguments in [
            ["decide", "--installed", "1.0", "--lookup", "/dev/zero"],
            ["parity", "--lookup", "/dev/zero", "--play-track", "/dev/zero"],
        ] {
            let result = try BuiltProducts.run("storerelease", arguments)
            #expect(result.status == 2)
            #expect(
                result.stderr.contains(#"cannot read "/dev/zero": it is a character device, not a regular file"#),
                "\(result.stderr)")
        }
        let tool = BuiltProducts.directory.appendingPathComponent("storerelease").path
        let piped = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "\(tool) decide --installed 1.0 --lookup - < /dev/zero"])
        #expect(piped.status == 2)
        #expect(piped.stderr.contains("stdin is larger than 16 MiB, the limit for an input file"), "\(piped.stderr)")
    }

    /// A FIFO nobody writes to held `open(2)` for ever, with the signals that end `watch` ignored.
    @Test func aFIFOIsRefusedBeforeAnythingWaitsOnIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let lookup = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/appstore-wechat-cn.json")
        for (arguments, message) in [
            (["decide", "--installed", "1.0", "--lookup", fifo], "decide: cannot read \(fifo.debugDescription): "),
            (["decide", "--installed", "1.0", "--manifest", fifo], "decide: cannot read \(fifo.debugDescription): "),
            (
                ["watch", "--lookup", lookup.path, "--state", fifo, "--rounds", "1"],
                "\(fifo.debugDescription) cannot be used for the state: "
            ),
            (
                ["status", "--id", "1", "--asc-key-file", fifo, "--asc-key-id", "K", "--asc-issuer-id", "I"],
                "status: cannot read \(fifo.debugDescription): "
            ),
        ] {
            let result = try BoundedRun(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result.stderr)")
            #expect(
                result.stderr.contains(message + "it is a FIFO (named pipe), not a regular file"), "\(result.stderr)")
        }
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = folder.appendingPathComponent("policy.json")
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"forceUpdateOn": "minor"}"#.utf8)).write(to: policy)
        let result = try BuiltProducts.run(
            "storerelease",
            [
                "decide", "--installed", "7.9", "--lookup", DecideCommandTests.wechat, "--policy", policy.path, "--now",
                "2021-02-05T00:00:00Z",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""action" : "immediate""#))
    }
}

/// `storerelease` run with a deadline: a run that outlives it is killed and fails the test,
/// instead of holding the suite (only a guard against a hang; nothing is timed).
struct BoundedRun {
    let status: Int32
    let stderr: String

    init(_ arguments: [String], deadline: Duration = .seconds(60)) throws {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)")
        try Data().write(to: errors)
        defer { try? FileManager.default.removeItem(at: errors) }
        let process = Process()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("storerelease")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        do {
            try waitUntil("storerelease \(arguments[0]) exits", deadline: deadline) { !process.isRunning }
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
        status = process.terminationStatus
        stderr = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
    }
}

/// `decide --play --type-in-progress`: Play's record does not say which flow is in progress.
@Suite struct TypeInProgressTests {
    static let inProgress = #"""
        {"packageName": "com.example.app", "availableVersionCode": 90, "updateAvailability": 3,
         "installStatus": "DOWNLOADING", "bytesDownloaded": 10, "totalBytesToDownload": 100, "allowedUpdateTypes": []}
        """#

    @Test(arguments: [
        ([], "resumeImmediate"), (["--type-in-progress", "immediate"], "resumeImmediate"),
        (["--type-in-progress", "flexible"], "none"),
    ])
    func aFlexibleDownloadIsLeftToItsListener(_ flags: [String], _ action: String) throws {
        let result = try BuiltProducts.run(
            "storerelease", ["decide", "--installed", "80", "--play", "-"] + flags, stdin: Self.inProgress)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""action" : "\#(action)""#))
        #expect(result.stdout.contains(#""reason" : "updateInProgress""#))
    }

    @Test func aBadTypeOrOneWithoutPlayIsNamed() throws {
        let bad = try BuiltProducts.run(
            "storerelease", ["decide", "--installed", "80", "--play", "-", "--type-in-progress", "both"],
            stdin: Self.inProgress)
        #expect(bad.status == 2 && bad.stderr.contains(#"--type-in-progress "both" is not flexible or immediate"#))
        let lookup = try BuiltProducts.run(
            "storerelease",
            ["decide", "--installed", "8", "--lookup", DecideCommandTests.wechat, "--type-in-progress", "flexible"])
        #expect(lookup.status == 2 && lookup.stderr.contains("--type-in-progress goes with --play"))
    }
}

/// `sort` reads without bound only what is made of lines: a line past 64 KiB stops it.
@Suite struct SortInputLimitTests {
    static func run(_ command: String) throws -> BuiltProducts.Result {
        let tool = BuiltProducts.directory.appendingPathComponent("storerelease").path
        return try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", command.replacingOccurrences(of: "TOOL", with: tool)])
    }

    @Test func anEndlessLineIsRefusedNamingItsNumberAndTheLimit() throws {
        let zero = try Self.run("TOOL sort < /dev/zero")
        #expect(zero.status == 2)
        #expect(zero.stderr == "storerelease: sort: line 1 is longer than 64 KiB (65536 bytes), the limit for a line\n")
        let third = try Self.run("{ printf '1.0\\n2.0\\n'; head -c 70000 /dev/zero | tr '\\0' 1; } | TOOL sort")
        #expect(third.status == 2 && third.stderr.contains("sort: line 3 is longer than 64 KiB"), "\(third.stderr)")
        #expect(third.stdout.isEmpty)
    }

    // Past the first read: after 2 MiB of short lines, from a pipe (read as it comes) and from a
    // file (read into one buffer of its size).
    @Test func aLongLineDeepInTheInputIsNamed() throws {
        let input = "{ yes 1.2.3 | head -n 300000; head -c 70000 /dev/zero | tr '\\0' 1; printf '\\n4\\n'; }"
        let piped = try Self.run("\(input) | TOOL sort")
        #expect(piped.status == 2 && piped.stderr.contains("sort: line 300001 is longer"), "\(piped.stderr)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("long-line-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fromFile = try Self.run("\(input) > \(file) && TOOL sort < \(file)")
        #expect(fromFile.status == 2 && fromFile.stderr.contains("sort: line 300001 is longer"), "\(fromFile.stderr)")
        #expect(piped.stdout.isEmpty && fromFile.stdout.isEmpty)
    }

    @Test func aLineAtTheLimitIsReadAndABOMIsSkipped() throws {
        let atLimit = try Self.run(
            "{ printf '1.'; head -c 65534 /dev/zero | tr '\\0' 1; printf '\\n'; } | TOOL sort | wc -c")
        #expect(atLimit.status == 0 && atLimit.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "65537")
        let bom = try BuiltProducts.run("storerelease", ["sort"], stdin: "\u{FEFF}8.0.10\n8.0.2\n")
        #expect(bom.status == 0 && bom.stdout == "8.0.2\n8.0.10\n")
    }
}
