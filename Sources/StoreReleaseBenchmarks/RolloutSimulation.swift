import Foundation
import StoreReleaseKit

/// One generated app and its release N, drawn from a seed: how many daily users, N−1's true
/// crash rate, N's as a multiple of it, the ANR rate both share and the first day's early adopters.
///
/// What is drawn, per rollout (``init(users:multiplier:seed:)``):
/// - daily users: log-uniform in the band;
/// - N−1's true crash rate: uniform in 0.2–1%; N's is `multiplier` times it;
/// - the user-perceived ANR rate: uniform in 0.05–0.3%, the same for both versions (only the
///   crash rate regresses);
/// - the early adopters of a version's first day crash at the app's early factor (log-uniform in
///   0.7–1.5, the same kind of users adopt every version first) times a factor of the version's
///   own (uniform in 0.9–1.1) times its true rate.
struct RolloutApp: Sendable {
    let dailyUsers: Int
    let previousRate: Double
    let multiplier: Double
    let anrRate: Double
    let earlyFactor: Double
    let previousJitter: Double
    let candidateJitter: Double
    let seed: UInt64

    var candidateRate: Double { previousRate * multiplier }

    init(users band: ClosedRange<Double>, multiplier: Double, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        dailyUsers = Int(random.logUniform(band).rounded())
        previousRate = random.uniform(0.002...0.010)
        anrRate = random.uniform(0.0005...0.003)
        earlyFactor = random.logUniform(0.7...1.5)
        previousJitter = random.uniform(0.9...1.1)
        candidateJitter = random.uniform(0.9...1.1)
        self.multiplier = multiplier
        self.seed = seed
    }
}

/// A rule that runs a rollout: the gate, or a fixed rule that advances on the same schedule.
enum RolloutRule: Sendable, Hashable {
    /// How the gate's health judges each round's windows.
    enum Looks: Sendable, Hashable {
        /// ``SequentialHealthRule``: the rollout's rule, as `advance` and `replay` judge.
        case sequential
        /// ``HealthRule``'s one look at a time (`health`'s rule), each round on its own: the gate before.
        case single
    }

    /// ``RolloutGate`` over `StoreHealth.judge`, with the criteria's minimum user-days.
    case gate(minimumUserDays: Int, looks: Looks = .sequential)
    /// gpc's: halt when a day's crash rate is above the ceiling (Play's 1.09%).
    case ceiling(Double)
    /// Halt when a day's crash rate is more than this fraction above N−1's (no interval).
    case delta(Double)

    var name: String {
        switch self {
        case .gate(let minimum, .sequential): "gate (--min-users \(minimum))"
        case .gate(let minimum, .single): "one look a round, health's rule (--min-users \(minimum))"
        case .ceiling(let ceiling): "ceiling \(RolloutReport.percent(ceiling))"
        case .delta(let delta): "delta +\(Int((delta * 100).rounded()))%"
        }
    }
}

/// What a rule did with one rollout.
struct RolloutOutcome: Sendable, Hashable {
    /// The round (days after the 1% step began) the rule halted N; `nil`: never, within the run.
    let haltRound: Int?
    /// The round N reached 100%; `nil`: never, within the run.
    let completeRound: Int?
    /// N's user-days before the halt; `nil` when not halted.
    let exposedUserDays: Int?
    /// Why the gate halted: its health's reasons; `nil` for the fixed rules and when not halted.
    var haltNote: String? = nil
    /// What the gate's health found first when it halted; `nil` for the fixed rules and when not halted.
    var haltCause: HaltCause? = nil

    /// The regression a gate's halt rests on: a metric above N−1's interval or above the ceiling.
    enum HaltCause: String, Sendable, Hashable, CaseIterable {
        case crashAboveBaseline = "crash rate above N−1's"
        case anrAboveBaseline = "ANR rate above N−1's"
        case crashAboveCeiling = "crash rate above the ceiling"
        case anrAboveCeiling = "ANR rate above the ceiling"

        /// The cause of `verdict`'s first regression, if it regressed.
        init?(_ verdict: HealthVerdict) {
            guard case .regressed(let regressions) = verdict, let first = regressions.first else { return nil }
            switch first {
            case .aboveBaseline(.crash, _, _): self = .crashAboveBaseline
            case .aboveBaseline(.anr, _, _): self = .anrAboveBaseline
            case .aboveCeiling(.crash, _, _): self = .crashAboveCeiling
            case .aboveCeiling(.anr, _, _): self = .anrAboveCeiling
            }
        }
    }

    /// Halted before it reached 100% (a halt on the round that would complete it counts).
    var haltedBeforeComplete: Bool {
        guard let halt = haltRound else { return false }
        return completeRound.map { halt < $0 } ?? true
    }
}

/// The store, the clock and the data of a generated rollout, day by day.
///
/// Google Play only: Play's rollout is the one the gate raises (the App Store's phased release
/// climbs on Apple's clock). The release begins at 1% at 01:00 in Los Angeles (Play's day) on a
/// January day; a round runs every 24 hours at that hour. Play's daily data lag a day: the round
/// on day *k* sees days 0…*k*−1. On day *d* N has `dailyUsers × offered fraction × adoption(d)`
/// users, adoption(d) = 1 − e^(−(d+1)/2) (39% on the first day, 78% on the third, 95% on the
/// sixth); each day's crashed and ANR users are binomial draws. N−1's days are those of a release
/// that climbed the same schedule a step a day, so N's window has a baseline at the same age.
struct RolloutSimulation: Sendable {
    static let schedule = RolloutSchedule.apple
    /// 2026-01-05T09:00:00Z: 01:00 in Los Angeles (PST, no daylight-saving change near it).
    static let start = Date(timeIntervalSince1970: 1_767_603_600)
    /// How long a rule keeps judging N after it reached 100%.
    static let roundsAfterComplete = 14
    /// N−1's days from this one (0 the first) on are its mature days, at 100% for weeks: the
    /// delta rule's rate of N−1 is read over 30 of them.
    static let matureDay = 30

    let previous: Version
    let candidate: Version
    let previousCode: VersionCode
    let candidateCode: VersionCode
    /// The most rounds a rollout runs.
    let maximumRounds: Int

    init(maximumRounds: Int) throws {
        guard let previousCode = VersionCode(rawValue: 100), let candidateCode = VersionCode(rawValue: 101) else {
            throw RolloutBenchmarkError("the versionCodes 100 and 101 are not valid")
        }
        previous = try Version(parsing: "8.0.9")
        candidate = try Version(parsing: "8.1.0")
        (self.previousCode, self.candidateCode, self.maximumRounds) = (previousCode, candidateCode, maximumRounds)
    }

    /// The share of the offered users who run N on its day `day` (0 the first).
    static func adoption(day: Int) -> Double {
        1 - exp(-Double(day + 1) / 2)
    }

    /// Play's day of the round `round`.
    static func date(ofDay day: Int) -> HealthDate {
        HealthDate(of: start, countedBy: .googlePlay).adding(days: day)
    }

    /// N−1's first days (before N's), a step of the schedule a day.
    func previousDays(_ app: RolloutApp) throws -> [HealthDay] {
        var random = SplitMix64(seed: app.seed, -1)
        let steps = Self.schedule.percentages
        return try (0..<maximumRounds).map { index in
            let fraction = steps[min(index, steps.count - 1)] / 100
            let rate = app.previousRate * (index == 0 ? app.earlyFactor * app.previousJitter : 1)
            return try day(
                Self.date(ofDay: index - maximumRounds), previous, previousCode, app: app,
                users: Double(app.dailyUsers) * fraction * Self.adoption(day: index), rate: rate, random: &random)
        }
    }

    /// Runs `app`'s release N through `rule`, round by round, with `previousDays` as N−1's.
    ///
    /// The gate halts a good release of a store with a chance of at most `falseHaltsPerStore`
    /// (``HealthCriteria/falseHaltsPerStore``: the rule's unless `--false-halts` says otherwise).
    func run(
        _ app: RolloutApp, rule: RolloutRule, previousDays: [HealthDay],
        falseHaltsPerStore: Double = SequentialHealthRule.falseHaltsPerStore
    ) throws -> RolloutOutcome {
        let gate = RolloutGate(schedule: Self.schedule)
        var criteria: HealthCriteria?
        if case .gate(let minimum, let looks) = rule {
            do {
                criteria = try HealthCriteria(minimumUserDays: minimum, sequential: looks == .sequential)
                criteria?.falseHaltsPerStore = falseHaltsPerStore
            } catch {
                throw RolloutBenchmarkError("--min-users \(minimum): \(error)")
            }
        }
        let window = previousDays.dropFirst(Self.matureDay).prefix(30)
        let previousRate =
            window.reduce(0) { $0 + $1.crashedUsers } / Double(max(1, window.reduce(0) { $0 + $1.users }))
        var fraction = Self.schedule.percentages[0] / 100
        var stepBegan = Self.start
        var days: [HealthDay] = []
        var exposed = 0
        var completeRound: Int?
        for round in 1...maximumRounds {
            let index = round - 1
            var random = SplitMix64(seed: app.seed, index)
            let rate = app.candidateRate * (index == 0 ? app.earlyFactor * app.candidateJitter : 1)
            let today = try day(
                Self.date(ofDay: index), candidate, candidateCode, app: app,
                users: Double(app.dailyUsers) * fraction * Self.adoption(day: index), rate: rate, random: &random)
            days.append(today)
            exposed += today.users
            let now = Self.start.addingTimeInterval(Double(round) * 86_400)
            let halt: Bool
            var note: String?
            var cause: RolloutOutcome.HaltCause?
            switch rule {
            case .gate:
                guard let criteria else { throw RolloutBenchmarkError("the gate has no criteria") }
                let previous = previousDays.prefix(days.count)
                let health = StoreHealth.judge(
                    VersionOrCode(candidate), store: .googlePlay, source: .playDeveloperReporting,
                    days: Array(previous) + days,
                    criteria: criteria)
                let decision = gate.decide(
                    RolloutGate.Situation(
                        play: release(fraction), health: [.googlePlay: RolloutGate.Health(health)],
                        stepBegan: stepBegan, now: now))
                switch decision.kind {
                case .halt:
                    halt = true
                    note = health.reasons.joined(separator: "; ")
                    cause = RolloutOutcome.HaltCause(health.verdict)
                case .advance, .complete:
                    halt = false
                    fraction = decision.to ?? 1
                    stepBegan = now
                case .hold, .done: halt = false
                }
            case .ceiling(let ceiling):
                halt = today.users > 0 && today.crashedUsers / Double(today.users) > ceiling
                if !halt { fraction = Self.schedule.next(after: fraction) ?? 1 }
            case .delta(let delta):
                halt = today.users > 0 && today.crashedUsers / Double(today.users) > previousRate * (1 + delta)
                if !halt { fraction = Self.schedule.next(after: fraction) ?? 1 }
            }
            if halt {
                return RolloutOutcome(
                    haltRound: round, completeRound: completeRound, exposedUserDays: exposed, haltNote: note,
                    haltCause: cause)
            }
            if completeRound == nil, fraction >= 1 { completeRound = round }
            if let completeRound, round >= completeRound + Self.roundsAfterComplete { break }
        }
        return RolloutOutcome(haltRound: nil, completeRound: completeRound, exposedUserDays: nil)
    }

    /// Play's release of N at `fraction` (completed at 1).
    private func release(_ fraction: Double) -> PlayTrackRelease {
        PlayTrackRelease(
            name: "101 (8.1.0)", versionCodes: [candidateCode], status: fraction >= 1 ? .completed : .inProgress,
            userFraction: fraction >= 1 ? nil : fraction)
    }

    /// A day of `version`: `users` rounded, its crashed and ANR users drawn.
    private func day(
        _ date: HealthDate, _ version: Version, _ code: VersionCode, app: RolloutApp, users: Double, rate: Double,
        random: inout SplitMix64
    ) throws -> HealthDay {
        let count = Int(users.rounded())
        let crashed = random.binomial(count, min(rate, 1))
        let anr = random.binomial(count, app.anrRate)
        guard
            let day = HealthDay(
                date: date, version: version, versionCode: code, users: count, crashedUsers: Double(crashed),
                anrUsers: Double(anr))
        else { throw RolloutBenchmarkError("an impossible day: \(count) users, \(crashed) crashed, \(anr) ANR") }
        return day
    }
}

/// A rollout the benchmark could not generate or run, saying why.
struct RolloutBenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
