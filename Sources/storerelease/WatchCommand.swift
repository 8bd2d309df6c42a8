import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease watch SOURCES --state FILE [--interval S] [--rounds N] [--notify URL] [--notify-format slack|json]`.
    static let watch = Command(
        name: "watch",
        synopsis:
            "watch [(--lookup FILE[,FILE…] | (--id ID | --bundle-id ID) --countries CC[,CC…]|all|sold) [--base-url URL]] "
            + "[--play-track FILE [--package PKG] | --package PKG [--track NAME]] [ASC] --state FILE [--interval S] [--rounds N] "
            + "[--history FILE] [--notify URL | --notify-file FILE] [--notify-format slack|json] "
            + "[--health-file FILE | --health] [--halt-on regressed --confirm APP[,APP]] "
            + "[--rollout [--schedule P1,…,100] [--step-hours H] [--lockstep] --confirm APP[,APP]] [--quiet]",
        summary: "Watches both stores and reports each change: rollouts, halts, review, phased days, storefronts.",
        discussion: """
            Each round takes a snapshot (what 'storerelease snapshot' prints), prints its events
            against the snapshot in --state FILE as JSON lines (as 'storerelease diff' does),
            POSTs them to --notify URL, then replaces FILE atomically (a temporary file, fsync,
            rename). The first round, without FILE, records a baseline and prints nothing. A
            delivery that fails leaves FILE as it was, so the next round delivers the same events
            again (same ids) with anything newer: at least once; receivers drop ids they have seen.
            An id names one occurrence of a change: the change, then @ and the takenAt of the
            snapshot it is counted from (the last delivered one), then #2, #3… when the same
            change happens again before a delivery; a re-delivery, by this watch or the next
            watch of FILE, keeps it, and a later occurrence of the same change has another.
            A round that cannot read a store says so on stderr and changes nothing. After a failed
            round the wait doubles, up to six hours. SIGINT or SIGTERM ends the watch, exit 0:
            between rounds at once; the round in progress finishes if it can within 10 s (its
            events delivered, FILE advanced), else a store read or a delivery in progress is
            cancelled, FILE stays at the last delivered snapshot, and the events it owed are
            delivered by the next watch of FILE. Text from a store or a file printed on stderr has
            its control characters written out as visible text, never sent to the terminal.
            A delivery may take 15 s in all; a 2xx answer is a delivery, whatever its body (at
            most 64 KiB of it is read). FILE.lock keeps a second watcher off the same FILE.
            --history must be another file than FILE (compared as files: ./FILE or a link to it
            is refused).
            FILE must be a regular file (not a link or a FIFO), and a link planted at FILE.tmp or
            FILE.lock is refused, never followed. A --play-track file does not say whose track it
            is: give --package PKG beside it once FILE names a package.
            --notify takes https (or http to this machine); its path is a secret and is never
            printed; --notify-file FILE reads it from a file (one line), which keeps it out of the
            process list and the shell's history. --notify-format slack (default) posts {"text": …} for Slack's incoming
            webhooks; json posts the array of events.
            --history FILE appends each round that read the stores as one JSON line (takenAt,
            app, Play releases, App Store Connect's versions, storefronts per version, health),
            the picture 'storerelease timeline FILE' draws; past 10,000 lines the oldest rounds
            are folded, and a line torn by a kill is skipped when read.
            \(HealthSourceOptions.help(judging: HealthSourceOptions.releasing)) Each snapshot then
            records health, and a verdict that changes is a healthChanged event {version, from, to}
            of its store.
            --halt-on regressed --confirm APP[,APP] (opt-in; needs health sources) judges the same
            version and, the round a store's verdict of it turns regressed, applies 'storerelease halt VERSION' on every
            store given (Play for --package, App Store Connect for --id or --bundle-id with its
            credentials; --confirm names each, as halt's does), reads them back, and delivers a
            halted event {version, steps, verified, refusals, health} with the round's events. A
            halt not verified is owed: kept in FILE (its "watch" key), tried again each round and
            by the next watch of FILE while the verdict stays regressed, and the watch exits 1
            while one is owed. A verified one is not, so resuming by hand later is not overruled:
            the version is halted again only once a store has judged it something other than
            regressed (unknown is not a judgement) and it turns regressed again. With a live Play source,
            App Recovery's actions for the track's versionCodes are read each round too: one that
            appears, is deployed, canceled or goes is a playRecoveryChanged event {appRecoveryId,
            versionCodes, from, to}.
            --rollout --confirm APP[,APP] (opt-in; needs health sources on every store acted on;
            implies --halt-on regressed) runs the version's rollout each round with the gate of
            'storerelease advance' (--schedule, default 1,2,5,10,20,50,100; --step-hours H, default
            24; --lockstep): after the halts, the stores are read, the gate decides on them and the
            round's health (judged by the rollout's sequential rule, as advance judges it: its false
            halts stay bounded however many rounds look), and its step is applied and read back (Play's userFraction to the next
            step, completed at 100; with --lockstep the phased release paused while it is more than
            a step above Play's and resumed when it is not, only if the gate paused it). A halt
            decision writes nothing itself: --halt-on halts. Events: rolloutAdvanced {version,
            from, to} for a move read back, rolloutHeld {version, reasons} when the hold's reasons
            change (numbers aside), not every round. FILE keeps the step and when it began (its
            "rollout" key, the one 'advance --state' uses): a step first seen began then, so its
            first round holds. Each --history line carries the round's decision ("rollout").
            While the lookup limit holds a round back 10 s or more, a line on stderr says how long
            (again at least every 10 s); --quiet leaves it out.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 the rounds ran (or a signal stopped them); 1 the last round could not
            read a store, events are still undelivered, or a halt is owed; 2 bad flags, a FILE that
            is not this app's snapshot (it is left as it is), a FILE another watcher holds, or a
            --history that is FILE.
            """,
        options: [
            SourceOptions.snapshotTable, WatchCommand.state, WatchCommand.interval, WatchCommand.rounds,
            WatchCommand.history, NotifyOptions.table, AppStoreConnectOptions.table(), HealthSourceOptions.table,
            WatchActingOptions.table, CommonOptions.quiet,
        ],
        examples: [
            "storerelease watch --lookup Docs/Examples/payloads/appstore-wechat-cn.json --play-track "
                + "Docs/Examples/payloads/play-production.json --state /tmp/storerelease-watch-stored.json --rounds 1",
            "storerelease watch --id 414478124 --countries us,cn,jp --package com.example.rollout "
                + "--state /tmp/storerelease-watch.json --rounds 1 --notify https://hooks.slack.com/services/T000/B000/XXXX",
        ],
        run: { arguments throws(CLIError) in try await WatchCommand.run(arguments) }
    )
}

enum WatchCommand {
    static let state = Option<StateFilePath>(
        "--state", "FILE", "The snapshot kept between rounds (created by the first round).")
    static let interval = Option<SecondsOrZero>(
        "--interval", "S", "Seconds between rounds (default 300; 0 runs them back to back).")
    static let history = Option<HistoryFilePath>(
        "--history", "FILE", "Append one JSON line a round to FILE, for 'storerelease timeline' (bounded).")
    static let rounds = Option<Count>(
        "--rounds", "N", "Stop after N rounds, the first included (default: until stopped).")

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let path = try arguments.required(state, " (the snapshot kept between rounds)").path
        let interval = try arguments.value(interval)?.duration ?? .seconds(300)
        let rounds = try arguments.value(rounds)?.count
        let history = try arguments.value(history).map { ReleaseHistoryFile(path: $0.path) }
        let notify = try NotifyOptions(arguments)
        let options = try SourceOptions(arguments)
        let healthOptions = try HealthSourceOptions(arguments, rollout: WatchActingOptions.rollsOut(arguments))
        let acting = try WatchActingOptions(arguments, health: healthOptions)
        // The flags read, the files are opened and the clients built.
        // Compared as files: `./s.json` or a link to it is the state file too, and its lock the state's.
        if let history,
            FileIdentity.same(history.path, path) || FileIdentity.same(history.path + ".lock", path + ".lock")
        {
            throw .usage(
                OutsideText.terminal(
                    "watch: \(Self.history) \(history.path) and \(Self.state) \(path) are the same file: give the "
                        + "history a file of its own"))
        }
        if let history {
            do throws(ReleaseHistoryFileError) {
                try history.checkAppendable()
            } catch {
                throw .badInput(OutsideText.terminal("watch: \(Self.history) \(error); nothing was read or written"))
            }
        }
        let notifier = try notify.notifier()
        let (appStore, play, connect) = try options.snapshotSources()
        let health = try healthOptions.sources(for: options, through: nil)
        let sources = StoreSources(appStore: appStore, play: play, appStoreConnect: connect, health: health)
        let halts = try acting.halts(on: sources, options: options)
        // The lookup limit's waits (a round of many storefronts waits its turn) said on stderr.
        let line = ProgressLine.waits(
            of: appStore, command: "watch", lookupsPerMinute: options.appStore.lookupsPerMinute,
            quiet: arguments.has(CommonOptions.quiet))
        await line?.start()
        defer { line?.finish() }
        let stop = WatchStop(grace: stopGrace)
        let signals = StopSignal(stop)
        signals.install()
        defer { withExtendedLifetime(signals) {} }
        var watcher = ReleaseWatcher(
            state: WatchStateFile(path: path),
            sources: sources, notifier: notifier, interval: interval)
        watcher.history = history
        watcher.haltsOnRegression = halts
        watcher.rollout = acting.gate
        // The rounds run in a task the stop cancels: at once between rounds, after the grace mid-round.
        let watch = Task { () async -> Result<ReleaseWatcher.Outcome, WatchStateFileError> in
            do throws(WatchStateFileError) {
                return .success(
                    try await watcher.run(
                        rounds: rounds, stop: stop,
                        progress: { progress in progress.report(path: path, notifier: notifier) }))
            } catch {
                return .failure(error)
            }
        }
        stop.cancels(watch)
        let outcome: ReleaseWatcher.Outcome
        do throws(WatchStateFileError) {
            outcome = try await watch.value.get()
        } catch {
            throw CLIError(error.exit, OutsideText.terminal("watch: \(error)"))
        }
        StandardStreams.printError(outcome.summary(path: path))
        if outcome.stopped { return 0 }
        return outcome.lastRoundFailed || outcome.undelivered > 0 || !outcome.haltsOwed.isEmpty ? 1 : 0
    }

    /// How long the round in progress may go on after SIGINT or SIGTERM.
    static let stopGrace = Duration.seconds(10)

    /// Prints one line on stderr, `watch: ` in front, its text from outside made safe for a terminal.
    static func say(_ line: String) {
        StandardStreams.printError("watch: " + OutsideText.terminal(line) + "\n")
    }
}
