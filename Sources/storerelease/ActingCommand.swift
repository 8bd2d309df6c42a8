import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease halt VERSION SOURCES [--apply --confirm APP[,APP]]`.
    static let halt = acting(
        .halt, example: "com.example.rollout --format text  # inProgress → halted, nothing written",
        summary:
            "Halts a version on both stores: Play's release inProgress → halted, the phased release ACTIVE → PAUSED.",
        what: """
            halt: the Play release serving VERSION on --track (in progress, never a draft of the
            same name) inProgress → halted (its userFraction kept), its App Store phased release
            ACTIVE → PAUSED. Refused (exit 1): a completed Play release (Play halts one since 2025
            from the Play Console, Manage rollout > Halt rollout, but publishes no API request for
            it: the refusal says so), or one that is the last release serving its track (Play
            answers 500 at commit).
            """)
    /// `storerelease resume VERSION SOURCES [--apply --confirm APP[,APP]]`.
    static let resume = acting(
        .resume, example: "com.example.halted --format text  # halted → inProgress",
        summary:
            "Resumes a halted version: Play halted → inProgress (same fraction), the phased release PAUSED → ACTIVE.",
        what: """
            resume: halted → inProgress with the same userFraction, PAUSED → ACTIVE. Refused (exit 1):
            another staged release on the track (Play keeps one), a phased release paused for 30
            days or more (Apple's limit; complete it instead).
            """)
    /// `storerelease complete VERSION SOURCES [--apply --confirm APP[,APP]]`.
    static let complete = acting(
        .complete, example: "com.example.rollout --format text  # inProgress → completed",
        summary: "Completes a version's rollout: Play → completed, the phased release → COMPLETE.",
        what: """
            complete: the Play release inProgress (or halted) → completed, its userFraction dropped,
            in place of the track's earlier completed release (Play keeps one a track); the phased
            release ACTIVE or PAUSED → COMPLETE.
            """)
    /// `storerelease recall VERSION SOURCES [--manifest FILE] [--regions CC,…] [--apply --confirm APP]`.
    static let recall = acting(
        .recall, example: "com.example.recall --format text  # RECOVERY_STATUS_DRAFT → RECOVERY_STATUS_ACTIVE",
        summary: "Makes users on a version update: the manifest blocks it, Play's App Recovery prompts them.",
        what: """
            recall: the v2 manifest --manifest FILE gains VERSION in blockedVersions (written
            atomically through a link to the file it names, its mode, user and group and its other
            keys kept, under FILE.lock, and only if it still holds what was read: else refused,
            naming the change); Play: an App Recovery action (remote in-app update for
            VERSION's versionCodes, all users or --regions, compared as a set) created, then deployed. Refused (exit 1)
            unless a newer version is published on every Play track holding VERSION's versionCode
            and the manifest's latestVersion is newer than VERSION. A manifest that is not version 2:
            exit 2, untouched.
            """)

    private static func acting(_ action: ReleaseAction, example: String, summary: String, what: String) -> Command {
        let recall = action == .recall
        let extra = recall ? " [--manifest FILE] [--regions CC,…]" : ""
        // What --apply writes: recall sends no phased-release PATCH and no edit.
        let writes =
            recall
            ? "the manifest is written (atomically) and Play's App Recovery action created, then deployed "
                + "(App Store Connect is not written)"
            : "Play is written through one edit (the track updated with every other release as read, then "
                + "committed; deleted on any failure, never half-committed) and App Store Connect through the "
                + "phased-release PATCH"
        return Command(
            name: action.rawValue,
            synopsis:
                "\(action.rawValue) VERSION SOURCES\(extra) [--apply --confirm APP[,APP]] [--format json|text|markdown]",
            summary: summary,
            discussion: """
                \(what)
                SOURCES: the live flags of parity: Google Play --package PKG [--track NAME] with the
                Play token (--play-token-file FILE or $\(PlayOptions.tokenVariable)); App Store Connect
                --id ID (or --bundle-id) with its credentials. \(AppStoreConnectOptions.help)
                Both stores are read first (Play through an edit that is deleted) and the plan is
                printed: {"action", "version", "apply", "steps": [{"store", "from", "to", "request":
                {"method", "path", "body"}, "done", "error"}], "verified"}. Without --apply nothing is
                written. --apply needs --confirm naming the package name and the App Store id of every
                store acted on; then \(writes), and the stores are read again: verified. Each
                write is sent once: one that fails or is not answered in time (--timeout) is never
                sent again; the store is read back and the step says what it shows (done, not done, or
                unknown). A version already in the target state has no step (exit 0), so a retried job
                is safe.
                Exit status: 0 planned, or applied and verified; 1 refused (the reasons on stderr,
                nothing written on either store), a store refused a step (the steps done and not done
                are named), or no store carries VERSION (what each has is named); 2 bad flags,
                --apply without a --confirm naming every app acted on (nothing written).
                """,
            options: [
                ActingOptions.table, ActingOptions.storesTable, AppStoreConnectOptions.table(),
                recall ? ActingOptions.recallTable : OptionTable.none,
            ],
            examples: ["storerelease \(action.rawValue) 8.0.10 --package \(example)"],
            run: { arguments throws(CLIError) in try await ActingCommand.run(action, arguments) })
    }
}

enum ActingCommand {
    static func run(_ action: ReleaseAction, _ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        let command = arguments.command
        let options = try ActingOptions(arguments, action: action)
        let sources = try SourceOptions(arguments)
        let actor = try sources.releaseActor(
            manifestPath: options.manifestPath, timeout: options.timeout, command: command)
        let reading: ActingReading
        do throws(ReleaseActorError) {
            reading = try await actor.read(for: action, version: options.version)
        } catch {
            throw CLIError(error, command)
        }
        if let missing = ActingPlan.whereMissing(options.version, in: reading) {
            throw .failure("\(command): \(missing)")
        }
        var plan = ActingPlan(action, version: options.version, reading: reading, regions: options.regions)
        if options.apply, plan.refusals.isEmpty {
            try ActingOptions.requireConfirmation(
                of: plan.storesActedOn, actor: actor, appID: reading.appStoreConnect?.status.appID,
                confirmed: options.confirmed, command: command)
            plan = await actor.apply(plan, regions: options.regions)
        }
        try JSONOutput.print(plan, as: options.format, text: plan.text, markdown: plan.markdown)
        for refusal in plan.refusals {
            StandardStreams.printError("\(command): refused: \(OutsideText.terminal(refusal))\n")
        }
        if !plan.refusals.isEmpty { return 1 }
        if plan.apply, plan.verified != true {
            StandardStreams.printError(plan.account(command: command))
            return 1
        }
        return 0
    }
}
