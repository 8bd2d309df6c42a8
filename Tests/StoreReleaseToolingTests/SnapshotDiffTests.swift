import Foundation
import StoreReleaseCore
import Testing

@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The events between two snapshots: one row per event type, and the properties every diff has.
@Suite struct SnapshotDiffTests {
    typealias Snapshot = ReleaseSnapshot

    static func snapshot(
        at: String = "2021-02-04T00:00:00Z", storefronts: [String: String] = ["cn": "8.0.2"],
        play: [(Int, String, Double?, String?)] = [(80, "completed", nil, "RELEASE_LIFECYCLE_STATE_PUBLISHED")],
        live: (String, String)? = ("8.0.2", "READY_FOR_DISTRIBUTION"), phase: (String, Int)? = nil,
        pending: (String, String)? = nil, readySince: String? = nil, recoveries: [(String, String)]? = nil
    ) -> Snapshot {
        var snapshot = Snapshot(takenAt: Date(timeIntervalSince1970: 0), releases: nil, track: nil, status: nil)
        snapshot.takenAt = date(at)
        snapshot.appStore = .init(
            storefronts: Dictionary(
                uniqueKeysWithValues: storefronts.compactMap { code, version in
                    (try? StorefrontCountry(code)).map { ($0, .init(version: Version(version), releaseDate: nil)) }
                }))
        snapshot.googlePlay = .init(
            track: "production",
            releases: play.map {
                .init(
                    versionCode: VersionCode(rawValue: $0.0), name: Self.names[$0.0],
                    version: Self.names[$0.0].flatMap { Version($0) }, status: .init(rawValue: $0.1),
                    userFraction: $0.2, countries: nil, lifecycle: $0.3.map { .init(rawValue: $0) })
            })
        snapshot.appStoreConnect = AppStoreConnectStatus(
            appID: "1",
            live: live.map {
                .init(
                    version: $0.0, state: .init(rawValue: $0.1),
                    phasedRelease: phase.map { .init(state: .init(rawValue: $0.0), day: $0.1, percent: 0) },
                    removedFromSale: false)
            }, pending: pending.map { .init(version: $0.0, state: .init(rawValue: $0.1)) }, draft: nil)
        snapshot.playRecoveryActions = recoveries?.map { id, status in
            PlayRecoveryAction(
                appRecoveryID: id, status: .init(rawValue: "RECOVERY_STATUS_" + status),
                versionCodes: [VersionCode(rawValue: 79)].compactMap { $0 }, regions: nil, recoveredDevices: nil,
                totalDevices: nil)
        }
        if let readySince, let version = Version("8.0.10") {
            snapshot.firstSeen.appStoreConnect = [version: [.readyForDistribution: date(readySince)]]
        }
        return snapshot
    }

    /// The date an ISO 8601 text says (the epoch for another text).
    static func date(_ text: String) -> Date {
        ISO8601Timestamp.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    /// A version's text, or `nil`.
    static func text(_ version: Version?) -> String { version?.description ?? "nil" }

    /// The release names of the versionCodes the tests use, as Play Console writes them.
    static let names = [80: "8.0.2", 81: "8.0.10", 82: "8.1"]

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let old: Snapshot
        let new: Snapshot
        let expected: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "storefrontUpdated, with the lag since App Store Connect showed it ready",
            old: snapshot(), new: snapshot(storefronts: ["cn": "8.0.10"], readySince: "2021-02-02T17:00:00Z"),
            expected: [#"storefrontUpdated cn 8.0.2→8.0.10 lag 111600"#]),
        Row(
            name: "storefrontAdded", old: snapshot(), new: snapshot(storefronts: ["cn": "8.0.2", "jp": "8.0.2"]),
            expected: ["storefrontAdded jp 8.0.2"]),
        Row(
            name: "storefrontRemoved", old: snapshot(storefronts: ["cn": "8.0.2", "jp": "8.0.2"]), new: snapshot(),
            expected: ["storefrontRemoved jp 8.0.2"]),
        Row(
            name: "playReleaseAdded", old: snapshot(),
            new: snapshot(
                play: [(80, "completed", nil, nil), (81, "inProgress", 0.2, nil)].map {
                    ($0.0, $0.1, $0.2, $0.0 == 80 ? "RELEASE_LIFECYCLE_STATE_PUBLISHED" : $0.3)
                }),
            expected: ["playReleaseAdded 81 inProgress 0.2"]),
        Row(
            name: "playReleaseRemoved", old: snapshot(play: [(80, "completed", nil, nil), (81, "draft", nil, nil)]),
            new: snapshot(play: [(80, "completed", nil, nil)]), expected: ["playReleaseRemoved 81"]),
        Row(
            name: "playStatusChanged: halted when the next release is promoted",
            old: snapshot(play: [(81, "inProgress", 0.2, nil)]), new: snapshot(play: [(81, "halted", 0.2, nil)]),
            expected: ["playStatusChanged 81 inProgress→halted"]),
        Row(
            name: "playRolloutChanged", old: snapshot(play: [(81, "inProgress", 0.2, nil)]),
            new: snapshot(play: [(81, "inProgress", 0.5, nil)]), expected: ["playRolloutChanged 81 0.2→0.5"]),
        Row(
            name: "playReviewChanged",
            old: snapshot(play: [(81, "draft", nil, "RELEASE_LIFECYCLE_STATE_IN_REVIEW")]),
            new: snapshot(play: [(81, "draft", nil, "RELEASE_LIFECYCLE_STATE_PUBLISHED")]),
            expected: ["playReviewChanged 81 RELEASE_LIFECYCLE_STATE_IN_REVIEW→RELEASE_LIFECYCLE_STATE_PUBLISHED"]),
        Row(
            name: "ascStateChanged", old: snapshot(pending: ("8.0.10", "WAITING_FOR_REVIEW")),
            new: snapshot(pending: ("8.0.10", "IN_REVIEW")),
            expected: ["ascStateChanged 8.0.10 WAITING_FOR_REVIEW→IN_REVIEW"]),
        Row(
            name: "phasedReleaseChanged: paused on day 3", old: snapshot(phase: ("ACTIVE", 3)),
            new: snapshot(phase: ("PAUSED", 3)), expected: ["phasedReleaseChanged 8.0.2 ACTIVE@3→PAUSED@3"]),
        Row(
            name: "forceUpdateSafe: Play completes the rollout the App Store already serves",
            old: snapshot(
                storefronts: ["cn": "8.0.10"], play: [(81, "inProgress", 0.5, nil)],
                live: ("8.0.10", "READY_FOR_DISTRIBUTION")),
            new: snapshot(
                storefronts: ["cn": "8.0.10"], play: [(81, "completed", nil, nil)],
                live: ("8.0.10", "READY_FOR_DISTRIBUTION")),
            expected: [
                "playStatusChanged 81 inProgress→completed", "playRolloutChanged 81 0.5→nil", "forceUpdateSafe 8.0.10",
            ]),
        Row(
            name: "playRecoveryChanged: an action appears, is deployed, and another goes",
            old: snapshot(recoveries: [("900", "DRAFT"), ("12", "ACTIVE")]),
            new: snapshot(recoveries: [("900", "ACTIVE"), ("1000", "DRAFT")]),
            expected: [
                "playRecoveryChanged 12 79 ACTIVE→nil", "playRecoveryChanged 900 79 DRAFT→ACTIVE",
                "playRecoveryChanged 1000 79 nil→DRAFT",
            ]),
        Row(
            name: "playRecoveryChanged: none before one snapshot read App Recovery",
            old: snapshot(), new: snapshot(recoveries: [("900", "ACTIVE")]), expected: []),
    ]

    /// An event in a line a row can name.
    static func line(_ event: ReleaseEvent) -> String {
        func f(_ value: Double?) -> String { value.map { "\($0)" } ?? "nil" }
        switch event.change {
        case .storefrontUpdated(let c, let from, let to, let lag):
            return "storefrontUpdated \(c) \(text(from))→\(text(to))" + (lag.map { " lag \($0)" } ?? "")
        case .storefrontAdded(let c, let v): return "storefrontAdded \(c) \(text(v))"
        case .storefrontRemoved(let c, let v): return "storefrontRemoved \(c) \(text(v))"
        case .playReleaseAdded(let code, _, let status, let fraction):
            return "playReleaseAdded \(code?.rawValue ?? 0) \(status) \(f(fraction))"
        case .playReleaseRemoved(let code): return "playReleaseRemoved \(code?.rawValue ?? 0)"
        case .playStatusChanged(let code, let from, let to):
            return "playStatusChanged \(code?.rawValue ?? 0) \(from)→\(to)"
        case .playRolloutChanged(let code, let from, let to):
            return "playRolloutChanged \(code?.rawValue ?? 0) \(f(from))→\(f(to))"
        case .playReviewChanged(let code, let from, let to):
            return "playReviewChanged \(code?.rawValue ?? 0) \(from?.rawValue ?? "nil")→\(to?.rawValue ?? "nil")"
        case .ascStateChanged(let v, let from, let to):
            return "ascStateChanged \(v) \(from?.rawValue ?? "nil")→\(to?.rawValue ?? "nil")"
        case .phasedReleaseChanged(let v, let from, let to):
            return "phasedReleaseChanged \(v) \(from?.key ?? "nil")→\(to?.key ?? "nil")"
        case .forceUpdateSafe(let v): return "forceUpdateSafe \(v)"
        case .healthChanged(let store, let v, let from, let to):
            return "healthChanged \(store) \(v?.description ?? "nil") \(from?.rawValue ?? "nil")→\(to.rawValue)"
        case .playRecoveryChanged(let id, let codes, let from, let to):
            let targets = codes.map(\.description).joined(separator: ",")
            return "playRecoveryChanged \(id) \(targets) \(from?.shortName ?? "nil")→\(to?.shortName ?? "nil")"
        case .halted(let v, let store, let steps, _, _, _): return "halted \(v) \(store) \(steps.count)"
        case .rolloutAdvanced(let v, let store, let from, let to):
            return "rolloutAdvanced \(v) \(store) \(f(from))→\(to)"
        case .rolloutHeld(let v, let reasons): return "rolloutHeld \(v) \(reasons.count)"
        case .owed(let owed): return "owed \(owed.id)"
        }
    }

    @Test(arguments: rows)
    func eachEventType(_ row: Row) {
        let events = row.new.events(since: row.old)
        #expect(events.map(Self.line) == row.expected)
        #expect(events.allSatisfy { $0.at == row.new.takenAt })
    }

    /// A snapshot whose Play health judged `version` so.
    static func judged(_ version: String, _ verdict: HealthVerdict.Kind) -> Snapshot {
        var snapshot = snapshot()
        snapshot.health = .init(
            googlePlay: .init(
                source: .healthFile, version: Version(version), versionCode: nil, verdict: verdict, users: 21_000,
                crashRate: nil, anrRate: nil, reasons: []))
        return snapshot
    }

    @Test func aHaltIsDueTheRoundTheVerdictTurnsAndAgainOnlyWhileOwed() throws {
        func due(_ now: Snapshot, since before: Snapshot?, owed: Set<Version> = []) -> [String] {
            var memory = WatchMemory(recordedIn: before)
            memory.haltsOwed = owed
            return now.haltsDue(memory: memory).map { "\($0.0) \($0.1)" }
        }
        let regressed = Self.judged("8.0.10", .regressed)
        #expect(due(regressed, since: nil) == ["8.0.10 googlePlay"], "a new state file's first round counts")
        #expect(due(regressed, since: Self.judged("8.0.10", .insufficientData)) == ["8.0.10 googlePlay"])
        #expect(due(regressed, since: Self.judged("8.0.2", .regressed)) == ["8.0.10 googlePlay"], "another version")
        #expect(due(regressed, since: regressed).isEmpty, "it did not turn: a verified halt is not repeated")
        #expect(due(regressed, since: regressed, owed: [try Version(parsing: "8.0.10")]) == ["8.0.10 googlePlay"])
        #expect(due(Self.judged("8.0.10", .insufficientData), since: nil).isEmpty)
        #expect(due(Self.judged("8.0.10", .unknown), since: nil).isEmpty, "unknown is never a reason to act")
        #expect(due(Self.snapshot(), since: nil).isEmpty, "no health, no halt")
    }

    /// Issue 40 finding 5: one `unknown` round made the watch halt again a version a person had
    /// resumed. The memory keeps the last judged verdict through `unknown` rounds; only a judged
    /// verdict other than `regressed` ends it. (Failed with the verdict of the round before
    /// compared, as before: the regressed round after the unknown one was due.)
    @Test func anUnknownRoundIsNoJudgementAndAResumeStands() throws {
        let regressed = Self.judged("8.0.10", .regressed)
        var memory = WatchMemory(recordedIn: regressed)
        for _ in 0..<3 {
            memory.remember(Self.judged("8.0.10", .unknown).health)
            #expect(regressed.haltsDue(memory: memory).isEmpty, "the person's resume stands")
        }
        memory.remember(Self.snapshot().health)
        #expect(regressed.haltsDue(memory: memory).isEmpty, "a round without health judges nothing either")
        memory.haltsOwed = [try Version(parsing: "8.0.10")]
        memory.remember(Self.judged("8.0.10", .healthy).health)
        #expect(memory.haltsOwed.isEmpty, "a halt is not owed for a version judged healthy")
        #expect(regressed.haltsDue(memory: memory).map(\.0.description) == ["8.0.10"], "judged, then turned")
        // What the state file keeps, read back; and a state without it reads as nothing owed.
        let data = try JSONEncoder().encode(memory)
        #expect(try JSONDecoder().decode(WatchMemory.self, from: data) == memory)
        let unknown = Data(#"{"haltsOwed": [], "googlePlay": {"version": "8.0.10", "verdict": "unknown"}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WatchMemory.self, from: unknown) }
    }

    @Test func anEventsIdLeavesOutWhenAndTheLag() throws {
        let (cn, jp) = (try StorefrontCountry("cn"), try StorefrontCountry("jp"))
        let (one, two) = (Version("1"), Version("2"))
        let a = ReleaseEvent(.storefrontUpdated(country: cn, from: one, to: two, lagSeconds: 5), at: Self.date("x"))
        let b = ReleaseEvent(.storefrontUpdated(country: cn, from: one, to: two, lagSeconds: 9), at: Date())
        let c = ReleaseEvent(.storefrontUpdated(country: jp, from: one, to: two, lagSeconds: 5), at: Self.date("x"))
        #expect(a.id == b.id && a.id != c.id)
    }

    /// A snapshot's state as keys and values, to apply events to.
    static func summary(_ s: Snapshot) -> [String: String] {
        var out: [String: String] = [:]
        for (c, f) in s.appStore?.storefronts ?? [:] { out["as/\(c)"] = text(f.version) }
        for r in s.googlePlay?.releases ?? [] {
            let code = r.versionCode?.rawValue ?? 0
            out["gp/\(code)/status"] = r.status.rawValue
            out["gp/\(code)/fraction"] = r.userFraction.map { "\($0)" } ?? "nil"
            out["gp/\(code)/lifecycle"] = r.lifecycle?.rawValue ?? "nil"
        }
        for (v, state) in s.appStoreConnect?.states ?? [:] { out["asc/\(v)"] = state.rawValue }
        if let live = s.appStoreConnect?.live { out["phase/\(live.version)"] = live.phasedRelease?.key ?? "nil" }
        for action in s.playRecoveryActions ?? [] { out["rec/\(action.appRecoveryID)"] = action.status.rawValue }
        return out
    }

    /// `summary` with the events applied.
    static func apply(_ events: [ReleaseEvent], to start: [String: String], new: Snapshot) -> [String: String] {
        var out = start
        for event in events {
            switch event.change {
            case .storefrontUpdated(let c, _, let to, _): out["as/\(c)"] = text(to)
            case .storefrontAdded(let c, let v): out["as/\(c)"] = text(v)
            case .storefrontRemoved(let c, _): out["as/\(c)"] = nil
            case .playReleaseAdded(let code, _, let status, let fraction):
                out["gp/\(code?.rawValue ?? 0)/status"] = status.rawValue
                out["gp/\(code?.rawValue ?? 0)/fraction"] = fraction.map { "\($0)" } ?? "nil"
                // A new release's review state is part of its addition.
                out["gp/\(code?.rawValue ?? 0)/lifecycle"] =
                    new.googlePlay?.releases.first { $0.versionCode == code }?.lifecycle?.rawValue ?? "nil"
            case .playReleaseRemoved(let code):
                for key in ["status", "fraction", "lifecycle"] { out["gp/\(code?.rawValue ?? 0)/\(key)"] = nil }
            case .playStatusChanged(let code, _, let to): out["gp/\(code?.rawValue ?? 0)/status"] = to.rawValue
            case .playRolloutChanged(let code, _, let to):
                out["gp/\(code?.rawValue ?? 0)/fraction"] = to.map { "\($0)" } ?? "nil"
            case .playReviewChanged(let code, _, let to):
                out["gp/\(code?.rawValue ?? 0)/lifecycle"] = to?.rawValue ?? "nil"
            case .ascStateChanged(let v, _, let to): out["asc/\(v)"] = to?.rawValue
            case .phasedReleaseChanged(let v, _, let to): out["phase/\(v)"] = to?.key ?? "nil"
            case .playRecoveryChanged(let id, _, _, let to): out["rec/\(id)"] = to?.rawValue
            case .forceUpdateSafe, .healthChanged, .halted, .rolloutAdvanced, .rolloutHeld, .owed:
                break  // a verdict or an act, not a state
            }
        }
        return out
    }

    /// A random snapshot from a small palette, so pairs share and differ in every way.
    static func random(_ generator: inout some RandomNumberGenerator) -> Snapshot {
        let versions = ["8.0.2", "8.0.10", "8.1"]
        var storefronts: [String: String] = [:]
        for country in ["cn", "jp", "us"] where Bool.random(using: &generator) {
            storefronts[country] = versions.randomElement(using: &generator)
        }
        let play = [80, 81, 82].filter { _ in Bool.random(using: &generator) }.map { code in
            (
                code, ["completed", "inProgress", "halted", "draft"].randomElement(using: &generator) ?? "draft",
                [nil, 0.2, 0.5].randomElement(using: &generator) ?? nil,
                [nil, "RELEASE_LIFECYCLE_STATE_IN_REVIEW", "RELEASE_LIFECYCLE_STATE_PUBLISHED"].randomElement(
                    using: &generator) ?? nil
            )
        }
        let phase = [nil, ("ACTIVE", 3), ("PAUSED", 3), ("ACTIVE", 4)].randomElement(using: &generator) ?? nil
        let pending =
            [nil, ("8.1", "IN_REVIEW"), ("8.1", "WAITING_FOR_REVIEW")].randomElement(using: &generator) ?? nil
        let recoveries = [("900", "DRAFT"), ("900", "ACTIVE"), ("901", "CANCELED")].filter { _ in
            Bool.random(using: &generator)
        }
        return snapshot(
            storefronts: storefronts, play: play, phase: phase, pending: pending,
            recoveries: Dictionary(recoveries, uniquingKeysWith: { first, _ in first }).sorted { $0.key < $1.key })
    }

    @Test func aSnapshotAgainstItselfHasNoEventsAndEventsTakeOneSummaryToTheOther() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let a = Self.random(&generator)
            let b = Self.random(&generator)
            #expect(a.events(since: a).isEmpty)
            let events = b.events(since: a)
            #expect(Self.apply(events, to: Self.summary(a), new: b) == Self.summary(b), "\(events.map(Self.line))")
            #expect(Set(events.map(\.id)).count == events.count, "each change once")
        }
    }
}
