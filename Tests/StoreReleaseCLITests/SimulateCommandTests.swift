import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease simulate`, run as a user runs it.
@Suite struct SimulateCommandTests {
    static let scripts = LoopbackServer.packageRoot.appendingPathComponent("Docs/Examples/scripts")

    func steps(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// The example of issue 4, line by line, as the issue describes it.
    @Test func theFlexibleExamplePrintsExactlyWhatTheIssueDescribes() throws {
        let script = """
            setUpdateAvailable 42
            startUpdateFlow flexible
            userAcceptsUpdate
            downloadStarts
            setTotalBytesToDownload 1000
            setBytesDownloaded 400
            downloadCompletes
            completeUpdate
            installCompletes
            """
        let result = try BuiltProducts.storerelease("simulate", stdin: script)
        #expect(result.status == 0 && result.stderr.isEmpty)
        let steps = try steps(result.stdout)
        #expect(steps.count == 9)
        #expect(steps.allSatisfy { $0["accepted"] as? Bool == true && $0["error"] is NSNull })
        #expect(
            steps.map { $0["installStatus"] as? String }
                == [
                    "UNKNOWN", "UNKNOWN", "PENDING", "DOWNLOADING", "DOWNLOADING", "DOWNLOADING", "DOWNLOADED",
                    "INSTALLING", "UNKNOWN",
                ])
        #expect(steps[5]["bytesDownloaded"] as? Int == 400)
        #expect(steps[8]["updateAvailability"] as? String == "UPDATE_NOT_AVAILABLE")
        #expect(steps[8]["announced"] as? [String] == ["INSTALLED"])
        #expect(steps[2]["announced"] as? [String] == ["PENDING"])
        #expect(steps[0...1].allSatisfy { $0["updateAvailability"] as? String == "UPDATE_AVAILABLE" })
        #expect(
            steps[2...7].allSatisfy { $0["updateAvailability"] as? String == "DEVELOPER_TRIGGERED_UPDATE_IN_PROGRESS" })
        #expect(steps.map { $0["line"] as? Int } == Array(1...9))
        let keys: Set = [
            "line", "event", "accepted", "error", "announced", "updateAvailability", "installStatus",
            "installErrorCode", "availableVersionCode", "bytesDownloaded", "totalBytesToDownload",
            "updateTypeInProgress", "allowedUpdateTypes",
        ]
        #expect(steps.allSatisfy { Set($0.keys) == keys })
        // The record allows both types while the update is available and no flow runs, none after.
        #expect(steps[0]["allowedUpdateTypes"] as? [String] == ["flexible", "immediate"])
        #expect(steps[2...7].allSatisfy { ($0["allowedUpdateTypes"] as? [String])?.isEmpty == true })
    }

    @Test func completeUpdateBeforeADownloadIsRefusedAndExitsOne() throws {
        let result = try BuiltProducts.storerelease("simulate", "-", stdin: "setUpdateAvailable 42\ncompleteUpdate\n")
        #expect(result.status == 1)
        let steps = try steps(result.stdout)
        #expect(steps[1]["accepted"] as? Bool == false)
        #expect(steps[1]["error"] as? String == "ERROR_DOWNLOAD_NOT_PRESENT")
        #expect(steps[1]["installStatus"] as? String == "UNKNOWN", "the state is unchanged")
    }

    /// The scripts under Docs/Examples/scripts print exactly the output committed beside them.
    @Test(arguments: ["flexible-update", "immediate-update", "download-fails", "refused-events", "app-store"])
    func theDocsScriptsPrintWhatTheDocsShow(_ name: String) throws {
        let script = Self.scripts.appendingPathComponent("\(name).txt").path
        let expected = try String(
            contentsOf: Self.scripts.appendingPathComponent("\(name).expected.jsonl"), encoding: .utf8)
        let result = try BuiltProducts.storerelease("simulate", script)
        #expect(result.stdout == expected)
        let refused = expected.contains(#""accepted":false"#)
        #expect(result.status == (refused ? 1 : 0))
    }

    @Test func blankLinesCommentsAndTheStoreLinePrintNothing() throws {
        let script = "store googlePlay\n\n# a comment\n   \nsetUpdateAvailable 5   # trailing comment\n"
        let result = try BuiltProducts.storerelease("simulate", stdin: script)
        let steps = try steps(result.stdout)
        #expect(steps.count == 1)
        #expect(steps[0]["line"] as? Int == 5 && steps[0]["event"] as? String == "setUpdateAvailable 5")
    }

    @Test(arguments: [
        ("downloadStart\n", #"line 1: unknown verb "downloadStart" (did you mean downloadStarts?)"#),
        ("setUpdateAvailable\n", "line 1: setUpdateAvailable: needs a versionCode"),
        (
            "setUpdateAvailable 0\n",
            #"line 1: setUpdateAvailable: "0" is not a versionCode (a whole number in 1...2100000000)"#
        ),
        (
            "setUpdateAvailable 4 2 flexible\n",
            #"line 1: setUpdateAvailable: "2" is not an update type (flexible or immediate)"#
        ),
        ("setUpdatePriority 9\n", #"line 1: setUpdatePriority: "9" is not a priority (a whole number in 0...5)"#),
        ("setInstallErrorCode -77\n", #"line 1: setInstallErrorCode: "-77" is not an InstallErrorCode"#),
        ("downloadStarts now\n", #"line 1: downloadStarts: unexpected argument "now""#),
        ("setUpdateAvailable 4\nstore appStore\n", "line 2: the store line must come before every event"),
        ("store playStore\n", "line 1: expected `store appStore` or `store googlePlay`"),
        ("store appStore\ndownloadStarts\n", "line 2: downloadStarts is not a verb of the appStore flow"),
        ("store appStore\nsetStoreVersion 1..2\n", #"line 2: setStoreVersion: "1..2": empty component at offset 2"#),
        (
            "setClientVersionStalenessDays -1\n",
            #"line 1: setClientVersionStalenessDays: "-1" is not a number of days or null"#
        ),
    ])
    func aMalformedLineExitsTwoNamingIt(_ script: String, _ message: String) throws {
        let result = try BuiltProducts.storerelease("simulate", stdin: script)
        #expect(result.exited && result.status == 2)
        #expect(result.stdout.isEmpty, "nothing runs when a line is malformed")
        #expect(result.stderr.contains("simulate: stdin: " + message), "stderr: \(result.stderr)")
    }

    @Test func anUnreadableFileExitsTwoNamingIt() throws {
        let missing = try BuiltProducts.storerelease("simulate", "/nonexistent/script.txt")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains(#"simulate: cannot read "/nonexistent/script.txt": no such file"#))
        let folder = try BuiltProducts.storerelease("simulate", "/tmp")
        #expect(folder.status == 2 && folder.stderr.contains("it is a folder"))
        let two = try BuiltProducts.storerelease("simulate", "a", "b")
        #expect(two.status == 2 && two.stderr.contains("simulate: takes one script file"))
    }

    @Test func nullIsAStalenessAndOtherWordsAreNot() throws {
        let result = try BuiltProducts.storerelease(
            "simulate", stdin: "setUpdateAvailable 3\nsetClientVersionStalenessDays null\n")
        let parsed = try steps(result.stdout)
        #expect(result.status == 0 && parsed.count == 2)
        let word = try BuiltProducts.storerelease(
            "simulate", stdin: "setUpdateAvailable 3\nsetClientVersionStalenessDays none\n")
        #expect(word.status == 2 && word.stderr.contains(#"line 2: setClientVersionStalenessDays: "none" is not"#))
    }
}
