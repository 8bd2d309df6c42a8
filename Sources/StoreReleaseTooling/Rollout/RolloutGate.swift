import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The rule that runs a rollout on both stores: advance on a schedule while healthy, hold, halt.
///
/// Pure: both stores' state and health of the version, the schedule and when the current step
/// began, in; a ``RolloutDecision``, out. The first rule that matches wins:
///
/// 1. `halt` when either store's verdict of the version is `regressed` (shared code crashes on
///    both stores, so the App Store's health stops the Play rollout too);
/// 2. `done` when Play's release is completed (or there is no Play release: the phased release
///    climbs on Apple's clock);
/// 3. `hold` when a store's verdict is `insufficientData` or `unknown` (or no health was read
///    for it), the step began less than ``RolloutSchedule/stepHours`` ago, a store's data do not
///    yet include the day the step began (each store's own day and freshness), Play's release is
///    `halted` or the phased release `PAUSED` by someone other than the gate (a person's halt is
///    never overruled: `resume` lifts it), or Play has changes not yet reviewed; with
///    ``lockstep``, when the next step would put Play more than one step above the phased
///    release; when the next step is 100% and Google Play's data do not yet rule out a
///    regression of ``SequentialHealthRule/margin`` (``Health/clearsMargin``);
/// 4. `complete` when the next step is 100%;
/// 5. else `advance`: Play's `userFraction` to the next step above the current one.
///
/// With ``lockstep`` the phased release is paused while it is more than one step above Play's,
/// and resumed when it no longer is, only if the gate paused it (``RolloutDecision/phased``).
public struct RolloutGate: Sendable, Hashable {
    /// The steps and their length.
    public var schedule: RolloutSchedule
    /// Whether the two stores are kept within one step of each other.
    public var lockstep: Bool

    /// Makes a gate.
    public init(schedule: RolloutSchedule = .apple, lockstep: Bool = false) {
        self.schedule = schedule
        self.lockstep = lockstep
    }

    /// One store's health of the version, and the last day its data include.
    public struct Health: Sendable, Hashable {
        /// The verdict.
        public var verdict: HealthVerdict
        /// The newest day the store's data hold for the version; `nil` when none.
        public var through: HealthDate?
        /// What the verdict rests on, one sentence each.
        public var reasons: [String]
        /// Whether the data rule out a regression of ``SequentialHealthRule/margin`` beyond doubt.
        ///
        /// Google Play's must, before the gate completes the rollout
        /// (``SequentialHealthRule/clearsMargin(candidate:baseline:)``).
        public var clearsMargin: Bool

        /// Makes a store's health; `clearsMargin` says whether its data rule out a 1.5x regression.
        public init(verdict: HealthVerdict, through: HealthDate?, reasons: [String] = [], clearsMargin: Bool = true) {
            self.verdict = verdict
            self.through = through
            self.reasons = reasons
            self.clearsMargin = clearsMargin
        }

        /// A store's health as judged, its data through the candidate window's last day.
        ///
        /// ``clearsMargin`` says whether its windows rule out a regression of ``SequentialHealthRule/margin``.
        public init(_ health: StoreHealth) {
            verdict = health.verdict
            reasons = health.reasons
            clearsMargin = SequentialHealthRule.clearsMargin(candidate: health.candidate, baseline: health.baseline)
            through = health.candidate.flatMap { window in
                window.firstDay.map { $0.adding(days: max(window.ageDays - 1, 0)) }
            }
        }
    }

    /// What the gate judges.
    public struct Situation: Sendable, Hashable {
        /// Play's release of the version on the track (the one serving it), if any.
        public var play: PlayTrackRelease?
        /// Whether Play has changes not yet reviewed (an edit-free list saying `IN_REVIEW`).
        public var playChangesInReview: Bool
        /// The version's phased release on the App Store, if any.
        public var phased: PhasedRelease?
        /// Whether the phased release's pause is the gate's own (lockstep), not a person's.
        public var phasedPausedByGate: Bool
        /// Each store's health of the version; a store absent was not read.
        public var health: [Store: Health]
        /// When the current step began; `nil` when not known.
        ///
        /// Without it (no state) neither the step's age nor the data's freshness after it is
        /// judged, and a reason says so.
        public var stepBegan: Date?
        /// The time to judge against.
        public var now: Date

        /// Makes a situation.
        public init(
            play: PlayTrackRelease?, playChangesInReview: Bool = false, phased: PhasedRelease? = nil,
            phasedPausedByGate: Bool = false, health: [Store: Health], stepBegan: Date?, now: Date
        ) {
            self.play = play
            self.playChangesInReview = playChangesInReview
            self.phased = phased
            self.phasedPausedByGate = phasedPausedByGate
            self.health = health
            self.stepBegan = stepBegan
            self.now = now
        }
    }

    /// The decision for `situation`: see ``RolloutGate``.
    public func decide(_ situation: Situation) -> RolloutDecision {
        let from = situation.play.map(\.rolloutFraction)
        let stores = Self.stores.filter { situation.health[$0] != nil }
        let regressed = stores.compactMap { store -> String? in
            guard let health = situation.health[store], health.verdict.kind == .regressed else { return nil }
            let what = health.reasons.joined(separator: "; ")
            return "\(store.displayName): regressed" + (what.isEmpty ? "" : " (\(what))")
        }
        if !regressed.isEmpty {
            return RolloutDecision(kind: .halt, reasons: regressed, from: from, to: nil, phased: nil)
        }
        guard let play = situation.play, let current = from else {
            return RolloutDecision(
                kind: .done,
                reasons: ["no Play release to roll out: the App Store's phased release climbs on Apple's clock"],
                from: nil, to: nil, phased: nil)
        }
        let phasedMove = lockstepMove(situation, playFraction: current)
        if play.status == .completed {
            return RolloutDecision(
                kind: .done, reasons: ["Play's release \(play.label) is completed"], from: current, to: nil,
                phased: phasedMove)
        }
        var holds = healthHolds(situation)
        var notes: [String] = []
        if let began = situation.stepBegan {
            holds += stepHolds(situation, began: began)
        } else {
            notes.append(
                "when the current step began is not known (no state): its age and the data's freshness are not judged")
        }
        if play.status == .halted {
            holds.append("Play's release \(play.label) is halted (a person's or a watch's halt: resume lifts it)")
        } else if play.status != .inProgress {
            holds.append("Play's release \(play.label) is \(play.status): nothing rolls out")
        }
        if let phased = situation.phased, phased.state == .paused, !situation.phasedPausedByGate {
            holds.append("the App Store's phased release is PAUSED (a person's pause: resume lifts it)")
        }
        if situation.playChangesInReview { holds.append(Self.changesInReview) }
        let next = schedule.next(after: current) ?? 1
        if lockstep, let phased = situation.phased, phased.state != .complete {
            let phasedStep = schedule.stepIndex(of: Double(phased.percent) / 100)
            if schedule.stepIndex(of: next) > phasedStep + 1 {
                holds.append(
                    "lockstep: Play at \(RolloutSchedule.percent(next)) would be more than a step above the phased release's "
                        + "\(phased.percent)%")
            }
        }
        if next >= 1, situation.health[.googlePlay]?.clearsMargin == false {
            holds.append(
                "Google Play: its data do not yet rule out a regression of "
                    + "\(RolloutSchedule.number(SequentialHealthRule.margin))x against the version before: 100% waits for them"
            )
        }
        guard holds.isEmpty else {
            return RolloutDecision(kind: .hold, reasons: holds + notes, from: current, to: nil, phased: phasedMove)
        }
        let checked = stores.map { "\($0.displayName): healthy" } + notes
        // Lockstep judges the phased release against where Play goes this round, not where it was:
        // a step that brings Play within one step of it lifts the gate's pause now, not a round later.
        let to = next >= 1 ? 1 : next
        return RolloutDecision(
            kind: next >= 1 ? .complete : .advance, reasons: checked, from: current, to: to,
            phased: lockstepMove(situation, playFraction: to))
    }

    /// Holds for health: a store without health, `insufficientData` or `unknown`.
    private func healthHolds(_ situation: Situation) -> [String] {
        var holds: [String] = []
        if situation.health[.googlePlay] == nil { holds.append("Google Play: no health read") }
        if situation.phased != nil, situation.health[.appStore] == nil { holds.append("App Store: no health read") }
        for store in Self.stores {
            switch situation.health[store]?.verdict {
            case .insufficientData(let userDays, let minimum)? where userDays < minimum:
                holds.append("\(store.displayName): insufficientData (\(userDays) user-days of \(minimum))")
            case .insufficientData?:
                holds.append(
                    "\(store.displayName): insufficientData (its data lean towards a regression: held until they decide)"
                )
            case .unknown(let reason)?:
                holds.append("\(store.displayName): unknown (\(reason))")
            case .healthy?, .regressed?, nil:
                break
            }
        }
        return holds
    }

    /// Holds for the step: too young, or data that do not yet include the day it began.
    private func stepHolds(_ situation: Situation, began: Date) -> [String] {
        var holds: [String] = []
        let age = situation.now.timeIntervalSince(began)
        if age < schedule.stepDuration {
            holds.append(
                "the step began \(Self.hours(age)) hours ago; a step lasts \(Self.hours(schedule.stepDuration)) hours")
        }
        for store in Self.stores {
            guard let health = situation.health[store] else { continue }
            let day = HealthDate(of: began, countedBy: store)
            if let through = health.through, through >= day { continue }
            holds.append(
                "\(store.displayName): its data reach \(health.through?.description ?? "no day"), not yet \(day), the day the "
                    + "step began")
        }
        return holds
    }

    /// What lockstep asks of the phased release, given Play's fraction.
    private func lockstepMove(_ situation: Situation, playFraction: Double) -> RolloutDecision.PhasedMove? {
        guard lockstep, let phased = situation.phased, phased.state.isInProgress else { return nil }
        let ahead = schedule.stepIndex(of: Double(phased.percent) / 100) > schedule.stepIndex(of: playFraction) + 1
        if ahead, phased.state == .active { return .pause }
        if !ahead, phased.state == .paused, situation.phasedPausedByGate { return .resume }
        return nil
    }

    /// The reason a hold gives while Play has changes in review (a history's only record of them).
    static let changesInReview = "Play has changes in review: the rollout waits for them"

    /// The stores the gate reads, Google Play first.
    static let stores: [Store] = [.googlePlay, .appStore]

    static func hours(_ seconds: TimeInterval) -> String {
        RolloutSchedule.number((seconds / 360).rounded() / 10)
    }
}
