import StoreReleaseKit

/// The rollout gate's flags (`advance`, `replay`, `watch --rollout`), declared and read here only.
///
/// `--schedule P1,…,100` and `--step-hours H` make the ``RolloutSchedule`` (its rules are the
/// library's: a schedule that does not climb to 100, or 0 hours, is exit 2 naming the flag, before
/// anything is read); `--lockstep` keeps the two stores within a step.
enum RolloutOptions {
    static let schedule = Option<RolloutSteps>(
        "--schedule", "P1,…,100", "The steps in percent, increasing, ending at 100 (default 1,2,5,10,20,50,100).")
    static let stepHours = Option<Hours>(
        "--step-hours", "H", "How long a step lasts at least, in hours, decimals allowed (default 24).")
    static let lockstep = Switch(
        "--lockstep", "Keep Play within one step of the phased release; pause the phased release while it is ahead.")

    /// The flags, for a command's table, in the order its help lists them.
    static let table = OptionTable([schedule, stepHours, lockstep])

    /// The gate the flags describe (exit 2 naming what is wrong).
    static func gate(_ arguments: ParsedArguments) throws(CLIError) -> RolloutGate {
        RolloutGate(schedule: try schedule(arguments), lockstep: arguments.has(lockstep))
    }

    /// The gate's schedule from `--schedule` and `--step-hours`.
    private static func schedule(_ arguments: ParsedArguments) throws(CLIError) -> RolloutSchedule {
        let steps = try arguments.value(schedule)?.percentages ?? RolloutSchedule.apple.percentages
        let hours = try arguments.value(stepHours)?.hours ?? 24
        do throws(RolloutScheduleError) {
            return try RolloutSchedule(percentages: steps, stepHours: hours)
        } catch {
            let flag = if case .badStepHours = error { stepHours.name } else { schedule.name }
            throw .usage("\(arguments.command): \(flag): \(error); nothing was read or written")
        }
    }
}
