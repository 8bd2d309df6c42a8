import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease advance`, the built binary against the stateful Play fake and health files:
/// a healthy rollout advances a step once its step is old enough and its data include the day
/// it began, a second advance in the same step writes nothing, a regression is a halt plan that
/// writes nothing, and bad input is exit 2 before anything is read.
@Suite struct AdvanceCommandTests {
    static let secret = "ya29.advance-secret-\(UUID().uuidString)"

    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("advance")
        try Data((Self.secret + "\n").utf8).write(to: scratch.url.appendingPathComponent("token"))
    }

    /// A Play health file for com.example.rollout: 8.0.2 (80) over ten days of November, 8.0.10
    /// (81) from 28 November to 1 December at `rate` crashes per user.
    func healthFile(rate: Double) throws -> String {
        var days: [String] = []
        for day in 1...10 {
            days.append(
                #"{"date": "2026-11-\#(String(format: "%02d", day))", "version": "8.0.2", "versionCode": 80, "users": 8000, "crashedUsers": 40, "anrUsers": 8}"#
            )
        }
        for date in ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"] {
            days.append(
                #"{"date": "\#(date)", "version": "8.0.10", "versionCode": 81, "users": 6000, "crashedUsers": \#(Int(6000 * rate)), "anrUsers": 6}"#
            )
        }
        let text =
            #"{"store": "googlePlay", "app": "com.example.rollout", "days": ["# + days.joined(separator: ",\n") + "]}"
        let file = folder.appendingPathComponent("health-\(rate).json")
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func run(_ token: String, _ arguments: [String]) throws -> BuiltProducts.Result {
        let flags = [
            "advance", "8.0.10", "--package", "com.example.rollout", "--play-token-file",
            folder.appendingPathComponent("token").path, "--play-base-url",
            server.baseURL("ok", token: token).absoluteString,
        ]
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), flags + arguments,
            environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
        #expect(result.exited)
        #expect(!result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret), "a token shows")
        return result
    }

    func gate(_ result: BuiltProducts.Result) throws -> [String: Any] {
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(plan["action"] as? String == "advance")
        return try #require(plan["gate"] as? [String: Any])
    }

    func fraction(_ token: String) throws -> Double? {
        let data = try Data(
            contentsOf: server.baseURL.appendingPathComponent(token).appendingPathComponent("playstate"))
        let apps = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let tracks = (apps?["com.example.rollout"] as? [String: Any])?["tracks"] as? [[String: Any]]
        let releases = tracks?.first { $0["track"] as? String == "production" }?["releases"] as? [[String: Any]]
        return releases?.first { $0["versionCodes"] as? [String] == ["81"] }?["userFraction"] as? Double
    }

    func writes(_ token: String) throws -> Int { try server.playStats(token: token)["writes"] as? Int ?? -1 }

    /// A request the client refuses as bad input (a bundle id with a space) is exit 2, as `halt`'s
    /// is: advance reads its stores through the one mapping of library errors (it was exit 1).
    @Test func aBundleIDTheClientRefusesIsBadInputAndNothingIsWritten() throws {
        let token = UUID().uuidString
        let result = try run(
            token,
            [
                "--bundle-id", "com.tencent xin", "--asc-token-file", folder.appendingPathComponent("token").path,
                "--asc-base-url", server.baseURL("rolling", token: token).absoluteString, "--health-file",
                try healthFile(rate: 0.005),
            ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(#""com.tencent xin" is not a bundle id"#), "\(result.stderr)")
        #expect(try writes(token) == 0)
    }

    @Test func aHealthyRolloutAdvancesOnceItsStepIsOldEnoughAndASecondAdvanceWritesNothing() throws {
        let token = UUID().uuidString
        let state = folder.appendingPathComponent("state.json").path
        let common = [
            "--health-file", try healthFile(rate: 0.005), "--state", state, "--apply", "--confirm",
            "com.example.rollout",
        ]
        // First seen: the step begins now, so the gate holds and keeps when it began.
        let first = try run(token, common + ["--now", "2026-12-01T20:00:00Z"])
        #expect(first.status == 1, "\(first.stderr)")
        #expect(try gate(first)["decision"] as? String == "hold", "\(first.stdout)")
        #expect(first.stderr.contains("the step began 0 hours ago"), "\(first.stderr)")
        #expect(try writes(token) == 0)
        #expect(FileManager.default.fileExists(atPath: state))
        // A day later, healthy with data through the day it began: 20% → 50%, applied and read back.
        let second = try run(token, common + ["--now", "2026-12-02T21:00:00Z"])
        #expect(second.status == 0, "\(second.stderr)")
        let advanced = try gate(second)
        #expect(advanced["decision"] as? String == "advance" && advanced["from"] as? Double == 0.2)
        #expect(advanced["to"] as? Double == 0.5)
        #expect(try fraction(token) == 0.5, "20% → 50%")
        #expect(try writes(token) == 2, "one track update, one commit")
        // The same step again: the gate holds and nothing is written.
        let third = try run(token, common + ["--now", "2026-12-02T22:00:00Z"])
        #expect(third.status == 1)
        #expect(try gate(third)["decision"] as? String == "hold", "\(third.stdout)")
        #expect(try writes(token) == 2, "a second advance in the same step writes nothing")
    }

    @Test func aDryRunPlansTheNextStepAndWritesNothing() throws {
        let token = UUID().uuidString
        let result = try run(
            token, ["--health-file", try healthFile(rate: 0.005), "--now", "2026-12-02T21:00:00Z", "--format", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("googlePlay 81 (8.0.10): inProgress at 20% → inProgress at 50%"), "\(result.stdout)")
        #expect(result.stdout.contains("is not known (no state)"), "\(result.stdout)")
        #expect(try writes(token) == 0)
    }

    @Test func aRegressionIsAHaltPlanThatWritesNothing() throws {
        let token = UUID().uuidString
        let result = try run(
            token,
            [
                "--health-file", try healthFile(rate: 0.03), "--now", "2026-12-02T21:00:00Z", "--apply", "--confirm",
                "com.example.rollout",
            ])
        #expect(result.status == 1)
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((plan["gate"] as? [String: Any])?["decision"] as? String == "halt" && plan["apply"] as? Bool == false)
        #expect((plan["steps"] as? [[String: Any]])?.first?["to"] as? String == "halted", "the halt a person runs")
        #expect(try writes(token) == 0)
        #expect(try fraction(token) == 0.2)
    }

    /// 0.7% over 8.0.10's 24,000 user-days against 8.0.2's 0.5% over 32,000: `health`, one look,
    /// calls it regressed (0.60% above 0.58%); `advance` judges a rollout's rounds by the
    /// sequential rule, where that is evidence of about 20 to 1 (4,000 halts): it holds, the
    /// data leaning towards a regression, and plans no halt.
    @Test func whatOneLookCallsRegressedTheRolloutHoldsWhileTheDataLean() throws {
        let file = try healthFile(rate: 0.007)
        let health = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            ["health", "--health-file", file, "--version", "8.0.10", "--now", "2026-12-02T21:00:00Z"],
            environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
        #expect(health.status == 1 && health.stdout.contains("\"regressed\""), "\(health.stdout)")
        let token = UUID().uuidString
        let result = try run(token, ["--health-file", file, "--now", "2026-12-02T21:00:00Z"])
        #expect(result.status == 1, "\(result.stderr)")
        let gate = try gate(result)
        #expect(gate["decision"] as? String == "hold", "\(result.stdout)")
        let reasons = gate["reasons"] as? [String] ?? []
        #expect(reasons.contains { $0.contains("lean towards a regression") }, "\(reasons)")
    }

    @Test(arguments: [
        (["--schedule", "1,5,50"], "--schedule: the schedule 1,5,50 does not end at 100"),
        (["--schedule", "5,2,100"], "does not increase"),
        (["--step-hours", "0"], "--step-hours: a step of 0 hours"),
        (["--step-hours", "-3"], "--step-hours"),
        (["--apply"], "--confirm"),
        (["--schedule", "1,x,100"], "\"x\" is not a percentage"),
        // A --confirm that does not name the app is refused now, not on the day the gate first advances.
        (["--apply", "--confirm", "com.example.other"], "--confirm must name every app acted on: com.example.rollout"),
        (["--lockstep"], "--lockstep keeps Google Play within a step of the App Store's phased release"),
    ])
    func badInputIsExitTwoBeforeAnythingIsRead(_ flags: [String], _ message: String) throws {
        let token = UUID().uuidString
        let result = try run(token, flags)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        #expect(try server.playStats(token: token)["requests"] as? Int ?? 0 == 0, "nothing read")
    }

    /// `advance --apply --state FILE` while another process holds FILE.lock (a running watch of
    /// it): exit 1 naming the state, nothing read or written, the state as it was.
    @Test func anAdvanceWhileAWatchHoldsTheStateReadsAndWritesNothing() throws {
        let token = UUID().uuidString
        let state = folder.appendingPathComponent("held.json").path
        try Data(#"{"rollout": {"version": "8.0.10", "phasedPausedByGate": false}}"#.utf8)
            .write(to: URL(fileURLWithPath: state))
        // Another process holds the lock, as a watch of the file does, until its input closes.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, sys; f = open(sys.argv[1], 'w'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); "
                + "sys.stdin.read()",
            state + ".lock",
        ]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        #expect(String(decoding: output.fileHandleForReading.readData(ofLength: 5), as: UTF8.self) == "held\n")
        let result = try run(
            token,
            [
                "--health-file", try healthFile(rate: 0.005), "--state", state, "--now", "2026-12-02T21:00:00Z",
                "--apply", "--confirm", "com.example.rollout",
            ])
        #expect(result.status == 1 && result.stderr.contains("is in use by another watcher"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was read or written"))
        #expect(try server.playStats(token: token)["requests"] as? Int ?? 0 == 0, "nothing read")
        #expect(
            try String(contentsOfFile: state, encoding: .utf8)
                == #"{"rollout": {"version": "8.0.10", "phasedPausedByGate": false}}"#)
    }

    @Test func aStateFileThatIsNotOneIsExitTwoNamingIt() throws {
        let token = UUID().uuidString
        let state = folder.appendingPathComponent("bad.json")
        try Data(#"{"rollout": {"version": "not a version"}}"#.utf8).write(to: state)
        let result = try run(token, ["--state", state.path])
        #expect(result.status == 2 && result.stderr.contains("bad.json"), "\(result.stderr)")
        #expect(try server.playStats(token: token)["requests"] as? Int ?? 0 == 0, "nothing read")
    }

    /// A healthy release walks 1 → 100% on Play on the schedule, against the Play fake: each step
    /// after its hours and a day of fresh data, holding while its window has too few user-days and
    /// while a person's halt stands, going on from the same step once resumed. Its crash and ANR
    /// rates (0.5% and 0.4%, as 8.0.2's) are counted often enough that by 50% its window rules
    /// out a 1.5x regression of either, which 100% waits for.
    @Test func aHealthyReleaseWalksFromOnePercentToEveryoneOnTheSchedule() throws {
        let token = UUID().uuidString
        var days: [String] = []
        for day in 1...30 {
            days.append(
                #"{"date": "2026-11-\#(String(format: "%02d", day))", "version": "8.0.2", "versionCode": 80, "users": 8000, "crashedUsers": 40, "anrUsers": 32}"#
            )
        }
        for day in 1...20 {
            let users = day == 1 ? 300 : 6000
            days.append(
                #"{"date": "2026-12-\#(String(format: "%02d", day))", "version": "8.0.10", "versionCode": 81, "users": \#(users), "crashedUsers": \#(users / 200), "anrUsers": \#(users / 250)}"#
            )
        }
        let health = folder.appendingPathComponent("walk.json")
        try Data(
            (#"{"store": "googlePlay", "app": "com.example.walk", "days": ["# + days.joined(separator: ",\n") + "]}")
                .utf8
        ).write(to: health)
        let state = folder.appendingPathComponent("walk-state.json").path
        let tokenFile = folder.appendingPathComponent("token").path
        let play = [
            "--play-token-file", tokenFile, "--play-base-url", server.baseURL("ok", token: token).absoluteString,
        ]
        func advance(_ now: String) throws -> (status: Int32, decision: String?, to: Double?) {
            let result = try BuiltProducts.run(
                executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
                ["advance", "8.0.10", "--package", "com.example.walk", "--health-file", health.path, "--state", state]
                    + play + ["--now", now, "--apply", "--confirm", "com.example.walk"],
                environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
            let gate = try gate(result)
            return (result.status, gate["decision"] as? String, gate["to"] as? Double)
        }
        func person(_ action: String) throws {
            let result = try BuiltProducts.run(
                executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
                [action, "8.0.10", "--package", "com.example.walk"] + play + [
                    "--apply", "--confirm", "com.example.walk",
                ],
                environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
            #expect(result.status == 0, "\(action): \(result.stderr)")
        }
        // Day 1: first seen, and 300 user-days are too few to say anything.
        let first = try advance("2026-12-01T20:00:00Z")
        #expect(first.status == 1 && first.decision == "hold")
        var walked: [Double] = []
        for (index, now) in ["2026-12-02T21:00:00Z", "2026-12-03T22:00:00Z", "2026-12-04T23:00:00Z"].enumerated() {
            let step = try advance(now)
            #expect(step.status == 0 && step.decision == "advance", "step \(index)")
            walked += step.to.map { [$0] } ?? []
        }
        // A person halts it: the gate holds, whatever the health says.
        try person("halt")
        let halted = try advance("2026-12-06T00:00:00Z")
        #expect(halted.status == 1 && halted.decision == "hold")
        try person("resume")
        for now in ["2026-12-07T01:00:00Z", "2026-12-08T02:00:00Z"] {
            let step = try advance(now)
            #expect(step.status == 0 && step.decision == "advance")
            walked += step.to.map { [$0] } ?? []
        }
        let last = try advance("2026-12-09T03:00:00Z")
        #expect(last.status == 0 && last.decision == "complete" && last.to == 1)
        #expect(walked == [0.02, 0.05, 0.1, 0.2, 0.5], "\(walked)")
        let done = try advance("2026-12-10T04:00:00Z")
        #expect(done.status == 1 && done.decision == "done")
        let data = try Data(
            contentsOf: server.baseURL.appendingPathComponent(token).appendingPathComponent("playstate"))
        let apps = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let tracks = (apps?["com.example.walk"] as? [String: Any])?["tracks"] as? [[String: Any]]
        let releases = tracks?.first?["releases"] as? [[String: Any]] ?? []
        #expect(
            releases.map { $0["versionCodes"] as? [String] } == [["81"]]
                && releases.first?["status"] as? String == "completed")
    }
}
