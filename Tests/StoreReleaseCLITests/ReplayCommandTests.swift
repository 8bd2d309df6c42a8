import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease replay` as users run it: the built binary over the bundled rollout history and
/// histories made from it.
@Suite struct ReplayCommandTests {
    let scratch: ScratchFolder
    static let history = BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch/rollout-history.jsonl").path

    init() throws {
        scratch = try ScratchFolder("replay")
    }

    /// The bundled history's lines.
    static func lines() throws -> [String] {
        try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Writes `text` to a file of the scratch folder; returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = scratch.url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A window's users past what a health file allows a day (10^12), on both stores, are a line
    /// that is not a round: exit 2 naming the key path and the value, never an overflow.
    @Test func aCountPastTheCapIsExitTwoNamingItsKeyPathAndValue() throws {
        let line = try Self.lines()[30]
        for huge in ["5000000000000000000", "\(Int.max)", "1000000000001"] {
            let changed = line.replacingOccurrences(
                of: #""users":(\d+),"version":"8.0.11""#, with: #""users":\#(huge),"version":"8.0.11""#,
                options: .regularExpression)
            #expect(changed.components(separatedBy: huge).count == 3, "both stores' candidate windows")
            let path = try file("huge.jsonl", changed + "\n")
            let result = try BuiltProducts.storerelease("replay", path)
            #expect(result.exited && result.status == 2 && result.stdout.isEmpty, "\(huge): \(result.stderr)")
            #expect(result.stderr.contains("\(path):1: not a round"), "\(result.stderr)")
            #expect(result.stderr.contains(".candidate.users: \(huge) is more than 1000000000000"), "\(result.stderr)")
        }
        let most = line.replacingOccurrences(
            of: #""users":(\d+),"version":"8.0.11""#, with: #""users":1000000000000,"version":"8.0.11""#,
            options: .regularExpression)
        let result = try BuiltProducts.storerelease("replay", try file("most.jsonl", most + "\n"))
        #expect(result.status == 0, "10^12 on each store is still a window: \(result.stderr)")
    }

    /// With the watch's own parameters (the default schedule, 24-hour steps), replay decides what
    /// the watch decided, round by round, on the bundled history: its 5 advances at the rounds
    /// that made them, each step dated from the round that applied it (not from the next round,
    /// the first to show Play's new fraction), and the holds while Play had changes in review.
    @Test func theBundledHistoryReplaysAsTheWatchDecidedRoundByRound() throws {
        let result = try BuiltProducts.storerelease("replay", Self.history)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let replay = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let replayed = (replay?["decisions"] as? [[String: Any]] ?? []).map {
            "\($0["at"] as? String ?? "?") \($0["decision"] as? String ?? "?")"
        }
        let recorded = try Self.lines().map { line in
            let round = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let rollout = round?["rollout"] as? [String: Any]
            return "\(round?["takenAt"] as? String ?? "?") \(rollout?["decision"] as? String ?? "?")"
        }
        #expect(replayed.count == 145 && recorded.count == 145)
        #expect(recorded.filter { $0.hasSuffix(" advance") }.count == 5)
        for (again, watched) in zip(replayed, recorded) {
            #expect(again == watched, "replayed beside recorded")
        }
    }

    /// A history cut mid-line (a watch killed mid-write) replays the lines before it and names
    /// the torn line on stderr, as `timeline` does.
    @Test func aTornLastLineIsSkippedAndNamedOnStderr() throws {
        let text = try String(contentsOfFile: Self.history, encoding: .utf8)
        let path = try file("torn.jsonl", String(text.dropLast(200)))
        let result = try BuiltProducts.storerelease("replay", path)
        #expect(result.status == 0, "\(result.stderr)")
        let replay = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(replay?["rounds"] as? Int == 144)
        #expect(
            result.stderr
                == "replay: \(path):145 is torn (a watch stopped mid-write); skipped, the lines before it are replayed\n"
        )
    }

    /// A watch's state file (one JSON object over many lines) is named as what it looks like, not
    /// "not valid JSON"; other JSON over many lines is said to be one document, not a history.
    @Test func aStateFileOrOtherJSONIsSaidToBeNoHistory() throws {
        let root = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads")
        let state = root.appendingPathComponent("watch-state.json").path
        let health = root.appendingPathComponent("health-play.json").path
        for (path, says) in [
            (
                state,
                "\(state):1: not a round of a watch history (it looks like a watch's state file or a snapshot, not a history"
            ),
            (health, "\(health):1: not a round of a watch history (it is one JSON document over "),
        ] {
            let result = try BuiltProducts.storerelease("replay", path)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stderr)")
            #expect(result.stderr.contains(says), "\(result.stderr)")
            #expect(
                result.stderr.contains("a history is one JSON object a line, a round each, as a watch appends it"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("not valid JSON"), "\(result.stderr)")
        }
    }

    /// Rounds are judged in time order, as `timeline` draws them: the bundled history written
    /// backwards replays as written forwards.
    @Test func roundsAreJudgedInTimeOrderWhateverTheirOrderInTheFile() throws {
        let forwards = try BuiltProducts.storerelease("replay", Self.history)
        let path = try file("backwards.jsonl", try Self.lines().reversed().joined(separator: "\n") + "\n")
        let backwards = try BuiltProducts.storerelease("replay", path)
        #expect(backwards.status == 0 && backwards.stderr.isEmpty, "\(backwards.stderr)")
        #expect(backwards.stdout == forwards.stdout)
    }

    /// A round dated decades away (a wrong clock) is refused as `timeline` refuses it: exit 2
    /// naming the earliest and the latest round.
    @Test func roundsSpanningMoreThanFiveYearsAreExitTwoNamingThem() throws {
        for (year, rounds) in [
            ("1970", "from round 60 (1970-03-03T19:00:00Z) to round 145"),
            ("0001", "from round 60 (0001-03-03T19:00:00Z) to round 145"),
            ("9999", "from round 1 (2021-03-01T08:00:00Z) to round 60 (9999-03-03T19:00:00Z)"),
        ] {
            var lines = try Self.lines()
            lines[59] = lines[59].replacingOccurrences(of: #""takenAt":"2021-"#, with: #""takenAt":"\#(year)-"#)
            let path = try file("\(year).jsonl", lines.joined(separator: "\n") + "\n")
            let result = try BuiltProducts.storerelease("replay", path)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(year): \(result.stderr)")
            #expect(result.stderr.contains("replay: \(path): the rounds span"), "\(result.stderr)")
            #expect(result.stderr.contains(rounds), "\(result.stderr)")
        }
    }

    /// A history without counts names "round 5" as the version of StoreRelease's design whose
    /// history lines keep them, not as a watch's fifth round; `replay --help` says the same.
    @Test func aHistoryWithoutCountsSaysRoundFiveIsStoreReleasesDesign() throws {
        let old = BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch/timeline-history.jsonl").path
        let result = try BuiltProducts.storerelease("replay", old)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "none of its 121 rounds kept its health windows' counts: it was recorded by a StoreRelease before "
                    + "round 5 of its design, whose history lines keep no window counts, or without health sources"),
            "\(result.stderr)")
        let help = try BuiltProducts.storerelease("replay", "--help").stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("recorded by a StoreRelease before round 5 of its design"), "\(help)")
        #expect(!help.contains("round 5 on"), "\(help)")
    }

    /// `--format text` of one round that halts: "1 round" (not "1 rounds") and its user-days
    /// grouped by thousands, as other lines write them.
    @Test func theTextSaysOneRoundAndGroupsTheUserDays() throws {
        let line =
            #"{"app":{"appStoreID":null,"bundleID":null,"packageName":"com.example.app"},"appStoreConnect":null,"googlePlay":{"releases":[{"status":"inProgress","userFraction":0.01,"version":"8.0.10","versionCode":81}],"track":"production"},"health":{"appStore":null,"googlePlay":{"version":"8.0.10","verdict":"unknown","crashRate":null,"anrRate":null,"candidate":{"version":"8.0.10","versionCode":81,"ageDays":1,"users":271000,"crashedUsers":2710,"anrUsers":27},"baseline":{"version":"8.0.2","versionCode":80,"ageDays":1,"users":500000,"crashedUsers":2500,"anrUsers":50}}},"storefronts":null,"storefrontsWithoutRelease":null,"takenAt":"2025-12-02T20:00:00Z"}"#
        let result = try BuiltProducts.storerelease("replay", try file("one.jsonl", line + "\n"), "--format", "text")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("replay of 8.0.10: 1 round judged again\n"), "\(result.stdout)")
        #expect(
            result.stdout.hasSuffix(
                "the rule would have halted at 2025-12-02T20:00:00Z, 271,000 user-days exposed; the release was never "
                    + "halted\n"), "\(result.stdout)")
    }
}
