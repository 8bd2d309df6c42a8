import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// A clock whose sleep returns at once and moves time on: the waiter's tests take no real time.
final class VirtualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed: Duration = .zero
    private var sleeps: [Duration] = []

    var clock: PollingClock {
        PollingClock(
            now: { self.lock.withLock { self.elapsed } },
            sleep: { duration in
                self.lock.withLock {
                    self.elapsed += duration
                    self.sleeps.append(duration)
                }
            })
    }

    /// Every sleep asked for, in order.
    var slept: [Duration] { lock.withLock { sleeps } }
}

/// ``ReleaseWaiter`` against the loopback server, on a virtual clock.
@Suite struct ReleaseWaiterTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func play(_ scenario: String, token: String, package: String = "com.example.completed") throws -> PlaySource {
        let client = try PlayDeveloperAPIClient(
            token: try BearerToken("waiter-token"),
            configuration: .init(baseURL: server.baseURL(scenario, token: token), retry: .none))
        return .live(packageName: package, track: "production", client: client)
    }

    func lookups(_ scenario: String, token: String) throws -> AppStoreLookupClient {
        try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL(scenario, token: token), retry: .none), bustsCaches: true,
            rateLimiter: RateLimiter(requests: 10_000))
    }

    func appStore(_ scenario: String, token: String, app: AppStoreApp, countries: [String]) throws
        -> AppStoreSource
    {
        .live(
            app, storefronts: .listed(try countries.map { try StorefrontCountry($0) }),
            client: try lookups(scenario, token: token))
    }

    /// Collects the rounds a run reports.
    final class Rounds: @unchecked Sendable {
        private let lock = NSLock()
        private var rounds: [String] = []
        func add(_ round: ReleaseWaiter.Round) { lock.withLock { rounds.append(round.description) } }
        var all: [String] { lock.withLock { rounds } }
    }

    @Test func playIsAskedEditFreeUntilPublishedThenTheTrackThroughAnEditThatIsDeleted() async throws {
        let token = UUID().uuidString
        let virtual = VirtualClock()
        var waiter = ReleaseWaiter(
            sources: StoreSources(play: try play("publishing", token: token)), version: try Version(parsing: "8.0.2"))
        waiter.interval = .seconds(60)
        waiter.clock = virtual.clock
        let rounds = Rounds()
        let last = try await waiter.run { rounds.add($0) }
        #expect(
            rounds.all == [
                "round 1: 8.0.2 not published on Google Play (production) yet: in review; waiting for Google Play (production)",
                "round 2: 8.0.2 not published on Google Play (production) yet: in review; waiting for Google Play (production)",
                "round 3: 8.0.2 fully rolled out on Google Play (production)",
            ])
        #expect(last.summary == "8.0.2 is fully rolled out on Google Play (production)")
        #expect(virtual.slept == [.seconds(60), .seconds(90)], "the interval grows by half each round")
        let stats = try server.playStats(token: token)
        #expect(stats["releasesRequests"] as? Int == 3)
        #expect(stats["editsInserted"] as? Int == 1, "one edit, once the list shows it published")
        #expect(stats["editsDeleted"] as? Int == 1 && stats["editsCommitted"] as? Int == 0)
    }

    @Test func aVersionCodeAloneWaitsForPlay() async throws {
        var waiter = ReleaseWaiter(
            sources: StoreSources(play: try play("ok", token: UUID().uuidString)), version: nil,
            versionCode: VersionCode(rawValue: 80))
        waiter.clock = VirtualClock().clock
        #expect(try await waiter.run().summary == "versionCode 80 is fully rolled out on Google Play (production)")
    }

    @Test func itTimesOutNamingWhatIsMissing() async throws {
        let token = UUID().uuidString
        let virtual = VirtualClock()
        var waiter = ReleaseWaiter(
            sources: StoreSources(
                appStore: try appStore("ok", token: token, app: .id(414_478_124), countries: ["cn"]),
                play: try play("ok", token: token)), version: try Version(parsing: "9.0"))
        waiter.interval = .seconds(60)
        waiter.timeout = .seconds(600)
        waiter.clock = virtual.clock
        await #expect {
            try await waiter.run()
        } throws: { error in
            guard case .timedOut(let round) = error as? ReleaseWaiterError else { return false }
            return round.missing == ["cn", "Google Play (production)"]
                && "\(error)" == "timed out: 9.0 is not live yet: not live in cn; not on Google Play (production)"
        }
        // Rounds at 0, 60, 150, 285 and 487.5 s; the next would start past 600 s.
        #expect(virtual.slept.count == 4)
        #expect(try server.playStats(token: token)["releasesRequests"] as? Int == 5)
        #expect(try server.playStats(token: token)["editsInserted"] as? Int == 0, "nothing published: no edit")
    }

    @Test func aTwentyPercentRolloutInTwoCountriesIsLiveButNotComplete() async throws {
        let version = try Version(parsing: "8.0.10")
        var live = ReleaseWaiter(
            sources: StoreSources(play: try play("ok", token: UUID().uuidString, package: "com.example.rollout")),
            version: version)
        live.clock = VirtualClock().clock
        #expect(try await live.run().summary == "8.0.10 is rolling out on Google Play (production): 20% in us, ca")

        let token = UUID().uuidString
        var complete = ReleaseWaiter(
            sources: StoreSources(play: try play("ok", token: token, package: "com.example.rollout")), version: version)
        complete.until = .complete
        complete.interval = .seconds(60)
        complete.timeout = .seconds(600)
        complete.clock = VirtualClock().clock
        let rounds = Rounds()
        await #expect {
            try await complete.run { rounds.add($0) }
        } throws: { error in
            "\(error)"
                == "timed out: 8.0.10 is not complete yet: rolling out on Google Play (production): 20% in us, ca"
        }
        #expect(
            rounds.all.first
                == "round 1: 8.0.10 rolling out on Google Play (production): 20% in us, ca; waiting for Google Play "
                + "(production)")
        #expect(rounds.all.count == 5, "it kept asking")
        let stats = try server.playStats(token: token)
        #expect(stats["editsInserted"] as? Int == 5 && stats["editsDeleted"] as? Int == 5)
        #expect(stats["editsCommitted"] as? Int == 0)
    }

    @Test func aCompletedReleaseIsComplete() async throws {
        var waiter = ReleaseWaiter(
            sources: StoreSources(play: try play("ok", token: UUID().uuidString, package: "com.example.newer")),
            version: try Version(parsing: "8.0.10"))
        waiter.until = .complete
        waiter.clock = VirtualClock().clock
        let last = try await waiter.run()
        #expect(last.number == 1 && last.summary == "8.0.10 is fully rolled out on Google Play (production)")
    }

    /// What `waiter` says when it gives up, on a virtual clock with a 100 s timeout.
    func failure(of waiter: ReleaseWaiter) async -> String? {
        var waiter = waiter
        waiter.timeout = .seconds(100)
        waiter.clock = VirtualClock().clock
        do throws(ReleaseWaiterError) {
            _ = try await waiter.run()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aHaltedReleaseIsNotLive() async throws {
        let waiter = ReleaseWaiter(
            sources: StoreSources(play: try play("ok", token: UUID().uuidString, package: "com.example.halted")),
            version: try Version(parsing: "8.0.10"))
        #expect(
            await failure(of: waiter)
                == "timed out: 8.0.10 is not live yet: halted on Google Play (production) at 5%: nobody new gets it")
    }

    /// App Store Connect alone, about app 414478124: an App Store source with no storefront names it.
    func connect(_ scenario: String) throws -> StoreSources {
        let client = try AppStoreConnectClient(
            credentials: .token(try BearerToken("waiter-asc-token")),
            configuration: .init(baseURL: server.baseURL(scenario, token: UUID().uuidString), retry: .none))
        return StoreSources(
            appStore: try appStore(scenario, token: UUID().uuidString, app: .id(414_478_124), countries: []),
            appStoreConnect: AppStoreConnectSource(client: client))
    }

    @Test func aPhasedReleaseOnDayThreeIsLiveButNotComplete() async throws {
        let phase =
            "ready for distribution on App Store Connect, in a phased release (ACTIVE, day 3, 5% of automatic "
            + "updates)"
        var live = ReleaseWaiter(sources: try connect("phased"), version: try Version(parsing: "8.0.2"))
        live.clock = VirtualClock().clock
        #expect(try await live.run().summary == "8.0.2 is " + phase)

        var complete = live
        complete.until = .complete
        #expect(await failure(of: complete) == "timed out: 8.0.2 is not complete yet: " + phase)

        var finished = complete
        finished.sources = try connect("complete")
        #expect(try await finished.run().summary == "8.0.2 is ready for distribution on App Store Connect")
    }

    @Test func aVersionWaitingForItsReleaseIsNotLiveAndTheStateIsNamed() async throws {
        let waiter = ReleaseWaiter(sources: try connect("approved"), version: try Version(parsing: "8.0.10"))
        #expect(
            await failure(of: waiter)
                == "timed out: 8.0.10 is not live yet: not ready for distribution on App Store Connect: 8.0.10 is "
                + "PENDING_DEVELOPER_RELEASE")
    }

    @Test(arguments: [
        ("live", ReleaseWaiter.Until.live), ("complete", .complete), ("phased-complete", .complete),
    ])
    func untilReadsBothSpellingsOfComplete(_ text: String, _ until: ReleaseWaiter.Until) {
        #expect(ReleaseWaiter.Until(argument: text) == until)
    }

    @Test func untilRefusesAnythingElse() {
        for text in ["Live", "completed", "", "phased"] { #expect(ReleaseWaiter.Until(argument: text) == nil) }
    }

    @Test func whatWaitingCannotFixStopsAtOnce() async throws {
        var refused = ReleaseWaiter(
            sources: StoreSources(play: try play("401", token: UUID().uuidString)),
            version: try Version(parsing: "8.0.2"))
        refused.clock = VirtualClock().clock
        await #expect {
            try await refused.run()
        } throws: { error in
            guard case .source(.play(let error)) = error as? ReleaseWaiterError, error.code == .unauthorized else {
                return false
            }
            return true
        }

        var unknownPackage = ReleaseWaiter(
            sources: StoreSources(play: try play("ok", token: UUID().uuidString, package: "com.example.nothing")),
            version: try Version(parsing: "8.0.2"))
        unknownPackage.clock = VirtualClock().clock
        await #expect(throws: ReleaseWaiterError.source(.play(.play(.packageNotFound("com.example.nothing"))))) {
            try await unknownPackage.run()
        }

        let virtual = VirtualClock()
        var unknownApp = ReleaseWaiter(
            sources: StoreSources(
                appStore: try appStore("ok", token: UUID().uuidString, app: .id(1), countries: ["us", "cn"])),
            version: try Version(parsing: "8.0.2"))
        unknownApp.clock = virtual.clock
        await #expect(throws: ReleaseWaiterError.appUnknown(.id(1), countries: ["us", "cn"], rounds: 3)) {
            try await unknownApp.run()
        }
        #expect(virtual.slept.count == 2, "three rounds, two sleeps")
    }

    @Test func soldStorefrontsWithoutAppStoreConnectAreRefusedBeforeAnyLookup() async throws {
        let token = UUID().uuidString
        var waiter = ReleaseWaiter(
            sources: StoreSources(
                appStore: .live(.id(414_478_124), storefronts: .sold, client: try lookups("ok", token: token))),
            version: try Version(parsing: "8.0.2"))
        waiter.clock = VirtualClock().clock
        await #expect(throws: ReleaseWaiterError.source(.availabilityNeeded)) { try await waiter.run() }
        #expect(try server.stats(token: token).requests == 0)
    }

    @Test func aBundleIDLookupAsksByTheLearnedIDToo() async throws {
        let token = UUID().uuidString
        var waiter = ReleaseWaiter(
            sources: StoreSources(
                appStore: try appStore("ok", token: token, app: .bundleID("com.tencent.xin"), countries: ["cn"])),
            version: try Version(parsing: "9.0"))
        waiter.timeout = .seconds(200)
        waiter.clock = VirtualClock().clock
        await #expect(throws: ReleaseWaiterError.self) { try await waiter.run() }
        // Round 1 asks by bundle id and learns 414478124; rounds 2 and 3 ask by both.
        let stats = try server.stats(token: token)
        #expect(stats.requests == 5)
        #expect(stats.ids == [["414478124"], ["414478124"]])
    }
}
