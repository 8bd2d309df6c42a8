import Foundation
import StoreReleaseKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Command {
    /// `storerelease wait [(--id ID | --bundle-id ID) --countries CC,…] [--package PKG [--track NAME]] (--version V | --version-code N) …`.
    static let wait = Command(
        name: "wait",
        synopsis:
            "wait [(--id ID | --bundle-id ID) --countries CC[,CC…] [--base-url URL]] [--package PKG [--track NAME] "
            + "[--play-base-url URL] [--play-token-file FILE]] [(--id ID | --bundle-id ID) ASC] "
            + "(--version V | --version-code N) [--until live|complete] [--interval S] [--timeout S]",
        summary: "Waits until a version is live (or, --until complete, out to every user) in every store asked.",
        discussion: """
            For release pipelines. The App Store side (--id or --bundle-id with --countries) asks
            each storefront still missing the version, with cache-busting lookups within the
            lookup rate limit; with --bundle-id, once the app is found its id is asked too. The
            Play side (--package) reads the track's edit-free release list, and once that shows a
            release carrying the version (in its name) or the versionCode published, the track
            itself through an edit that is deleted, never committed. With App Store Connect
            credentials (and --id or --bundle-id), App Store Connect is asked too.
            --until live (the default): Play serves the release to some users (in progress to a
            fraction, or completed; halted is not live) and App Store Connect has it ready for
            distribution. --until complete: the Play release is completed (every user of the
            track) and the phased release is complete, or there is none (phased-complete, the
            old spelling, still works). Rounds start every interval, growing by half each round
            (at most 10 minutes), until all is done or the timeout passes. Progress goes to
            stderr, saying what each store shows (rolling out on Google Play (production): 20%
            in us, ca): one updating line on a terminal, plain lines otherwise. A storefront that
            does not have the app yet counts as missing.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 done everywhere; 1 timed out (what is still missing is named), or
            stopped early on what waiting cannot fix (a refused token, no permission, an unknown
            package, an app no storefront has three rounds running); 2 bad input.
            """,
        options: [WaitOptions.table],
        // Each ends at once against the bundled fakes (python3 Scripts/fakes.py): the version
        // asked for is there.
        examples: [
            "storerelease wait --id 414478124 --countries cn --version 8.0.2 --timeout 7200  # 8.0.2 is live in cn",
            "storerelease wait --id 414478124 --countries cn --package com.example.rollout --version 8.0.2  "
                + "# fully rolled out on Google Play (production)",
            "storerelease wait --package com.example.rollout --version 8.0.10  "
                + "# rolling out on Google Play (production): 20%",
            "storerelease wait --package com.example.completed --version 8.0.2 --until complete --timeout 86400  "
                + "# 8.0.2 is fully rolled out",
        ],
        run: { arguments throws(CLIError) in try await WaitCommand.run(arguments) }
    )
}

enum WaitCommand {
    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let waiter = try WaitOptions(arguments).waiter()
        let terminal = isatty(2) == 1
        let last: ReleaseWaiter.Round
        do throws(ReleaseWaiterError) {
            last = try await waiter.run { round in
                StandardStreams.printError(terminal ? "\r\u{1B}[K\(round)" : "\(round)\n")
            }
        } catch {
            if terminal { StandardStreams.printError("\n") }
            throw CLIError(error, "wait")
        }
        if terminal { StandardStreams.printError("\n") }
        StandardStreams.print(last.summary + "\n")
        return 0
    }
}
