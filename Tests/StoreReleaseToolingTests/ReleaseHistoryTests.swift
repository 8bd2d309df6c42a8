import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// `watch --history FILE`: a line a round with the contract's keys, a torn last line skipped and
/// named (and cut by the next append), bounded past 10,000 lines, another app refused by line.
@Suite struct ReleaseHistoryTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("history")
    }

    static let start = Date(timeIntervalSince1970: 1_612_944_000)  // 2021-02-10T08:00:00Z

    /// A round of 8.0.10 rolling out to `fraction` of Play users, `status` on the track.
    static func round(
        _ index: Int, fraction: Double? = 0.2, status: PlayTrackRelease.Status = .inProgress, app: String = "414478124"
    ) throws -> ReleaseHistoryRound {
        let (new, old) = (try Version(parsing: "8.0.10"), try Version(parsing: "8.0.2"))
        return ReleaseHistoryRound(
            takenAt: start.addingTimeInterval(Double(index) * 300),
            app: ReleaseSnapshot.App(appStoreID: app, packageName: "com.tencent.mm"),
            googlePlay: ReleaseSnapshot.GooglePlay(
                track: "production",
                releases: [
                    ReleaseSnapshot.PlayRelease(
                        versionCode: VersionCode(rawValue: 81), version: Version("8.0.10"), status: status,
                        userFraction: fraction)
                ]),
            appStoreConnect: [
                ReleaseHistoryRound.ConnectVersion(
                    version: "8.0.10", state: .readyForDistribution,
                    phasedRelease: AppStoreConnectStatus.Phase(state: .active, day: 4, percent: 10))
            ],
            storefronts: [new: [.unitedStates], old: [StorefrontCountry(validated: "cn")]])
    }

    @Test func aWatchAppendsOneLineForEachRoundThatReadTheStoresWithTheContractsKeys() async throws {
        let path = folder.appendingPathComponent("history.jsonl").path
        let clock = VirtualClock()
        let rounds = ReleaseWatcherTests.Rounds()
        var watcher = ReleaseWatcher(
            state: InMemoryWatchStateStore(), interval: .seconds(300), clock: clock.clock, startDate: Self.start
        ) { now, previous throws(ReleaseSourceError) in
            let round = rounds.next()
            if round == 2 { throw .play(.play(.exchange(.timedOut(after: .seconds(30))))) }
            return ReleaseSnapshot(
                takenAt: now,
                releases: [
                    StoreRelease(
                        store: .appStore, appID: "414478124", version: Version("8.0.10"), country: .unitedStates)
                ],
                track: PlayTrack(
                    track: "production",
                    releases: [
                        PlayTrackRelease(
                            name: "8.0.10", versionCodes: [VersionCode(rawValue: 81)!],
                            status: round < 3 ? .inProgress : .halted, userFraction: 0.2)
                    ]),
                status: nil, packageName: "com.tencent.mm", previous: previous)
        }
        watcher.history = ReleaseHistoryFile(path: path)
        _ = try await watcher.run(rounds: 3)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2, "a round that could not read a store adds no line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "takenAt", "app", "googlePlay", "appStoreConnect", "storefronts", "storefrontsWithoutRelease", "health",
            ])
        #expect(object["takenAt"] as? String == "2021-02-10T08:00:00Z")
        #expect((object["app"] as? [String: Any])?["packageName"] as? String == "com.tencent.mm")
        #expect((object["storefronts"] as? [String: [String]]) == ["8.0.10": ["us"]])
        let history = try ReleaseHistoryFile(path: path).read()
        #expect(history.rounds.map { $0.googlePlay?.releases.first?.status } == [.inProgress, .halted])
        #expect(history.rounds.map { $0.googlePlay?.releases.first?.userFraction } == [0.2, 0.2])
        #expect(
            history.rounds.last?.takenAt == Self.start.addingTimeInterval(900), "after a failed round's longer wait")
    }

    /// A watch with health sources records health in its snapshot; the round carries it, so the
    /// timeline's crash-rate panel has numbers.
    @Test func aRoundCarriesTheHealthItsSnapshotRecorded() throws {
        var snapshot = ReleaseSnapshot(
            takenAt: Self.start,
            releases: [
                StoreRelease(store: .appStore, appID: "414478124", version: Version("8.0.10"), country: .unitedStates)
            ],
            track: nil, status: nil, packageName: "com.tencent.mm", previous: nil)
        #expect(ReleaseHistoryRound(snapshot).health == nil, "no health sources, no health")
        let rate = HealthRate(events: 21, of: 1000)
        snapshot.health = ReleaseSnapshot.Health(
            googlePlay: ReleaseSnapshot.StoreHealthRecord(
                source: .playDeveloperReporting, version: try Version(parsing: "8.0.10"),
                versionCode: VersionCode(rawValue: 81), verdict: .regressed, users: 1000, crashRate: rate, anrRate: nil,
                reasons: []))
        let health = ReleaseHistoryRound(snapshot).health
        #expect(health?.appStore == nil)
        #expect(health?.googlePlay?.version?.description == "8.0.10")
        #expect(health?.googlePlay?.verdict == .regressed)
        #expect(health?.googlePlay?.crashRate == rate)
    }

    /// A snapshot's health record and a history line's are one type: the line keeps the version,
    /// the verdict, the rates (every key) and the window counts, not the source, versionCode,
    /// users or reasons, and reads back as the round that wrote it.
    @Test func aRoundKeepsWhatAHistoryLineWritesOfTheSnapshotsHealthAndReadsBackAsItWas() throws {
        let version = try Version(parsing: "8.0.10")
        let counts = HealthCounts(
            version: version, versionCode: VersionCode(rawValue: 81), ageDays: 2, users: 1000, crashedUsers: 21,
            anrUsers: nil)
        var snapshot = ReleaseSnapshot(
            takenAt: Self.start, releases: nil, track: nil, status: nil, packageName: "com.tencent.mm", previous: nil)
        snapshot.health = ReleaseSnapshot.Health(
            googlePlay: ReleaseSnapshot.StoreHealthRecord(
                source: .playDeveloperReporting, version: version, versionCode: VersionCode(rawValue: 81),
                verdict: .regressed, users: 1000, crashRate: HealthRate(events: 21, of: 1000), anrRate: nil,
                reasons: ["crash rate 2.1%"], candidate: counts))
        let round = ReleaseHistoryRound(snapshot)
        let line = try JSONEncoder().encode(round)
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        let health = try #require(object["health"] as? [String: Any])
        #expect(health["appStore"] is NSNull)
        let play = try #require(health["googlePlay"] as? [String: Any])
        #expect(Set(play.keys) == ["version", "verdict", "crashRate", "anrRate", "candidate"])
        #expect(play["anrRate"] is NSNull)
        #expect(try JSONDecoder().decode(ReleaseHistoryRound.self, from: line) == round)
        #expect(round.health?.googlePlay?.source == nil && round.health?.googlePlay?.candidate == counts)
    }

    @Test func aTornLastLineIsSkippedAndNamedAndTheNextAppendCutsIt() throws {
        let path = folder.appendingPathComponent("history.jsonl").path
        let file = ReleaseHistoryFile(path: path)
        var lines = try file.append(Self.round(0))
        lines = try file.append(Self.round(1), lines: lines)
        lines = try file.append(Self.round(2), lines: lines)
        // A watcher killed mid-write: half of the third line is on disk.
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let secondEnd = try #require(data.indices.filter { data[$0] == UInt8(ascii: "\n") }.dropLast().last)
        data = data.prefix(secondEnd + 1 + 40)
        try data.write(to: URL(fileURLWithPath: path))

        let torn = try file.read()
        #expect(torn.rounds.count == 2 && torn.tornLine == 3, "the lines before a torn one are read as written")

        try file.append(Self.round(3))
        let mended = try file.read()
        #expect(mended.tornLine == nil)
        #expect(mended.rounds.map(\.takenAt) == [0, 1, 3].map { Self.start.addingTimeInterval(Double($0) * 300) })
    }

    @Test func aHistoryStaysWithinItsBoundThroughASoakPastTenThousandRounds() throws {
        let path = folder.appendingPathComponent("soak.jsonl").path
        let file = ReleaseHistoryFile(path: path)
        // The soak's first 9,990 rounds written as the watcher writes them (cheaply: one line's
        // text with its time and fraction changed), then 1,010 more through append.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let template = try String(decoding: encoder.encode(Self.round(0, fraction: 0.01)), as: UTF8.self)
        var text = ""
        for index in 0..<9_990 {
            text +=
                template.replacingOccurrences(
                    of: "2021-02-10T08:00:00Z",
                    with: ISO8601Timestamp.string(from: Self.start.addingTimeInterval(Double(index) * 300))
                ).replacingOccurrences(of: "\"userFraction\":0.01", with: "\"userFraction\":0.\(index % 90 + 10)")
                + "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var lines: Int?
        var most = 0
        for index in 9_990..<11_000 {
            // A state that changes every round: nothing folds by sameness, the oldest must go.
            lines = try file.append(Self.round(index, fraction: Double(index % 90 + 10) / 100), lines: lines)
            most = max(most, lines ?? 0)
        }
        let history = try file.read()
        #expect(most <= ReleaseHistoryFile.maximumLines)
        #expect(history.rounds.count == lines && history.rounds.count < ReleaseHistoryFile.maximumLines)
        #expect(history.rounds.last?.takenAt == Self.start.addingTimeInterval(10_999 * 300), "the newest is kept")
        #expect(history.rounds.first?.takenAt ?? .distantPast > Self.start, "the oldest went")
        let taken = history.rounds.map(\.takenAt)
        #expect(taken == taken.sorted(), "rounds stay in order")
    }

    @Test func aFoldKeepsTheFirstRoundOfEachStateAndTheNewest() throws {
        let rounds =
            try (0..<5).map { try Self.round($0, fraction: 0.05) } + (5..<9).map { try Self.round($0, fraction: 0.2) }
            + (9..<12).map { try Self.round($0, fraction: 0.2, status: .halted) }
        let kept = ReleaseHistoryFile.folded(rounds)
        #expect(kept.map(\.takenAt) == [0, 5, 9, 11].map { Self.start.addingTimeInterval(Double($0) * 300) })
        #expect(ReleaseHistoryFile.folded(rounds, limit: 2).map(\.takenAt) == kept.suffix(2).map(\.takenAt))
    }

    @Test(arguments: [
        ("{\"takenAt\": \"yesterday\"}\n", 1, "notAHistory"),
        ("", 1, "empty"),
        ("\n\n", 1, "empty"),
        ("{\"app\": {\"appStoreID\": \"414478124\"", 1, "empty"),
    ])
    func whatIsNotAHistoryIsRefusedNamingTheLine(text: String, line: Int, failure: String) throws {
        let path = folder.appendingPathComponent("bad.jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ReleaseHistoryFile(path: path).read()
            Issue.record("read \(text.debugDescription)")
        } catch {
            #expect("\(error)".hasPrefix("\(path):\(line): "), "\(error)")
            switch (error, failure) {
            case (.notAHistory, "notAHistory"), (.empty, "empty"): break
            default: Issue.record("\(error) is not \(failure)")
            }
        }
    }

    @Test func aRoundOfAnotherAppIsRefusedNamingItsLine() throws {
        let path = folder.appendingPathComponent("two-apps.jsonl").path
        let file = ReleaseHistoryFile(path: path)
        try file.append(Self.round(0))
        try file.append(Self.round(1))
        try file.append(Self.round(2, app: "123"))
        #expect(throws: ReleaseHistoryFileError.self) { try file.read() }
        do {
            _ = try file.read()
        } catch {
            guard case .otherApp(_, let line, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(line == 3 && reason.contains("\"123\""), "\(reason)")
        }
    }

    @Test func aLinkAtTheHistoryIsRefusedNeverFollowed() throws {
        let target = folder.appendingPathComponent("elsewhere").path
        let path = folder.appendingPathComponent("history.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: ReleaseHistoryFileError.self) { try ReleaseHistoryFile(path: path).append(Self.round(0)) }
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
