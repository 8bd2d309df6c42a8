import Dispatch
import Foundation
import StoreReleaseKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Command {
    /// `storerelease watch SOURCES --state FILE [--interval S] [--rounds N] [--notify URL] [--notify-format slack|json]`.
    static let watch = Command(
        name: "watch",
        synopsis:
            "watch [(--lookup FILE[,FILE…] | (--id ID | --bundle-id ID) --countries CC[,CC…]|all|sold) [--base-url URL]] "
            + "[--play-track FILE [--package PKG] | --package PKG [--track NAME]] [ASC] --state FILE [--interval S] [--rounds N] "
            + "[--notify URL | --notify-file FILE] [--notify-format slack|json]",
        summary: "Watches both stores and reports each change: rollouts, halts, review, phased days, storefronts.",
        discussion: """
            Each round takes a snapshot (what 'storerelease snapshot' prints), prints its events
            against the snapshot in --state FILE as JSON lines (as 'storerelease diff' does),
            POSTs them to --notify URL, then replaces FILE atomically (a temporary file, fsync,
            rename). The first round, without FILE, records a baseline and prints nothing. A
            delivery that fails leaves FILE as it was, so the next round delivers the same events
            again (same ids) with anything newer: at least once; receivers drop ids they have seen.
            A round that cannot read a store says so on stderr and changes nothing. After a failed
            round the wait doubles, up to six hours. SIGINT or SIGTERM ends the watch at once, exit
            0: a store read or a delivery in progress is cancelled, FILE stays at the last
            delivered snapshot, and the events it owed are delivered by the next watch of FILE.
            A delivery may take 15 s in all; a 2xx answer is a delivery, whatever its body (at
            most 64 KiB of it is read). FILE.lock keeps a second watcher off the same FILE.
            FILE must be a regular file (not a link or a FIFO), and a link planted at FILE.tmp or
            FILE.lock is refused, never followed. A --play-track file does not say whose track it
            is: give --package PKG beside it once FILE names a package.
            --notify takes https (or http to this machine); its path is a secret and is never
            printed; --notify-file FILE reads it from a file (one line), which keeps it out of the
            process list and the shell's history. --notify-format slack (default) posts {"text": …} for Slack's incoming
            webhooks; json posts the array of events.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 the rounds ran (or a signal stopped them); 1 the last round could not
            read a store, or events are still undelivered; 2 bad flags, a FILE that is not this
            app's snapshot (it is left as it is), or a FILE another watcher holds.
            """,
        options: sourceOptions + [
            .value("--state", "FILE", "The snapshot kept between rounds (created by the first round)."),
            .value("--interval", "S", "Seconds between rounds (default 300; 0 runs them back to back)."),
            .value("--rounds", "N", "Stop after N rounds, the first included (default: until stopped)."),
            .value("--notify", "URL", "A webhook to POST each round's events to: https, or http to this machine."),
            .value("--notify-file", "FILE", "The webhook's URL read from a file, so it is not in the process list."),
            .value("--notify-format", "slack|json", "{\"text\": …} for Slack (default), or the JSON array of events."),
        ] + AppStoreConnectOptions.specs,
        examples: [
            "storerelease watch --lookup Docs/Examples/payloads/appstore-wechat-cn.json --play-track "
                + "Docs/Examples/payloads/play-production.json --state /tmp/storerelease-watch-stored.json --rounds 1",
            "storerelease watch --id 414478124 --countries us,cn,jp --package com.example.rollout "
                + "--state /tmp/storerelease-watch.json --rounds 1 --notify https://hooks.slack.com/services/T000/B000/XXXX",
        ],
        run: { arguments throws(CLIError) in try await WatchCommand.run(arguments) }
    )

    /// `storerelease lag STATE [--format json|text]`.
    static let lag = Command(
        name: "lag",
        synopsis: "lag STATE [--format json|text]",
        summary: "Prints how long each version took to reach each storefront after App Store Connect approved it.",
        discussion: """
            STATE is a watch's --state file (or any snapshot). For each version the watch saw App
            Store Connect approve (in another state first, then ready for distribution): {version, readyAt, storefronts: {cc: seconds},
            medianSeconds, worstSeconds, missing: [cc…]}, oldest version first; missing are the
            storefronts still serving an older version. The times are when a round first saw
            each thing, so the resolution is the watch's interval: the number to set
            releaseDelayHours from.
            Exit status: 0 printed; 2 a file that is not a snapshot, or bad flags.
            """,
        options: [WatchCommand.lagFormat.spec],
        examples: ["storerelease lag Docs/Examples/payloads/watch-state.json --format text  # median"],
        run: { arguments throws(CLIError) in
            let name = "lag"
            let format = try arguments.value(WatchCommand.lagFormat) ?? .json
            guard arguments.positionals.count == 1 else {
                throw .usage("lag: needs one state file; got \(arguments.positionals.count)")
            }
            let path = arguments.positionals[0]
            let data = Data(try InputFile.text(path, command: name).utf8)
            let state = try JSONProblem.decoding("lag: \(path)", as: "not a snapshot", in: data) {
                try StrictJSON.decode(ReleaseSnapshot.self, from: data)
            }
            let report = PropagationLag.report(state)
            switch format {
            case .text:
                let lines = report.map(\.line)
                StandardStreams.print(
                    (lines.isEmpty ? ["no version was seen ready in App Store Connect"] : lines).joined(separator: "\n")
                        + "\n")
            case .json: try JSONOutput.print(report)
            }
            return 0
        }
    )
}

enum WatchCommand {
    static let name = "watch"

    static let lagFormat: Option<TextFormat> = CommonOptions.format(
        "A JSON array (default), or a line a version for people.")

    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        guard let path = arguments.value("--state") else {
            throw .usage("watch: --state FILE is required (the snapshot kept between rounds)")
        }
        guard !path.isEmpty else { throw .usage("watch: --state is empty: name the file the snapshot is kept in") }
        let interval = try arguments.seconds("--interval", command: name, default: .seconds(300), zeroAllowed: true)
        let rounds = try arguments.count("--rounds", command: name)
        let notifier = try notifier(arguments)
        let (appStore, play, connect) = try Command.sources(arguments, command: name)
        let stop = StopSignal()
        stop.install()
        let watcher = ReleaseWatcher(
            state: WatchStateFile(path: path), appStore: appStore, play: play, appStoreConnect: connect,
            notifier: notifier, interval: interval)
        // The rounds run in a task a signal cancels, which cuts short a request in flight.
        let watch = Task { () async -> Result<ReleaseWatcher.Outcome, WatchStateFile.Failure> in
            do throws(WatchStateFile.Failure) {
                return .success(
                    try await watcher.run(
                        rounds: rounds, isStopping: { stop.isSet },
                        progress: { progress in report(progress, path: path, notifier: notifier) }))
            } catch {
                return .failure(error)
            }
        }
        stop.cancels(watch)
        let outcome: ReleaseWatcher.Outcome
        do throws(WatchStateFile.Failure) {
            outcome = try await watch.value.get()
        } catch {
            switch error {
            case .notASnapshot, .otherApp, .notAFile, .locked: throw .badInput("watch: \(error)")
            case .io: throw .failure("watch: \(error)")
            }
        }
        if outcome.stopped {
            let owed = outcome.undelivered > 0 ? "; \(outcome.undelivered) events wait for the next watch of it" : ""
            StandardStreams.printError("watch: stopped after round \(outcome.rounds)\(owed)\n")
            return 0
        }
        if outcome.undelivered > 0 {
            StandardStreams.printError(
                "watch: \(outcome.undelivered) events are still undelivered; \(path) was not advanced, so the next "
                    + "watch of it delivers them\n")
        }
        return outcome.lastRoundFailed || outcome.undelivered > 0 ? 1 : 0
    }

    static func notifier(_ arguments: ParsedArguments) throws(CLIError) -> WebhookNotifier? {
        let formatText = arguments.value("--notify-format")
        let flag: String
        let text: String
        switch (arguments.value("--notify"), arguments.value("--notify-file")) {
        case (let url?, nil):
            (flag, text) = ("--notify", url)
        case (nil, let path?):
            flag = "--notify-file \(path)"
            text = try InputFile.text(path, command: name, maximumSize: 4 << 10)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, !text.contains(where: \.isNewline) else {
                throw .badInput("watch: --notify-file \(path.debugDescription) holds no URL, or more than one line")
            }
        case (.some, .some):
            throw .usage("watch: give --notify or --notify-file, not both")
        case (nil, nil):
            if formatText != nil { throw .usage("watch: --notify-format goes with --notify or --notify-file") }
            return nil
        }
        guard let format = WebhookNotifier.Format(rawValue: formatText ?? "slack") else {
            throw .usage("watch: --notify-format \((formatText ?? "").debugDescription) is not slack or json")
        }
        // Never the text itself in a message: the URL's path is the webhook's secret.
        guard let url = URL(string: text) else { throw .usage("watch: \(flag) is not a URL") }
        do throws(WebhookNotifier.URLProblem) {
            return try WebhookNotifier(url: url, format: format)
        } catch {
            throw .usage("watch: \(flag): \(error)")
        }
    }

    static func report(_ progress: ReleaseWatcher.Progress, path: String, notifier: WebhookNotifier?) {
        switch progress {
        case .baseline(let snapshot):
            StandardStreams.printError("watch: baseline recorded in \(path) at \(snapshot.takenAt)\n")
        case .events(let events):
            for event in events { try? JSONOutput.printLine(event) }
        case .delivered(let count):
            if let notifier { StandardStreams.printError("watch: delivered \(count) events to the \(notifier)\n") }
        case .deliveryFailed(let failure, let kept, let retryIn):
            StandardStreams.printError(
                "watch: could not deliver \(kept) events: \(failure); kept, \(path) not advanced; "
                    + "next round in \(ExchangeFailure.seconds(retryIn))\n")
        case .storeFailed(let error, let retryIn):
            StandardStreams.printError(
                "watch: \(CLIError.source(error, command: "a store").message); nothing changed; "
                    + "next round in \(ExchangeFailure.seconds(retryIn))\n")
        }
    }
}

/// SIGINT and SIGTERM, turned into a flag the watch reads between rounds and the cancellation of
/// the task running the rounds, which ends a sleep, a store read or a delivery at once.
///
/// `@unchecked`: the signal sources are only kept alive, written once by ``install()`` before
/// any other use; the flag is atomic and the task to cancel behind a mutex.
final class StopSignal: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    private let cancel = Mutex<(@Sendable () -> Void)?>(nil)
    private var sources: [any DispatchSourceSignal] = []

    /// Whether a signal came.
    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Catches both signals from now on.
    func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                if !flag.exchange(true, ordering: .acquiringAndReleasing) {
                    StandardStreams.printError(
                        "watch: stopping; a delivery in flight is cut short, its events kept for the next watch\n"
                    )
                    cancel.withLock { $0 }?()
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Cancels `task` when a signal comes, or now if one already came.
    func cancels<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) {
        cancel.withLock { $0 = { task.cancel() } }
        if isSet { task.cancel() }
    }
}
