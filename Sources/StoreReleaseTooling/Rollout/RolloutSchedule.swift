import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The steps a rollout climbs, in percent of users, and how long each lasts at least.
///
/// The default is Apple's phased schedule, 1, 2, 5, 10, 20, 50 and 100%, a step a day: Play
/// never raises a staged rollout by itself ("won't increase automatically", Play Console help
/// 6346149), so the gate raises it on the same days Apple's clock does.
///
/// ```swift
/// let schedule = try RolloutSchedule(percentages: [1, 5, 20, 100], stepHours: 12)
/// print(schedule.next(after: 0.05) ?? 1)  // 0.2
/// ```
public struct RolloutSchedule: Sendable, Hashable {
    /// The steps in percent, increasing, the last 100.
    public let percentages: [Double]
    /// How long a step lasts at least, in hours.
    public let stepHours: Double

    /// Apple's phased release: 1, 2, 5, 10, 20, 50, 100%, 24 hours a step.
    public static let apple = RolloutSchedule(checked: PhasedRelease.schedule.map(Double.init), stepHours: 24)

    /// Makes a schedule.
    ///
    /// - Throws: ``RolloutScheduleError`` for steps that are not increasing percentages in
    ///   (0, 100] ending at 100, or hours that are not a positive finite number.
    public init(percentages: [Double], stepHours: Double = 24) throws(RolloutScheduleError) {
        guard let last = percentages.last, last == 100 else { throw .notEndingAt100(percentages) }
        for (index, value) in percentages.enumerated() {
            guard value.isFinite, value > 0, value <= 100 else { throw .notAPercentage(value) }
            if index > 0, value <= percentages[index - 1] { throw .notIncreasing(percentages) }
        }
        guard stepHours.isFinite, stepHours > 0 else { throw .badStepHours(stepHours) }
        self.init(checked: percentages, stepHours: stepHours)
    }

    private init(checked percentages: [Double], stepHours: Double) {
        self.percentages = percentages
        self.stepHours = stepHours
    }

    /// How long a step lasts at least.
    public var stepDuration: TimeInterval { stepHours * 3600 }

    /// The next step above `fraction` (Play's `userFraction`, 0…1), as a fraction; `nil` at 100%.
    public func next(after fraction: Double) -> Double? {
        percentages.first { $0 / 100 > fraction + 1e-9 }.map { $0 / 100 }
    }

    /// A number as people write it: `5`, `0.5`, `12.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A fraction as a percentage, to a tenth: `5%`, `0.5%`.
    static func percent(_ fraction: Double) -> String {
        number((fraction * 1000).rounded() / 10) + "%"
    }

    /// The index of the step `fraction` has reached: the highest step at or below it (-1 below the first).
    public func stepIndex(of fraction: Double) -> Int {
        (percentages.lastIndex { $0 / 100 <= fraction + 1e-9 }) ?? -1
    }
}

/// Why a schedule was refused.
public enum RolloutScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The steps do not end at 100.
    case notEndingAt100([Double])
    /// A step is not a percentage in (0, 100].
    case notAPercentage(Double)
    /// A step is not above the one before it.
    case notIncreasing([Double])
    /// The hours are zero, negative or not a number.
    case badStepHours(Double)

    /// What is wrong, naming the value.
    public var description: String {
        switch self {
        case .notEndingAt100(let steps):
            "the schedule \(Self.list(steps)) does not end at 100: a rollout must reach every user"
        case .notAPercentage(let value): "\(RolloutSchedule.number(value)) is not a percentage in (0, 100]"
        case .notIncreasing(let steps): "the schedule \(Self.list(steps)) does not increase step by step"
        case .badStepHours(let hours): "a step of \(RolloutSchedule.number(hours)) hours: it must be more than 0"
        }
    }

    static func list(_ steps: [Double]) -> String {
        steps.isEmpty ? "(empty)" : steps.map(RolloutSchedule.number).joined(separator: ",")
    }
}
