import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The watch's round as events → actions, with no network, no file and no clock: each decision
/// of ``WatchRound`` (what a round reads, acts on, records, reports, delivers and keeps) checked
/// on the action it returns.
@Suite struct WatchRoundTests {
    static let start = Date(timeIntervalSince1970: 1_733_472_000)  // 2024-12-06T08:00:00Z
    static var version: Version { get throws { try Version(parsing: "8.0.10") } }

    // MARK: Values

    /// The track: 80 (8.0.9) completed, 81 (8.0.10) at `fraction` with `status`.
    static func track(_ fraction: Double?, status: PlayTrackRelease.Status = .inProgress) -> PlayTrack {
        PlayTrack(
            track: "production",
            releases: [
                PlayTrackRelease(
                    name: "81 (8.0.10)", versionCodes: [VersionCode(rawValue: 81)].compactMap { $0 }, status: status,
                    userFraction: fraction),
                PlayTrackRelease(
                    name: "80 (8.0.9)", versionCodes: [VersionCode(rawValue: 80)].compactMap { $0 }, status: .completed),
            ])
    }

    /// Google Play's health of 8.0.10 from a week of days through the round's day: 8.0.9 at 0.5%,
    /// 8.0.10 at `rate`, 40,000 users a day each.
    static func health(rate: Double, at date: Date) throws -> ReleaseHealthReport {
        let last = HealthDate(of: date, countedBy: .googlePlay)
        var days: [HealthDay] = []
        for offset in 0..<7 {
            let day = last.adding(days: offset - 6)
            for (version, code, crash) in [("8.0.9", 80, 0.005), ("8.0.10", 81, rate)] {
                days.append(
                    try #require(
                        HealthDay(
                            date: day, version: try Version(parsing: version), versionCode: VersionCode(rawValue: code),
                            users: 40_000, crashedUsers: crash * 40_000, anrUsers: 0)))
            }
        }
        let play = StoreHealth.judge(
            VersionOrCode(try version), store: .googlePlay, source: .healthFile, days: days,
            criteria: try HealthCriteria())
        return ReleaseHealthReport(appStore: nil, googlePlay: play, version: try version)
    }

    /// The round's reading at `date`: the track, and the health when given.
    static func read(_ date: Date, fraction: Double?, health: ReleaseHealthReport? = nil) -> WatchRound.Reading {
        let reading = StoreReading(
            googlePlay: StoreReading.GooglePlay(track: track(fraction), packageName: "com.example.watch"),
            health: health)
        return WatchRound.Reading(snapshot: ReleaseSnapshot(reading, takenAt: date), health: health)
    }

    /// The stores as read for acting: Play's track at `fraction`.
    static func acting(_ fraction: Double?, status: PlayTrackRelease.Status = .inProgress) -> ActingReading {
        ActingReading(
            googlePlay: StoreReading.GooglePlay(
                track: track(fraction, status: status), packageName: "com.example.watch",
                tracks: [track(fraction, status: status)]))
    }

    /// `plan` as applied: every step done, read back, verified.
    static func applied(_ plan: ActingPlan) -> ActingPlan {
        var plan = plan
        plan.apply = true
        for index in plan.steps.indices { plan.steps[index].done = true }
        plan.verified = true
        return plan
    }

    static func machine(
        state: (snapshot: ReleaseSnapshot, memory: WatchMemory?)? = nil, acting: WatchRound.Acting = .none,
        rounds: Int? = 3, history: Bool = true, notifier: Bool = true
    ) -> WatchRound {
        WatchRound(
            state: state, acting: acting, rounds: rounds, interval: .seconds(60), maximumBackoff: .seconds(3600),
            hasHistory: history, hasNotifier: notifier)
    }

    // MARK: Driving

    /// An action in a few words, as a row names it.
    static func name(_ action: WatchRound.Action) -> String {
        switch action {
        case .sleep(let wait): "sleep \(wait.components.seconds)s"
        case .beginRound: "beginRound"
        case .read: "read"
        case .readForActing(let what, let version): "readForActing \(what) \(version)"
        case .apply(let plan): "apply \(plan.action) \(plan.steps.count) steps"
        case .appendHistory(let line, _): "appendHistory" + (line.rollout.map { " \($0.kind)" } ?? "")
        case .replaceState(let snapshot, _): "replaceState \(ISO8601Timestamp.string(from: snapshot.takenAt))"
        case .report(let progress): "report " + name(progress)
        case .deliver(let events): "deliver " + events.map(\.type).joined(separator: ",")
        case .endRound: "endRound"
        case .refuse: "refuse"
        case .finish(let outcome):
            "finish rounds=\(outcome.rounds) undelivered=\(outcome.undelivered) stopped=\(outcome.stopped) "
                + "failed=\(outcome.lastRoundFailed) owed=\(outcome.haltsOwed.count)"
        }
    }

    static func name(_ progress: ReleaseWatcher.Progress) -> String {
        switch progress {
        case .baseline: "baseline"
        case .events(let events): "events " + events.map(\.type).joined(separator: ",")
        case .delivered(let count): "delivered \(count)"
        case .deliveryFailed(_, let kept, let retryIn):
            "deliveryFailed kept \(kept) retry \(retryIn.components.seconds)s"
        case .storeFailed(_, let retryIn): "storeFailed retry \(retryIn.components.seconds)s"
        case .historyFailed: "historyFailed"
        case .halted(let plan): "halted \(plan.version)"
        case .haltFailed(let version, _): "haltFailed \(version)"
        case .rolledOut(let plan): "rolledOut \(plan.gate?.sentence ?? "-")"
        case .rolloutFailed(let version, _): "rolloutFailed \(version)"
        }
    }

    /// Answers the actions that need no data (a report told, a state kept, a line appended, a
    /// round ended, a wait over, a round begun at `now`) until one that does; every action on the
    /// way named in order, the one that stopped it last. `kept` collects what the state was given.
    static func drive(
        _ machine: inout WatchRound, _ first: WatchRound.Action, now: Date, kept: inout [WatchMemory]
    ) -> (names: [String], stopped: WatchRound.Action) {
        var names: [String] = []
        var action = first
        for _ in 0..<100 {
            names.append(name(action))
            switch action {
            case .report: action = machine.reported()
            case .replaceState(_, let memory):
                kept.append(memory)
                action = machine.stateReplaced()
            case .appendHistory: action = machine.historyAppended(lines: names.count)
            case .endRound: action = machine.roundEnded()
            case .sleep: action = machine.slept()
            case .beginRound: action = machine.roundBegan(at: now)
            case .read, .readForActing, .apply, .deliver, .refuse, .finish: return (names, action)
            }
        }
        Issue.record("the machine did not stop within 100 actions: \(names.suffix(5))")
        return (names, action)
    }

    // MARK: Rounds

    @Test func aFirstRoundRecordsABaselineThenAChangeIsReportedDeliveredAndKept() {
        var machine = Self.machine()
        var kept: [WatchMemory] = []
        var step = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        #expect(step.names == ["beginRound", "read"])
        let second = Self.start.addingTimeInterval(60)
        step = Self.drive(
            &machine, machine.storesRead(Self.read(Self.start, fraction: 0.01).snapshot, health: nil), now: second,
            kept: &kept)
        #expect(
            step.names == [
                "appendHistory", "replaceState 2024-12-06T08:00:00Z", "report baseline", "endRound", "sleep 60s",
                "beginRound", "read",
            ], "a baseline reports nothing and delivers nothing")
        step = Self.drive(
            &machine, machine.storesRead(Self.read(second, fraction: 0.02).snapshot, health: nil), now: second,
            kept: &kept)
        #expect(step.names == ["appendHistory", "report events playRolloutChanged", "deliver playRolloutChanged"])
        step = Self.drive(&machine, machine.delivered(), now: second, kept: &kept)
        #expect(
            step.names == [
                "report delivered 1", "replaceState 2024-12-06T08:01:00Z", "endRound", "sleep 60s", "beginRound",
                "read",
            ], "the state moves only once the webhook took the events")
    }

    @Test func aFailedDeliveryKeepsTheEventsOwedAndTheWaitDoubles() {
        let base = Self.read(Self.start, fraction: 0.01).snapshot
        var machine = Self.machine(state: (base, nil), rounds: 3)
        var kept: [WatchMemory] = []
        var step = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let later = Self.start.addingTimeInterval(60)
        step = Self.drive(
            &machine, machine.storesRead(Self.read(later, fraction: 0.02).snapshot, health: nil), now: later,
            kept: &kept)
        #expect(step.names.last == "deliver playRolloutChanged")
        step = Self.drive(
            &machine, machine.deliveryFailed(.status(503, origin: "https://hooks.example.com")), now: later, kept: &kept
        )
        #expect(
            step.names == ["report deliveryFailed kept 1 retry 120s", "endRound", "sleep 120s", "beginRound", "read"],
            "nothing kept, and the next round waits twice the interval")
        step = Self.drive(
            &machine, machine.storesRead(Self.read(later, fraction: 0.05).snapshot, health: nil), now: later,
            kept: &kept)
        guard case .deliver(let owed) = step.stopped else {
            Issue.record("no delivery: \(step.names)")
            return
        }
        #expect(owed.count == 2, "what was owed, then what is new")
        #expect(Set(owed.map(\.id)).count == 2)
        step = Self.drive(&machine, machine.delivered(), now: later, kept: &kept)
        #expect(step.names.contains("sleep 60s"), "a round that delivered waits the interval again")
        #expect(kept.isEmpty == false)
    }

    @Test func aStoreThatCannotBeReadChangesNothingAndTheLastRoundEndsTheWatch() {
        var machine = Self.machine(state: (Self.read(Self.start, fraction: 0.01).snapshot, nil), rounds: 2)
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let failure = ReleaseSourceError.play(.play(.exchange(.timedOut(after: .seconds(30)))))
        var step = Self.drive(&machine, machine.readFailed(failure), now: Self.start, kept: &kept)
        #expect(step.names == ["report storeFailed retry 120s", "endRound", "sleep 120s", "beginRound", "read"])
        step = Self.drive(&machine, machine.readFailed(failure), now: Self.start, kept: &kept)
        #expect(
            step.names == [
                "report storeFailed retry 240s", "endRound",
                "finish rounds=2 undelivered=0 stopped=false failed=true owed=0",
            ])
        #expect(kept.isEmpty, "a round that could not read a store keeps nothing")
    }

    @Test func aStateOfAnotherAppIsRefused() {
        var machine = Self.machine(state: (Self.read(Self.start, fraction: 0.01).snapshot, nil))
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let reading = StoreReading(
            googlePlay: StoreReading.GooglePlay(track: Self.track(0.01), packageName: "com.example.other"))
        let step = Self.drive(
            &machine, machine.storesRead(ReleaseSnapshot(reading, takenAt: Self.start), health: nil), now: Self.start,
            kept: &kept)
        #expect(step.names == ["refuse"])
    }

    // MARK: Halting

    @Test func aVerdictThatTurnsRegressedIsHaltedKeptAtOnceAndDelivered() throws {
        let healthy = Self.read(Self.start, fraction: 0.05, health: try Self.health(rate: 0.005, at: Self.start))
        var machine = Self.machine(
            state: (healthy.snapshot, nil), acting: WatchRound.Acting(haltsOnRegression: true, rollout: nil))
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let regressed = Self.read(Self.start, fraction: 0.05, health: try Self.health(rate: 0.03, at: Self.start))
        var step = Self.drive(
            &machine, machine.storesRead(regressed.snapshot, health: regressed.health), now: Self.start, kept: &kept)
        #expect(step.names == ["readForActing halt 8.0.10"])
        step = Self.drive(&machine, machine.actingRead(Self.acting(0.05)), now: Self.start, kept: &kept)
        guard case .apply(let plan) = step.stopped else {
            Issue.record("no halt applied: \(step.names)")
            return
        }
        #expect(plan.action == .halt && plan.steps.count == 1)
        var unverified = Self.applied(plan)
        unverified.verified = false
        step = Self.drive(&machine, machine.planApplied(unverified), now: Self.start, kept: &kept)
        #expect(
            step.names == [
                "report halted 8.0.10", "replaceState 2024-12-06T08:00:00Z", "appendHistory",
                "report events healthChanged,halted", "deliver healthChanged,halted",
            ])
        #expect(kept.last?.haltsOwed == [try Self.version], "a halt not verified is owed, kept before the delivery")
    }

    /// The kept snapshot of the acting tests: 8.0.10 at 5% on Play, healthy.
    static var healthy: WatchRound.Reading {
        get throws { read(start, fraction: 0.05, health: try health(rate: 0.005, at: start)) }
    }

    /// A run's round that reads 8.0.10 regressed, with what a plan to act needs from the same
    /// read: the actions up to the one that stopped the drive.
    static func regressedRound(
        _ machine: inout WatchRound, kept: inout [WatchMemory], at now: Date = start
    ) throws -> (names: [String], stopped: WatchRound.Action) {
        _ = drive(&machine, machine.start(), now: now, kept: &kept)
        let regressed = read(start, fraction: 0.05, health: try health(rate: 0.03, at: start))
        return drive(
            &machine, machine.storesRead(regressed.snapshot, health: regressed.health, forActing: acting(0.05)),
            now: now, kept: &kept)
    }

    /// A round whose own read covers the stores acted on plans its first act on it (no second
    /// read); once a write is sent, the next act of the round reads the stores again.
    @Test func aRoundPlansItsFirstActOnItsOwnReadAndReadsAgainAfterAWrite() throws {
        var machine = Self.machine(
            state: (try Self.healthy.snapshot, nil),
            acting: WatchRound.Acting(haltsOnRegression: true, rollout: RolloutGate()))
        var kept: [WatchMemory] = []
        var step = try Self.regressedRound(&machine, kept: &kept)
        guard case .apply(let plan) = step.stopped else {
            Issue.record("the halt was not planned on the round's read: \(step.names)")
            return
        }
        #expect(step.names == ["apply halt 1 steps"], "no read for acting before the halt")
        step = Self.drive(&machine, machine.planApplied(Self.applied(plan)), now: Self.start, kept: &kept)
        #expect(
            step.names == ["report halted 8.0.10", "readForActing advance 8.0.10"],
            "after the halt was written, the rollout reads the stores again")
    }

    /// A run's round that halts 8.0.10 (regressed), the halt applied: the events it then
    /// delivers, or `nil` (recorded as an issue) when it does not get that far.
    static func haltingRound(_ machine: inout WatchRound, kept: inout [WatchMemory]) throws -> [ReleaseEvent]? {
        var step = try regressedRound(&machine, kept: &kept)
        guard case .apply(let plan) = step.stopped else {
            Issue.record("no halt: \(step.names)")
            return nil
        }
        step = drive(&machine, machine.planApplied(applied(plan)), now: start, kept: &kept)
        guard case .deliver(let events) = step.stopped else {
            Issue.record("no delivery: \(step.names)")
            return nil
        }
        return events
    }

    /// A halt whose delivery fails in a run's last round is kept in the state, and the next run
    /// delivers it (the snapshot's own changes are counted again from the kept snapshot; an act
    /// is in no snapshot). Once delivered, the state keeps no act owed.
    @Test func anActTheWebhookDidNotTakeIsDeliveredByTheNextRun() throws {
        let healthy = try Self.healthy
        let halting = WatchRound.Acting(haltsOnRegression: true, rollout: nil)
        var machine = Self.machine(state: (healthy.snapshot, nil), acting: halting, rounds: 1)
        var kept: [WatchMemory] = []
        guard let first = try Self.haltingRound(&machine, kept: &kept) else { return }
        let halted = try #require(first.first { $0.type == "halted" })
        var step = Self.drive(
            &machine, machine.deliveryFailed(.status(503, origin: "https://hooks.example.com")), now: Self.start,
            kept: &kept)
        #expect(step.names.last?.hasPrefix("finish") == true, "the run's last round: \(step.names)")
        let memory = try #require(kept.last)
        #expect(memory.owedEvents.map(\.id) == [halted.id], "the halt is kept, the snapshot's changes are not")

        // The next run, from the state as kept: the halt is delivered first, as it was written.
        let later = Self.start.addingTimeInterval(600)
        var next = Self.machine(state: (healthy.snapshot, memory), acting: halting, rounds: 1)
        kept = []
        step = try Self.regressedRound(&next, kept: &kept, at: later)
        guard case .deliver(let again) = step.stopped else {
            Issue.record("no delivery: \(step.names)")
            return
        }
        #expect(again.first?.id == halted.id && again.first?.type == "halted", "\(again.map(\.id))")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(again.first) == encoder.encode(halted), "its JSON as it was written")
        #expect(again.first?.sentence == halted.sentence)
        #expect(Set(again.map(\.id)).count == again.count, "no id repeats")
        step = Self.drive(&next, next.delivered(), now: later, kept: &kept)
        #expect(kept.last?.owedEvents.isEmpty == true, "delivered, nothing is owed any more")
    }

    /// A delivery cut short by a signal keeps the round's acts in the state too, before the watch ends.
    @Test func anActWhoseDeliveryWasCutShortIsKeptForTheNextRun() throws {
        var machine = Self.machine(
            state: (try Self.healthy.snapshot, nil), acting: WatchRound.Acting(haltsOnRegression: true, rollout: nil))
        var kept: [WatchMemory] = []
        guard try Self.haltingRound(&machine, kept: &kept) != nil else { return }
        let step = Self.drive(&machine, machine.deliveryCancelled(), now: Self.start, kept: &kept)
        #expect(step.names.first?.hasPrefix("replaceState") == true && step.names.last?.hasPrefix("finish") == true)
        #expect(kept.last?.owedEvents.map(\.type) == ["halted"], "\(step.names)")
    }

    /// A run without a webhook tells the acts an earlier run owed where it tells its events, on
    /// the progress, and then owes nothing.
    @Test func aRunWithoutAWebhookTellsTheActsOwedOnItsProgress() throws {
        let healthy = try Self.healthy
        let halting = WatchRound.Acting(haltsOnRegression: true, rollout: nil)
        let halt = ReleaseEvent(
            .rolloutHeld(version: try Self.version, reasons: ["a step lasts 24 hours"]), at: Self.start)
        var memory = WatchMemory()
        memory.owedEvents = [try ReleaseEvent.Owed(halt)]
        var machine = Self.machine(state: (healthy.snapshot, memory), acting: halting, rounds: 1, notifier: false)
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let step = Self.drive(
            &machine, machine.storesRead(healthy.snapshot, health: healthy.health), now: Self.start, kept: &kept)
        #expect(step.names.contains("report events rolloutHeld"), "\(step.names)")
        #expect(kept.last?.owedEvents.isEmpty == true, "told, nothing is owed any more")
    }

    @Test func aCancellationMidHaltCutsTheRoundShort() throws {
        let healthy = Self.read(Self.start, fraction: 0.05, health: try Self.health(rate: 0.005, at: Self.start))
        var machine = Self.machine(
            state: (healthy.snapshot, nil), acting: WatchRound.Acting(haltsOnRegression: true, rollout: nil))
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let regressed = Self.read(Self.start, fraction: 0.05, health: try Self.health(rate: 0.03, at: Self.start))
        _ = Self.drive(
            &machine, machine.storesRead(regressed.snapshot, health: regressed.health), now: Self.start, kept: &kept)
        let step = Self.drive(&machine, machine.cancelled(), now: Self.start, kept: &kept)
        #expect(step.names == ["endRound", "finish rounds=1 undelivered=0 stopped=true failed=false owed=0"])
        #expect(kept.isEmpty)
    }

    // MARK: The rollout

    @Test func theRolloutHoldsAStepFirstSeenThenAdvancesItADayLaterAndTellsAHoldOnce() throws {
        let gate = RolloutGate(schedule: .apple)
        let base = Self.read(Self.start, fraction: 0.01).snapshot
        var machine = Self.machine(
            state: (base, nil), acting: WatchRound.Acting(haltsOnRegression: true, rollout: gate), rounds: 4)
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)

        // Round 1: the step at 1% is first seen now: the gate holds, and says so once.
        let first = Self.read(Self.start, fraction: 0.01, health: try Self.health(rate: 0.005, at: Self.start))
        var step = Self.drive(
            &machine, machine.storesRead(first.snapshot, health: first.health), now: Self.start, kept: &kept)
        #expect(step.names == ["readForActing advance 8.0.10"])
        let twoHours = Self.start.addingTimeInterval(2 * 3600)
        step = Self.drive(&machine, machine.actingRead(Self.acting(0.01)), now: twoHours, kept: &kept)
        #expect(
            step.names == [
                "report rolledOut hold at 1%", "replaceState 2024-12-06T08:00:00Z", "appendHistory hold",
                "report events rolloutHeld", "deliver rolloutHeld",
            ])
        #expect(kept.last?.rollout?.play == RolloutState.Step(fraction: 0.01, began: Self.start))
        step = Self.drive(&machine, machine.delivered(), now: twoHours, kept: &kept)

        // Round 2, two hours on: the same hold, its hours moved on: not told again.
        let second = Self.read(twoHours, fraction: 0.01, health: try Self.health(rate: 0.005, at: twoHours))
        step = Self.drive(
            &machine, machine.storesRead(second.snapshot, health: second.health), now: twoHours, kept: &kept)
        step = Self.drive(&machine, machine.actingRead(Self.acting(0.01)), now: twoHours, kept: &kept)
        #expect(!step.names.contains { $0.contains("rolloutHeld") }, "\(step.names)")
        #expect(step.names.contains("appendHistory hold"))

        // Round 3, a day and more on, its data through the day the step began: 1% → 2%, applied.
        let dayOn = Self.start.addingTimeInterval(26 * 3600)
        let third = Self.read(dayOn, fraction: 0.01, health: try Self.health(rate: 0.005, at: dayOn))
        step = Self.drive(&machine, machine.roundEnded(), now: dayOn, kept: &kept)
        step = Self.drive(&machine, machine.storesRead(third.snapshot, health: third.health), now: dayOn, kept: &kept)
        #expect(step.names.last == "readForActing advance 8.0.10")
        step = Self.drive(&machine, machine.actingRead(Self.acting(0.01)), now: dayOn, kept: &kept)
        guard case .apply(let plan) = step.stopped else {
            Issue.record("no advance applied: \(step.names)")
            return
        }
        #expect(plan.gate?.kind == .advance && plan.gate?.to == 0.02, "\(plan.gate?.reasons ?? [])")
        step = Self.drive(&machine, machine.planApplied(Self.applied(plan)), now: dayOn, kept: &kept)
        #expect(
            step.names == [
                "report rolledOut advance 1% → 2%", "replaceState 2024-12-06T10:00:00Z", "appendHistory advance",
                "report events rolloutAdvanced", "deliver rolloutAdvanced",
            ])
        #expect(kept.last?.rollout?.play == RolloutState.Step(fraction: 0.02, began: dayOn), "the new step begins now")
    }

    /// Once Play's release of the version is completed, a round does not read the stores for the
    /// rollout again (nothing is left to do without lockstep); with lockstep it still asks.
    @Test(arguments: [false, true])
    func aCompletedRolloutIsNotReadAgainUnlessInLockstep(_ lockstep: Bool) throws {
        let base = Self.read(Self.start, fraction: 0.5).snapshot
        var machine = Self.machine(
            state: (base, nil),
            acting: WatchRound.Acting(haltsOnRegression: true, rollout: RolloutGate(lockstep: lockstep)))
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let reading = StoreReading(
            googlePlay: StoreReading.GooglePlay(
                track: Self.track(nil, status: .completed), packageName: "com.example.watch"),
            health: try Self.health(rate: 0.005, at: Self.start))
        let step = Self.drive(
            &machine, machine.storesRead(ReleaseSnapshot(reading, takenAt: Self.start), health: reading.health),
            now: Self.start, kept: &kept)
        #expect(step.names.contains("readForActing advance 8.0.10") == lockstep, "\(step.names)")
    }

    @Test func aRolloutThatCannotReadTheStoresWritesNothingAndGoesOn() throws {
        let base = Self.read(Self.start, fraction: 0.01).snapshot
        var machine = Self.machine(
            state: (base, nil), acting: WatchRound.Acting(haltsOnRegression: true, rollout: RolloutGate()))
        var kept: [WatchMemory] = []
        _ = Self.drive(&machine, machine.start(), now: Self.start, kept: &kept)
        let first = Self.read(Self.start, fraction: 0.01, health: try Self.health(rate: 0.005, at: Self.start))
        _ = Self.drive(&machine, machine.storesRead(first.snapshot, health: first.health), now: Self.start, kept: &kept)
        let failure = ReleaseActorError.read(.googlePlay, .play(.play(.exchange(.timedOut(after: .seconds(30))))))
        let step = Self.drive(&machine, machine.actingFailed(failure), now: Self.start, kept: &kept)
        #expect(step.names.first == "report rolloutFailed 8.0.10", "\(step.names)")
        #expect(!step.names.contains { $0.hasPrefix("apply") })
        #expect(step.names.contains("appendHistory"), "the round is still recorded, without a decision")
    }

    @Test(arguments: [
        (
            ["the step began 2 hours ago; a step lasts 24 hours"],
            ["the step began 7.5 hours ago; a step lasts 24 hours"], true
        ),
        (
            ["Google Play: insufficientData (300 user-days of 1000)"],
            ["Google Play: insufficientData (900 user-days of 1000)"], true
        ),
        (
            ["the step began 2 hours ago; a step lasts 24 hours"],
            ["Play has changes in review: the rollout waits for them"], false
        ),
    ])
    func aHoldIsToldAgainOnlyWhenItsReasonsChange(_ before: [String], _ after: [String], _ same: Bool) {
        #expect((WatchRound.reasonKey(before) == WatchRound.reasonKey(after)) == same)
    }
}
