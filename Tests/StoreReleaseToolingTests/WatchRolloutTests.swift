import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// `watch --rollout` as the library runs it: ``ReleaseWatcher`` with a ``RolloutGate``, against the
/// stateful Play fake and a health file, on a scripted clock, so a release walks from 1% to
/// everyone in no time.
@Suite struct WatchRolloutTests {
    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("watch-rollout")
    }

    /// com.example.walk's Play health: 8.0.2 (80) through November at 0.5%, 8.0.10 (81) from
    /// 1 December, 300 users its first day and 6,000 a day after, at `rate`; both with 0.4% ANR
    /// users, counted often enough that by 50% the window rules out a 1.5x regression of either
    /// rate, which 100% waits for.
    static func health(rate: Double) throws -> HealthFile {
        var days: [String] = []
        for day in 1...30 {
            days.append(
                #"{"date": "2026-11-\#(String(format: "%02d", day))", "version": "8.0.2", "versionCode": 80, "users": 8000, "crashedUsers": 40, "anrUsers": 32}"#
            )
        }
        for day in 1...25 {
            let users = day == 1 ? 300 : 6000
            days.append(
                #"{"date": "2026-12-\#(String(format: "%02d", day))", "version": "8.0.10", "versionCode": 81, "users": \#(users), "crashedUsers": \#(Double(users) * rate), "anrUsers": \#(users / 250)}"#
            )
        }
        let json = #"{"store": "googlePlay", "app": "com.example.walk", "days": ["# + days.joined(separator: ",") + "]}"
        return try JSONDecoder().decode(HealthFile.self, from: Data(json.utf8))
    }

    /// Runs `rounds` rounds six hours apart from `start` over the same state file; the events reported.
    func watch(
        _ token: String, from start: String, rounds: Int, rate: Double = 0.005
    ) async throws -> (events: [ReleaseEvent], decisions: [RolloutDecision]) {
        let client = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.watch-rollout"),
            configuration: .init(baseURL: server.baseURL("ok", token: token)))
        // As watch --rollout judges: the rollout's sequential rule.
        let health = HealthSources(
            files: [try Self.health(rate: rate)], criteria: try HealthCriteria().sequentially())
        let clock = VirtualClock()
        var watcher = ReleaseWatcher(
            state: WatchStateFile(path: folder.appendingPathComponent("state.json").path), appStore: nil,
            play: .live(packageName: "com.example.walk", track: "production", client: client), appStoreConnect: nil,
            health: health, interval: .seconds(6 * 3600), clock: clock.clock,
            startDate: try #require(ISO8601Timestamp.date(from: start)))
        watcher.haltsOnRegression = true
        watcher.rollout = RolloutGate()
        var events: [ReleaseEvent] = []
        var decisions: [RolloutDecision] = []
        _ = try await watcher.run(
            rounds: rounds,
            progress: { progress in
                if case .events(let new) = progress { events += new }
                if case .rolledOut(let plan) = progress, let gate = plan.gate { decisions.append(gate) }
            })
        return (events, decisions)
    }

    /// The Play fake's track of com.example.walk: each release's versionCodes, status and fraction.
    func track(_ token: String) throws -> [(codes: [String], status: String, fraction: Double?)] {
        let data = try Data(
            contentsOf: server.baseURL.appendingPathComponent(token).appendingPathComponent("playstate"))
        let apps = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let tracks = (apps?["com.example.walk"] as? [String: Any])?["tracks"] as? [[String: Any]]
        let releases = tracks?.first?["releases"] as? [[String: Any]] ?? []
        return releases.map {
            ($0["versionCodes"] as? [String] ?? [], $0["status"] as? String ?? "", $0["userFraction"] as? Double)
        }
    }

    /// Steps of the schedule, each after its 24 hours and a day of fresh data; a first day of 300
    /// user-days holds; a person's halt holds the watch (restarted) until resumed; then on to 100%.
    @Test func aHealthyReleaseWalksFromOnePercentToEveryoneOnTheSchedule() async throws {
        let token = UUID().uuidString
        // Day 1 (12:00 in California): the step is first seen, and 300 user-days say nothing yet.
        var run = try await watch(token, from: "2026-12-01T20:00:00Z", rounds: 1)
        #expect(run.decisions.map(\.kind) == [.hold])
        #expect(run.decisions.first?.reasons.contains { $0.contains("insufficientData (300 user-days") } == true)
        // Four days, a round every six hours: a step a day once its data include the day it began.
        run = try await watch(token, from: "2026-12-02T02:00:00Z", rounds: 16)
        let advanced = run.events.compactMap { event -> Double? in
            if case .rolloutAdvanced(_, .googlePlay, _, let to) = event.change { return to }
            return nil
        }
        #expect(advanced == [0.02, 0.05, 0.1, 0.2], "\(run.decisions.map(\.sentence))")
        let held = run.events.filter { $0.type == "rolloutHeld" }
        #expect(held.count < run.decisions.filter { $0.kind == .hold }.count, "a hold is told when its reasons change")
        var steps = run.events.filter { $0.type == "rolloutAdvanced" }.map(\.at)
        for (earlier, later) in zip(steps, steps.dropFirst()) {
            #expect(later.timeIntervalSince(earlier) >= 24 * 3600, "a step lasts its hours")
        }
        // A person halts it: the watch holds, whatever the health says.
        let client = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.watch-rollout"),
            configuration: .init(baseURL: server.baseURL("ok", token: token)))
        let person = ReleaseActor(play: .live(packageName: "com.example.walk", track: "production", client: client))
        let version = try Version(parsing: "8.0.10")
        #expect(try await person.act(.halt, version: version).verified == true)
        run = try await watch(token, from: "2026-12-06T02:00:00Z", rounds: 8)
        #expect(run.decisions.allSatisfy { $0.kind == .hold }, "\(run.decisions.map(\.sentence))")
        #expect(run.decisions.last?.reasons.contains { $0.contains("is halted") } == true)
        #expect(try track(token).first { $0.codes == ["81"] }?.status == "halted")
        #expect(try await person.act(.resume, version: version).verified == true)
        run = try await watch(token, from: "2026-12-08T02:00:00Z", rounds: 16)
        steps = run.events.compactMap { event in
            if case .rolloutAdvanced = event.change { return event.at }
            return nil
        }
        // Completed, the rounds after it ask the gate nothing more (the release is rolled out).
        #expect(run.decisions.last?.kind == .complete, "\(run.decisions.map(\.sentence))")
        #expect(run.decisions.count < 16, "rounds after the completion read nothing for the rollout")
        let release = try #require(try track(token).first)
        #expect(release.codes == ["81"] && release.status == "completed")
        #expect(try track(token).count == 1, "the completed release replaced the one before")
    }

    /// A regression halts Play the round it shows, and the rollout advances no further.
    @Test func aRegressionHaltsTheRoundItShows() async throws {
        let token = UUID().uuidString
        let run = try await watch(token, from: "2026-12-03T20:00:00Z", rounds: 2, rate: 0.03)
        #expect(run.events.contains { $0.type == "halted" }, "\(run.events.map(\.type))")
        #expect(!run.events.contains { $0.type == "rolloutAdvanced" })
        #expect(try track(token).first { $0.codes == ["81"] }?.status == "halted")
        #expect(run.decisions.first?.kind == .halt)
    }

    /// The App Store's health of 414478124: 8.0.9 through November, 8.0.10 from 1 December, healthy.
    static func appStoreHealth(crashedUsers: Int = 140) throws -> HealthFile {
        var days: [String] = []
        for day in 1...30 {
            days.append(
                #"{"date": "2026-11-\#(String(format: "%02d", day))", "version": "8.0.9", "versionCode": null, "users": 50000, "crashedUsers": 150, "anrUsers": null}"#
            )
        }
        for day in 1...25 {
            days.append(
                #"{"date": "2026-12-\#(String(format: "%02d", day))", "version": "8.0.10", "versionCode": null, "users": 50000, "crashedUsers": \#(crashedUsers), "anrUsers": null}"#
            )
        }
        let json = #"{"store": "appStore", "app": "414478124", "days": ["# + days.joined(separator: ",") + "]}"
        return try JSONDecoder().decode(HealthFile.self, from: Data(json.utf8))
    }

    /// The three stores' clients of one token: Play's fake, App Store Connect's `rolling` world
    /// (8.0.10 in a phased release on day 3) and the lookup.
    func clients(_ token: String) throws -> (PlayDeveloperAPIClient, AppStoreConnectClient, AppStoreLookupClient) {
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.watch-rollout"),
            configuration: .init(baseURL: server.baseURL("ok", token: token)))
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken("asc.watch-rollout")),
            configuration: .init(baseURL: server.baseURL("rolling", token: token)))
        return (play, connect, try AppStoreLookupClient(configuration: .init(baseURL: server.baseURL("ok"))))
    }

    /// `--lockstep`: the phased release on day 3 (5%) is paused while it is more than a step above
    /// Play's 1%, resumed once Play reaches 2%, and Play goes no more than a step above it (10%).
    @Test func lockstepKeepsTheStoresWithinAStep() async throws {
        let token = UUID().uuidString
        let (play, connect, lookup) = try clients(token)
        let health = HealthSources(
            files: [try Self.health(rate: 0.005), try Self.appStoreHealth()],
            criteria: try HealthCriteria().sequentially())
        var decisions: [RolloutDecision] = []
        var phased: [PhasedRelease.State] = []
        for (start, rounds) in [("2026-12-01T20:00:00Z", 1), ("2026-12-02T02:00:00Z", 13)] {
            let clock = VirtualClock()
            var watcher = ReleaseWatcher(
                state: WatchStateFile(path: folder.appendingPathComponent("lockstep.json").path),
                appStore: .live(.id(414_478_124), storefronts: .listed([try StorefrontCountry("cn")]), client: lookup),
                play: .live(packageName: "com.example.walk", track: "production", client: play),
                appStoreConnect: AppStoreConnectSource(client: connect), health: health, interval: .seconds(6 * 3600),
                clock: clock.clock, startDate: try #require(ISO8601Timestamp.date(from: start)))
            watcher.haltsOnRegression = true
            watcher.rollout = RolloutGate(lockstep: true)
            _ = try await watcher.run(
                rounds: rounds,
                progress: { progress in
                    guard case .rolledOut(let plan) = progress, let gate = plan.gate else { return }
                    decisions.append(gate)
                    for step in plan.steps where step.store == .appStore && step.done {
                        phased.append(step.to == "PAUSED" ? .paused : .active)
                    }
                })
        }
        #expect(decisions.first?.phased == .pause, "\(decisions.map(\.sentence))")
        #expect(phased == [.paused, .active], "paused while ahead, resumed by the gate once Play is a step below")
        let moves = decisions.filter { $0.kind == .advance }.compactMap(\.to)
        #expect(moves == [0.02, 0.05, 0.1], "\(decisions.map(\.sentence))")
        #expect(
            decisions.last?.kind == .hold
                && decisions.last?.reasons.contains { $0.contains("lockstep: Play at 20% would be more than a step") }
                    == true,
            "\(decisions.last?.reasons ?? [])")
    }

    /// Shared code crashes on both stores: the App Store's health of 8.0.10 regressing halts the
    /// Play rollout too, the round it shows (Play's release halted, the phased release paused), and
    /// the rollout moves no further.
    @Test func aRegressionOnTheAppStoreHaltsBothStoresTheRoundItShows() async throws {
        let token = UUID().uuidString
        let (play, connect, lookup) = try clients(token)
        let health = HealthSources(
            files: [try Self.health(rate: 0.005), try Self.appStoreHealth(crashedUsers: 1500)],
            criteria: try HealthCriteria().sequentially())
        var watcher = ReleaseWatcher(
            state: WatchStateFile(path: folder.appendingPathComponent("regressed.json").path),
            sources: StoreSources(
                appStore: .live(.id(414_478_124), storefronts: .listed([try StorefrontCountry("cn")]), client: lookup),
                play: .live(packageName: "com.example.walk", track: "production", client: play),
                appStoreConnect: AppStoreConnectSource(client: connect), health: health),
            interval: .seconds(6 * 3600), clock: VirtualClock().clock,
            startDate: try #require(ISO8601Timestamp.date(from: "2026-12-03T20:00:00Z")))
        watcher.haltsOnRegression = true
        watcher.rollout = RolloutGate(lockstep: true)
        var events: [ReleaseEvent] = []
        var halts: [ActingPlan] = []
        let outcome = try await watcher.run(
            rounds: 2,
            progress: { progress in
                if case .events(let new) = progress { events += new }
                if case .halted(let plan) = progress { halts.append(plan) }
            })
        #expect(halts.count == 1 && halts.first?.verified == true, "halted once, verified: \(halts)")
        #expect(Set(halts.first?.steps.map(\.store) ?? []) == [.googlePlay, .appStore], "on both stores")
        #expect(events.contains { if case .halted(_, .appStore, _, _, _, _) = $0.change { true } else { false } })
        #expect(!events.contains { $0.type == "rolloutAdvanced" })
        #expect(try track(token).first { $0.codes == ["81"] }?.status == "halted")
        #expect(outcome.haltsOwed.isEmpty)
    }

    /// A plain watch (no `--rollout`) of a state that `advance --state` wrote keeps its `rollout`
    /// key as it was, and writes no `watch` key for it.
    @Test func aPlainWatchKeepsTheRolloutKeyAdvanceWrote() async throws {
        let start = try #require(ISO8601Timestamp.date(from: "2026-12-02T02:00:00Z"))
        let version = try Version(parsing: "8.0.10")
        let kept = RolloutState(version: version, play: .init(fraction: 0.05, began: start))
        let snapshot = ReleaseSnapshot(
            takenAt: start, releases: nil, track: WatchRoundTests.track(0.05), status: nil)
        let state = InMemoryWatchStateStore()
        try state.replace(with: snapshot, memory: WatchMemory(rollout: kept))
        let watcher = ReleaseWatcher(
            state: state, interval: .seconds(60), clock: VirtualClock().clock, startDate: start.addingTimeInterval(60)
        ) { now, previous throws(ReleaseSourceError) in
            ReleaseSnapshot(
                takenAt: now, releases: nil, track: WatchRoundTests.track(0.1), status: nil, previous: previous)
        }
        _ = try await watcher.run(rounds: 2)
        let after = try #require(try state.readState())
        #expect(after.memory?.rollout == kept, "the rollout's step as advance kept it")
        let object = try JSONSerialization.jsonObject(with: try #require(try state.contents())) as? [String: Any]
        #expect(object?["rollout"] != nil && object?["watch"] == nil, "\(object?.keys.sorted() ?? [])")
        #expect(ISO8601Timestamp.string(from: after.snapshot.takenAt) == "2026-12-02T02:02:00Z")
    }
}
