import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// ``ReleaseWatcher`` over the loopback fakes playing a scripted release (Tests/Fixtures/timeline),
/// on a virtual clock: rounds an hour apart take no real time.
@Suite struct ReleaseWatcherTests {
    let server: LoopbackServer
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("watch")
    }

    /// 2021-02-10T00:00:00Z: more than a day after the fixture's storefront release date.
    static let start = Date(timeIntervalSince1970: 1_612_915_200)

    /// The timeline's stores, live, for one token.
    func sources(token: String) throws -> (AppStoreSource, PlaySource, AppStoreConnectSource) {
        let base = server.baseURL("timeline-release", token: token)
        let lookup = try AppStoreLookupClient(
            configuration: .init(baseURL: base, retry: .none), rateLimiter: RateLimiter(requests: 10_000))
        let countries = try ["us", "jp", "cn"].map { try StorefrontCountry($0) }
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("watch-play-secret"), configuration: .init(baseURL: base, retry: .none))
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken("watch-asc-secret")), configuration: .init(baseURL: base, retry: .none))
        return (
            .live(.id(414_478_124), storefronts: .listed(countries), client: lookup),
            .live(packageName: "com.tencent.mm", track: "production", client: play),
            AppStoreConnectSource(client: connect)
        )
    }

    func watcher(token: String, state: String, notifier: WebhookNotifier?, clock: VirtualClock) throws
        -> ReleaseWatcher
    {
        let (appStore, play, connect) = try sources(token: token)
        return ReleaseWatcher(
            state: WatchStateFile(path: folder.appendingPathComponent(state).path), appStore: appStore, play: play,
            appStoreConnect: connect, notifier: notifier, interval: .seconds(3600), clock: clock.clock,
            startDate: Self.start)
    }

    /// What each round after the baseline reports, as `type subject from→to`.
    static let story: [[String]] = [
        ["playReviewChanged 81", "ascStateChanged 8.0.10 WAITING_FOR_REVIEW→IN_REVIEW"],
        [
            "storefrontUpdated us 8.0.9→8.0.10 lag 0", "playRolloutChanged 81 0.2→0.5",
            "ascStateChanged 8.0.10 IN_REVIEW→READY_FOR_DISTRIBUTION", "ascStateChanged 8.0.9 READY_FOR_DISTRIBUTION→-",
        ],
        ["storefrontUpdated jp 8.0.9→8.0.10 lag 3600", "phasedReleaseChanged 8.0.10 ACTIVE@1→ACTIVE@2"],
        ["playStatusChanged 81 inProgress→halted", "phasedReleaseChanged 8.0.10 ACTIVE@2→ACTIVE@3"],
        [
            "storefrontUpdated cn 8.0.9→8.0.10 lag 10800", "playStatusChanged 81 halted→inProgress",
            "phasedReleaseChanged 8.0.10 ACTIVE@3→PAUSED@3",
        ],
        [
            "playReleaseRemoved 80", "playStatusChanged 81 inProgress→completed", "playRolloutChanged 81 0.5→-",
            "phasedReleaseChanged 8.0.10 PAUSED@3→COMPLETE@7", "forceUpdateSafe 8.0.10",
        ],
    ]

    /// An event as the story writes it.
    static func line(_ event: ReleaseEvent) -> String {
        func f(_ x: Double?) -> String { x.map { "\($0)" } ?? "-" }
        switch event.change {
        case .storefrontUpdated(let country, let from, let to, let lag):
            return
                "storefrontUpdated \(country) \(from?.description ?? "-")→\(to?.description ?? "-") lag \(lag.map(String.init) ?? "-")"
        case .playReviewChanged(let code, _, _): return "playReviewChanged \(code?.rawValue ?? 0)"
        case .playRolloutChanged(let code, let from, let to):
            return "playRolloutChanged \(code?.rawValue ?? 0) \(f(from))→\(f(to))"
        case .playStatusChanged(let code, let from, let to):
            return "playStatusChanged \(code?.rawValue ?? 0) \(from)→\(to)"
        case .playReleaseRemoved(let code): return "playReleaseRemoved \(code?.rawValue ?? 0)"
        case .ascStateChanged(let version, let from, let to):
            return "ascStateChanged \(version) \(from?.rawValue ?? "-")→\(to?.rawValue ?? "-")"
        case .phasedReleaseChanged(let version, let from, let to):
            return "phasedReleaseChanged \(version) \(from?.key ?? "-")→\(to?.key ?? "-")"
        case .forceUpdateSafe(let version): return "forceUpdateSafe \(version)"
        default: return "unexpected \(event.id)"
        }
    }

    @Test func aScriptedReleaseIsReportedRoundByRoundAndAFailedDeliveryLosesNothing() async throws {
        let token = UUID().uuidString
        let clock = VirtualClock()
        let notifier = try WebhookNotifier(url: server.hookURL("failonce", token: token), format: .json)
        let watcher = try watcher(token: token, state: "state.json", notifier: notifier, clock: clock)
        var reported: [[String]] = []
        var failures = 0
        let outcome = try await watcher.run(
            rounds: 7,
            progress: { progress in
                switch progress {
                case .events(let events): reported.append(events.map(Self.line))
                case .deliveryFailed: failures += 1
                default: break
                }
            })
        #expect(reported == Self.story, "each round reports what changed since the round before")
        #expect(failures == 1 && outcome.undelivered == 0 && !outcome.lastRoundFailed && outcome.rounds == 7)

        let contract = try server.contractChecks(token: token)
        #expect(contract.checked > 0 && contract.violations.isEmpty, "the timeline answered as the APIs' contracts say")
        let deliveries = try server.hooks(token: token)
        #expect(deliveries.map(\.status) == [500, 200, 200, 200, 200, 200])
        let accepted = deliveries.filter { $0.status == 200 }.flatMap { $0.body as? [[String: Any]] ?? [] }
        let ids = accepted.compactMap { $0["id"] as? String }
        #expect(ids.count == Set(ids).count, "nothing delivered twice once it was accepted")
        #expect(ids.count == Self.story.joined().count, "every event delivered")
        let first = try #require(deliveries.first?.body as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(Array(ids.prefix(first.count)) == first, "the failed batch is delivered again first, same ids")
        let retried = try #require(deliveries[1].body as? [[String: Any]])
        #expect(retried.first?["at"] as? String == "2021-02-10T01:00:00Z", "a retried event keeps when it was seen")

        let state = try #require(try WatchStateFile(path: folder.appendingPathComponent("state.json").path).read())
        #expect(
            ISO8601Timestamp.string(from: state.takenAt) == "2021-02-10T07:00:00Z",
            "the file advanced to the last delivered round")
        let lag = try #require(PropagationLag.report(state).first { $0.version.description == "8.0.10" })
        #expect(lag.storefronts == ["us": 0, "jp": 3600, "cn": 10800] && lag.missing.isEmpty)
        #expect(
            lag.medianSeconds == 3600 && lag.worstSeconds == 10800
                && ISO8601Timestamp.string(from: lag.readyAt) == "2021-02-10T03:00:00Z")
        #expect(
            clock.slept == [.seconds(3600), .seconds(7200)] + Array(repeating: .seconds(3600), count: 4),
            "the wait after the failed delivery doubles, then returns to the interval")
    }

    @Test func aRoundThatCannotReadAStoreChangesNothing() async throws {
        let clock = VirtualClock()
        let path = folder.appendingPathComponent("state.json").path
        let rounds = Rounds()
        let watcher = ReleaseWatcher(
            state: WatchStateFile(path: path), interval: .seconds(600), clock: clock.clock, startDate: Self.start
        ) { now, previous throws(ReleaseSourceError) in
            let round = rounds.next()
            if round == 2 || round == 3 { throw .play(.play(.exchange(.timedOut(after: .seconds(30))))) }
            let version = round < 4 ? "8.0.9" : "8.0.10"
            return ReleaseSnapshot(
                takenAt: now,
                releases: [
                    StoreRelease(store: .appStore, appID: "1", version: Version(version), country: .unitedStates)
                ],
                track: PlayTrack(track: "production", releases: []), status: nil, previous: previous)
        }
        var failed = 0
        var reported: [ReleaseEvent] = []
        let outcome = try await watcher.run(
            rounds: 4,
            progress: { progress in
                if case .storeFailed = progress { failed += 1 }
                if case .events(let events) = progress { reported += events }
            })
        #expect(failed == 2 && !outcome.lastRoundFailed)
        #expect(reported.map(\.type) == ["storefrontUpdated"], "a store that did not answer is never 'removed'")
        #expect(clock.slept == [.seconds(600), .seconds(1200), .seconds(2400)], "back-off doubles per failed round")
    }

    @Test func aStateFileThatIsNotThisAppsSnapshotIsRefusedAndLeftAsItIs() async throws {
        let path = folder.appendingPathComponent("state.json").path
        let clock = VirtualClock()
        for (content, expected) in [("{\"takenAt\": 3}", "notASnapshot"), ("not json", "notASnapshot")] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let watcher = ReleaseWatcher(state: WatchStateFile(path: path), clock: clock.clock) {
                _, _ throws(ReleaseSourceError) in
                Issue.record("no store is read for a bad state file")
                throw .noAppStoreID
            }
            await #expect {
                _ = try await watcher.run(rounds: 1)
            } throws: { error in
                "\(error)".contains(path) && "\(error)".contains("not a snapshot") && expected == "notASnapshot"
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == content, "the file is left as it was")
        }
        let other = ReleaseSnapshot(
            takenAt: Self.start,
            releases: [StoreRelease(store: .appStore, appID: "999", version: Version("1.0"), country: .unitedStates)],
            track: nil, status: nil)
        try WatchStateFile(path: path).replace(with: other)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let (appStore, play, connect) = try sources(token: UUID().uuidString)
        let watcher = ReleaseWatcher(
            state: WatchStateFile(path: path), appStore: appStore, play: play, appStoreConnect: connect,
            clock: clock.clock, startDate: Self.start)
        await #expect {
            _ = try await watcher.run(rounds: 1)
        } throws: { error in
            guard case WatchStateFileError.otherApp(_, let reason) = error else { return false }
            return reason.contains("\"999\"") && reason.contains("\"414478124\"")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aSecondWatcherOnTheSameFileIsRefused() async throws {
        let file = WatchStateFile(path: folder.appendingPathComponent("state.json").path)
        var held: WatchStateFile.Lock? = try file.lock()
        let watcher = ReleaseWatcher(state: file, clock: VirtualClock().clock) { _, _ throws(ReleaseSourceError) in
            throw .noAppStoreID
        }
        await #expect(throws: WatchStateFileError.locked(path: file.path)) { _ = try await watcher.run(rounds: 1) }
        #expect(held != nil)
        held = nil
        _ = try file.lock()  // released with the value
    }

    @Test func aReplacementIsWholeAndLeavesNoTemporaryFile() throws {
        let path = folder.appendingPathComponent("state.json").path
        try Data("torn {".utf8).write(to: URL(fileURLWithPath: path + ".tmp"))  // a writer killed mid-write
        let snapshot = ReleaseSnapshot(takenAt: Self.start, releases: nil, track: nil, status: nil)
        try WatchStateFile(path: path).replace(with: snapshot)
        #expect(try WatchStateFile(path: path).read() == snapshot)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aWebhookThatKeepsFailingKeepsTheEventsAndTheFile() async throws {
        let token = UUID().uuidString
        let clock = VirtualClock()
        let notifier = try WebhookNotifier(url: server.hookURL("failalways", token: token), format: .slack)
        let watcher = try watcher(token: token, state: "state.json", notifier: notifier, clock: clock)
        var kept: [Int] = []
        let outcome = try await watcher.run(
            rounds: 4,
            progress: { progress in
                if case .deliveryFailed(let failure, let count, _) = progress {
                    kept.append(count)
                    #expect("\(failure)".hasSuffix("/… answered HTTP 503") && !"\(failure)".contains(token))
                }
            })
        #expect(kept == [2, 6, 8], "each round owes what it owed plus what is new")
        #expect(outcome.undelivered == 8 && outcome.lastRoundFailed)
        let state = try #require(try WatchStateFile(path: folder.appendingPathComponent("state.json").path).read())
        #expect(
            ISO8601Timestamp.string(from: state.takenAt) == "2021-02-10T00:00:00Z", "the file stays at the baseline")
        #expect(clock.slept == [.seconds(3600), .seconds(7200), .seconds(14400)])
    }

    /// A 2xx is a delivery whatever its body: one too large to read (`hugeok`) or one that stops
    /// short of its `Content-Length` (`cutok`).
    @Test(arguments: ["hugeok", "cutok"])
    func aTwoHundredWithAnyBodyIsADeliveryAndIsNotSentAgain(scenario: String) async throws {
        let token = UUID().uuidString
        let notifier = try WebhookNotifier(url: server.hookURL(scenario, token: token), format: .json)
        let watcher = try watcher(token: token, state: "state.json", notifier: notifier, clock: VirtualClock())
        var delivered: [Int] = []
        let outcome = try await watcher.run(
            rounds: 3,
            progress: { progress in
                switch progress {
                case .delivered(let count): delivered.append(count)
                case .deliveryFailed(let failure, _, _): Issue.record("a 200 counted as a failure: \(failure)")
                default: break
                }
            })
        #expect(delivered == Self.story.prefix(2).map(\.count), "each round's events delivered once, in that round")
        #expect(outcome.undelivered == 0 && !outcome.lastRoundFailed)
        let ids = try server.hooks(token: token).flatMap { $0.body as? [[String: Any]] ?? [] }.compactMap {
            $0["id"] as? String
        }
        #expect(ids.count == Self.story.prefix(2).joined().count && Set(ids).count == ids.count, "none sent again")
        let state = try #require(try WatchStateFile(path: folder.appendingPathComponent("state.json").path).read())
        #expect(
            ISO8601Timestamp.string(from: state.takenAt) == "2021-02-10T02:00:00Z",
            "the file advanced with each delivery")
    }

    /// A watcher in memory whose Play release 81 has, round after round, the statuses given
    /// (the last one from then on); `wait` is called in each round's read after the first.
    func flipping(
        _ statuses: [PlayTrackRelease.Status], notifier: WebhookNotifier? = nil, clock: PollingClock,
        wait: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> (ReleaseWatcher, InMemoryWatchStateStore) {
        let rounds = Rounds()
        let store = InMemoryWatchStateStore()
        let watcher = ReleaseWatcher(
            state: store, notifier: notifier, interval: .seconds(600), clock: clock, startDate: Self.start
        ) { now, previous throws(ReleaseSourceError) in
            let round = rounds.next()
            if round > 1 { await wait(round) }
            return ReleaseSnapshot(
                takenAt: now, releases: nil,
                track: PlayTrack(
                    track: "production",
                    releases: [
                        PlayTrackRelease(
                            name: "8.0.10", versionCodes: VersionCode(rawValue: 81).map { [$0] } ?? [],
                            status: statuses[min(round, statuses.count) - 1], userFraction: 0.2)
                    ]),
                status: nil, packageName: "com.tencent.mm", previous: previous)
        }
        return (watcher, store)
    }

    /// Issue 40 finding 9: a release halted, resumed and halted again is two `halted` changes,
    /// each with its own id, whether each was delivered in its round or both wait in one batch
    /// for a webhook that keeps failing (whose retries keep the ids). (Failed before: both were
    /// `playStatusChanged:googlePlay:81:inProgress:halted`.)
    @Test func theSameChangeTwiceHasTwoIdsAndARetryKeepsThem() async throws {
        let statuses: [PlayTrackRelease.Status] = [.inProgress, .halted, .inProgress, .halted]
        var ids: [String] = []
        _ = try await flipping(statuses, clock: VirtualClock().clock).0.run(
            rounds: 4, progress: { if case .events(let events) = $0 { ids += events.map(\.id) } })
        let halts = ids.filter { $0.hasPrefix("playStatusChanged:googlePlay:81:inProgress:halted") }
        #expect(halts.count == 2 && Set(halts).count == 2, "\(ids)")
        #expect(
            halts.first == "playStatusChanged:googlePlay:81:inProgress:halted@2021-02-10T00:00:00Z",
            "counted from the snapshot before: \(halts)")

        let token = UUID().uuidString
        let failing = try WebhookNotifier(url: server.hookURL("failalways", token: token), format: .json)
        _ = try await flipping(statuses, notifier: failing, clock: VirtualClock().clock).0.run(rounds: 4)
        let batches = try server.hooks(token: token).map { delivery in
            (delivery.body as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        let last = try #require(batches.last)
        #expect(Set(last).count == last.count && last.count == 3, "one batch, each occurrence its own id: \(last)")
        #expect(last.filter { $0.hasPrefix("playStatusChanged:googlePlay:81:inProgress:halted") }.count == 2)
        #expect(batches.dropLast().allSatisfy { last.starts(with: $0) }, "a retry keeps the ids it had")
    }

    /// Issue 39 item 6: a stop asked for mid-round lets the round finish (delivered, the state
    /// advanced) while it is within the grace, and cuts it short (its events kept) when it is not;
    /// between rounds it ends the wait at once.
    @Test func aStopMidRoundLetsTheRoundFinishWithinItsGraceElseCutsItShort() async throws {
        let statuses: [PlayTrackRelease.Status] = [.inProgress, .halted]
        // A grace that does not end while the round runs: the round finishes.
        let patient = WatchStop(
            grace: .seconds(3600), clock: PollingClock(now: { .zero }, sleep: { try await Task.sleep(for: $0) }))
        let (finishing, kept) = flipping(statuses, clock: VirtualClock().clock) { _ in patient.request() }
        let finished = try await endingWithin("the round finishes", deadline: .seconds(60)) {
            try await finishing.run(rounds: 3, stop: patient)
        }
        #expect(finished.rounds == 2 && finished.stopped && finished.undelivered == 0)
        #expect(try kept.read()?.googlePlay?.releases.first?.status == .halted, "the state advanced")

        // A grace over at once, and a round that would go on: cut short, the state not advanced.
        let hasty = WatchStop(grace: .zero, clock: VirtualClock().clock)
        let (cut, stayed) = flipping(statuses, clock: VirtualClock().clock) { _ in
            hasty.request()
            try? await Task.sleep(for: .seconds(3600))  // cut short by the cancellation
        }
        let task = Task { try await cut.run(rounds: 3, stop: hasty) }
        hasty.cancels(task)
        let outcome = try await endingWithin("the round is cut short", deadline: .seconds(60)) { try await task.value }
        #expect(outcome.rounds == 2 && outcome.stopped)
        #expect(try stayed.read()?.googlePlay?.releases.first?.status == .inProgress, "the state stayed")

        // Between rounds: the wait (ten minutes, on the real clock) ends at once.
        let between = WatchStop()
        let sleeping = LockedFlag()
        let (waiting, _) = flipping(
            statuses,
            clock: PollingClock(
                now: { .zero },
                sleep: { duration in
                    sleeping.set()
                    try await Task.sleep(for: duration)
                }))
        let running = Task { try await waiting.run(rounds: 3, stop: between) }
        between.cancels(running)
        try await until("the watch waits for round 2", deadline: .seconds(60)) { sleeping.isSet }
        between.request()
        let ended = try await endingWithin("the wait ends", deadline: .seconds(60)) { try await running.value }
        #expect(ended.stopped && ended.rounds == 1)
    }

    /// Counts the rounds a reader was called for.
    final class Rounds: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
    }
}

/// The webhook as a credential: where it may point, what is shown of it, what is sent.
@Suite struct WebhookNotifierTests {
    @Test(arguments: [
        ("https://hooks.slack.com/services/T0/B0/secret", true), ("http://127.0.0.1:8080/hook", true),
        ("http://localhost/hook", true), ("http://[::1]:9/hook", LoopbackServer.ipv6Connects),
        ("HTTP://127.0.0.1:8080/hook", true), ("http://127.000.000.001/hook", false),
        ("http://hooks.example.com/secret", false),
        ("http://127.example.com/secret", false), ("ftp://example.com/x", false), ("file:///tmp/x", false),
    ])
    func onlyHTTPSOrLoopbackHTTPIsAWebhook(url: String, allowed: Bool) throws {
        let parsed = try #require(URL(string: url))
        let made = Result { () throws(WebhookURLError) in try WebhookNotifier(url: parsed) }
        #expect(((try? made.get()) != nil) == allowed)
        if case .failure(let problem) = made { #expect(!"\(problem)".contains("secret"), "never the path") }
    }

    @Test func itsPathIsNeverShown() throws {
        let notifier = try WebhookNotifier(
            url: try #require(URL(string: "https://hooks.slack.com/services/T0/B0/secret")))
        #expect("\(notifier)" == "slack webhook at https://hooks.slack.com:443/…")
        var dumped = ""
        dump(notifier, to: &dumped)
        #expect(!dumped.contains("secret"))
    }

    @Test func slackGetsEscapedLinesAndACount() throws {
        let notifier = try WebhookNotifier(url: try #require(URL(string: "https://hooks.slack.com/x")))
        let events = (0..<60).map {
            ReleaseEvent(
                .ascStateChanged(version: VersionText("1.\($0) <b>&"), from: nil, to: .readyForDistribution), at: Date()
            )
        }
        let body = try #require(
            try JSONSerialization.jsonObject(with: try notifier.body(for: events)) as? [String: String])
        let text = try #require(body["text"])
        #expect(
            text.hasPrefix(
                "*StoreRelease*: 60 changes\n• App Store Connect: 1.0 &lt;b&gt;&amp; new → READY_FOR_DISTRIBUTION"))
        #expect(text.hasSuffix("\n…and 10 more") && text.split(separator: "\n").count == 52)
    }

    @Test func aReceiverThatTricklesItsAnswerFailsTheDeliveryAtItsTimeout() async throws {
        let server = try LoopbackServer.shared.get()
        var configured = try WebhookNotifier(url: server.hookURL("trickle", token: UUID().uuidString), format: .json)
        configured.timeout = .seconds(2)
        let notifier = configured
        let event = ReleaseEvent(.forceUpdateSafe(version: try Version(parsing: "1.0")), at: Date())
        let failure = WebhookDeliveryError.transport(
            "no complete answer from the webhook within 2 s", origin: "\(Origin(server.baseURL))")
        // The receiver sends 200's headers, then a byte a second for 30 s, never quiet for 2 s
        // (the guard only stops a hang).
        await #expect(throws: failure) {
            try await endingWithin("the trickled delivery ends", deadline: .seconds(60)) {
                try await notifier.deliver([event])
            }
        }
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let server = try LoopbackServer.shared.get()
        let token = UUID().uuidString
        let notifier = try WebhookNotifier(url: server.hookURL("redirect", token: token), format: .json)
        await #expect(throws: WebhookDeliveryError.redirected(origin: "\(Origin(server.baseURL))")) {
            try await notifier.deliver([
                ReleaseEvent(.forceUpdateSafe(version: try Version(parsing: "1.0")), at: Date())
            ])
        }
        #expect(try server.elsewhere(token: token).requests == 0, "the events went nowhere else")
    }
}
