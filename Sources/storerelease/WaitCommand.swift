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
    /// `storerelease wait (--id ID | --bundle-id ID) --version V --countries CC[,CC…] …`.
    static let wait = Command(
        name: "wait",
        synopsis:
            "wait (--id ID | --bundle-id ID) --version V --countries CC[,CC…] [--interval S] [--timeout S] [--base-url URL]",
        summary: "Waits until every storefront asked serves a version (or newer).",
        discussion: """
            For release pipelines: asks each storefront still missing the version, every interval
            (growing by half each round, at most 10 minutes), within the lookup rate limit, until
            all serve it or the timeout passes. Progress goes to stderr: one updating line on a
            terminal, plain lines otherwise. A storefront that does not have the app yet counts
            as missing.
            Exit status: 0 live everywhere; 1 timed out (the storefronts still missing it are
            named); 2 bad input.
            """,
        options: [
            .value("--id", "ID", "The App Store id."),
            .value("--bundle-id", "ID", "The bundle id, instead of the App Store id."),
            .value("--version", "V", "The version to wait for; a newer one counts too."),
            .value("--countries", "CC[,CC…]", "The storefronts that must serve it."),
            .value("--interval", "S", "Seconds between rounds at first (default 60)."),
            .value("--timeout", "S", "Seconds to wait in all (default 3600)."),
            .value("--base-url", "URL", "The lookup API's base URL (http only on loopback)."),
        ],
        examples: ["storerelease wait --id 414478124 --version 8.0.10 --countries us,cn,jp --timeout 7200"],
        run: { arguments throws(CLIError) in try await WaitCommand.run(arguments) }
    )
}

enum WaitCommand {
    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw .usage("wait: takes no arguments, only flags; got \(arguments.positionals[0].debugDescription)")
        }
        let ids = try arguments.appStoreIDs(command: "wait")
        let bundleID = arguments.value("--bundle-id")
        guard (ids == nil) != (bundleID == nil), ids?.count ?? 1 == 1 else {
            throw .usage("wait: give one of --id ID or --bundle-id ID")
        }
        guard let wanted = try arguments.version("--version", command: "wait") else {
            throw .usage("wait: --version V is required")
        }
        guard let countries = try arguments.countries(command: "wait"), !countries.isEmpty else {
            throw .usage("wait: --countries CC[,CC…] is required")
        }
        var interval = try arguments.seconds("--interval", command: "wait", default: .seconds(60))
        let timeout = try arguments.seconds("--timeout", command: "wait", default: .seconds(3600))
        let baseURL = try arguments.baseURL(command: "wait")
        let client: AppStoreLookupClient
        do throws(AppStoreLookupError) {
            client = try AppStoreLookupClient(configuration: .init(baseURL: baseURL, bustsCaches: true))
        } catch {
            throw .usage("wait: \(error)")
        }
        let progress = Progress(terminal: isatty(2) == 1)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var missing = countries
        var round = 0
        while true {
            round += 1
            var stillMissing: [StorefrontCountry] = []
            for country in missing {
                do throws(AppStoreLookupError) {
                    let release =
                        if let id = ids?.first {
                            try await client.lookup(id: id, country: country)
                        } else {
                            try await client.lookup(bundleID: bundleID ?? "", country: country)
                        }
                    if let version = release.version, version >= wanted { continue }
                } catch {
                    if case .invalidRequest(let message) = error { throw .usage("wait: \(message)") }
                    if case .cancelled = error { throw .failure("wait: cancelled") }
                }
                stillMissing.append(country)
            }
            missing = stillMissing
            let live = countries.filter { !missing.contains($0) }.map(\.code)
            progress.report(
                "round \(round): \(wanted) live in \(live.isEmpty ? "none" : live.joined(separator: ", "))"
                    + (missing.isEmpty ? "" : "; waiting for \(missing.map(\.code).joined(separator: ", "))"))
            if missing.isEmpty {
                progress.finish()
                StandardStreams.print("\(wanted) is live in \(countries.map(\.code).joined(separator: ", "))\n")
                return 0
            }
            guard clock.now + interval < deadline else {
                progress.finish()
                throw .failure(
                    "wait: timed out: \(wanted) is not live in storefront \(missing.map(\.code).joined(separator: ", ")) yet"
                )
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                throw .failure("wait: cancelled")
            }
            interval = min(interval * 1.5, .seconds(600))
        }
    }

    /// Progress on stderr: rewritten in place on a terminal, one line each otherwise.
    struct Progress {
        let terminal: Bool

        func report(_ line: String) {
            StandardStreams.printError(terminal ? "\r\u{1B}[K" + line : line + "\n")
        }

        func finish() {
            if terminal { StandardStreams.printError("\n") }
        }
    }
}
