import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease parity (--lookup FILE[,FILE…] | (--id ID | --bundle-id ID) --countries CC[,CC…]) --play-track FILE`.
    static let parity = Command(
        name: "parity",
        synopsis:
            "parity (--lookup FILE[,FILE…] | (--id ID | --apple-id ID | --bundle-id ID) --countries CC[,CC…] "
            + "[--base-url URL]) --play-track FILE [--track NAME] [--format json|text] [--now ISO8601] "
            + "[--release-delay-hours H]",
        summary: "Reports whether the App Store storefronts and Google Play are on the same version.",
        discussion: """
            The App Store side comes from stored lookups (--lookup: API responses, or the output of
            'storerelease lookup') or from looking the app up now in each storefront (--id or
            --bundle-id with --countries, batched and rate-limited). The Play side is a track of
            the Play Developer API (edits.tracks: one track or the list), its fully rolled-out
            (completed) release compared, its inProgress release reported as the rollout.
            JSON (default) has: agree, laggingStorefronts, storefronts, appStoreVersion, playTrack,
            playVersion, playVersionCode, playRollout, ahead, aheadBy, forceUpdate (version, safe,
            reasons: live everywhere asked and older than the release delay, 24 hours by default).
            Exit status: 0 the stores agree; 1 they do not (or a lookup failed); 2 bad input.
            """,
        options: [
            .value("--lookup", "FILE[,FILE…]", "Stored lookups, one per storefront."),
            .value("--id", "ID", "Look this App Store id up now…"),
            .value("--apple-id", "ID", "The same as --id."),
            .value("--bundle-id", "ID", "…or this bundle id…"),
            .value("--countries", "CC[,CC…]", "…in these storefronts."),
            .value("--base-url", "URL", "The lookup API's base URL (http only on loopback)."),
            .value("--play-track", "FILE", "A Play Developer API track (edits.tracks) as JSON."),
            .value("--track", "NAME", "Which track of a track list to compare (default production)."),
            .value("--format", "json|text", "JSON for machines (default), a table for people."),
            .value("--now", "ISO8601", "The time to judge the release delay against (default: now)."),
            .value(
                "--release-delay-hours", "H", "How old a release must be before a forced update is safe (default 24)."),
        ],
        examples: [
            "storerelease parity --lookup Docs/Examples/payloads/appstore-wechat-us.json,"
                + "Docs/Examples/payloads/appstore-wechat-cn.json --play-track Docs/Examples/payloads/play-production.json "
                + "--format text",
            "storerelease parity --bundle-id com.tencent.xin --countries us,cn,jp --play-track Docs/Examples/payloads/play-production.json",
        ],
        run: { arguments throws(CLIError) in try await ParityCommand.run(arguments) }
    )
}

enum ParityCommand {
    static func run(_ arguments: ParsedArguments) async throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw .usage("parity: takes no arguments, only flags; got \(arguments.positionals[0].debugDescription)")
        }
        let format = arguments.value("--format") ?? "json"
        guard format == "json" || format == "text" else {
            throw .usage("parity: --format \(format.debugDescription) is not json or text")
        }
        guard let trackPath = arguments.value("--play-track") else {
            throw .usage("parity: --play-track FILE is required")
        }
        let track = try playTrack(trackPath, name: arguments.value("--track") ?? "production")
        let now = try arguments.date("--now", command: "parity") ?? Date()
        var delay = 24.0
        if let text = arguments.value("--release-delay-hours") {
            guard let hours = Double(text), hours.isFinite, hours >= 0 else {
                throw .usage("parity: --release-delay-hours \(text.debugDescription) is not a number of hours")
            }
            delay = hours
        }
        let releases = try await appStoreReleases(arguments)
        let report = CrossStoreReport(appStore: releases, play: track, releaseDelayHours: delay, now: now)
        if format == "text" {
            StandardStreams.print(report.text)
        } else {
            try JSONOutput.print(report)
        }
        return report.agree ? 0 : 1
    }

    static func playTrack(_ path: String, name: String) throws(CLIError) -> PlayTrack {
        let data = Data(try InputFile.text(path, command: "parity").utf8)
        let tracks = try JSONProblem.decoding("parity: --play-track \(path)", as: "not a Play track", in: data) {
            try PlayTrack.decodeTracks(from: data)
        }
        if tracks.count == 1 { return tracks[0] }
        guard let track = tracks.first(where: { $0.track == name }) else {
            throw .badInput(
                "parity: --play-track \(path) has no track \(name.debugDescription) (it has \(tracks.map(\.track).joined(separator: ", ")))"
            )
        }
        return track
    }

    static func appStoreReleases(_ arguments: ParsedArguments) async throws(CLIError) -> [StoreRelease] {
        guard arguments.value("--id") == nil || arguments.value("--apple-id") == nil else {
            throw .usage("parity: give --id or --apple-id, not both")
        }
        let appleIDs = try arguments.appStoreIDs("--apple-id", command: "parity")
        let ids = try arguments.appStoreIDs(command: "parity") ?? appleIDs
        let bundleID = arguments.value("--bundle-id")
        if let files = arguments.value("--lookup") {
            guard ids == nil, bundleID == nil, arguments.value("--countries") == nil else {
                throw .usage("parity: give --lookup, or --id/--bundle-id with --countries, not both")
            }
            var releases: [StoreRelease] = []
            for path in files.split(separator: ",").map(String.init) {
                releases += try storedReleases(path)
            }
            return releases
        }
        guard (ids == nil) != (bundleID == nil), let countries = try arguments.countries(command: "parity") else {
            throw .usage("parity: give --lookup FILE[,FILE…], or one of --id or --bundle-id with --countries")
        }
        guard ids?.count ?? 1 == 1 else { throw .usage("parity: --id takes one App Store id") }
        let baseURL = try arguments.baseURL(command: "parity")
        let client: AppStoreLookupClient
        do throws(AppStoreLookupError) {
            client = try AppStoreLookupClient(configuration: .init(baseURL: baseURL))
        } catch {
            throw .usage("parity: \(error)")
        }
        var releases: [StoreRelease] = []
        for country in countries {
            do throws(AppStoreLookupError) {
                if let id = ids?.first {
                    releases.append(try await client.lookup(id: id, country: country))
                } else if let bundleID {
                    releases.append(try await client.lookup(bundleID: bundleID, country: country))
                }
            } catch {
                if case .invalidRequest(let message) = error { throw .usage("parity: \(message)") }
                throw .failure("parity: \(error)")
            }
        }
        return releases
    }

    /// Releases from a stored lookup: `storerelease lookup`'s output, or an API response whose
    /// storefront is read from its `trackViewUrl` (`…/cn/app/…`).
    static func storedReleases(_ path: String) throws(CLIError) -> [StoreRelease] {
        let data = Data(try InputFile.text(path, command: "parity").utf8)
        if let releases = try? JSONDecoder().decode([StoreRelease].self, from: data) { return releases }
        let response = try JSONProblem.decoding("parity: --lookup \(path)", as: "not a lookup", in: data) {
            try JSONDecoder().decode(AppStoreLookupResponse.self, from: data)
        }
        var releases: [StoreRelease] = []
        for result in response.results {
            let code = result.trackViewUrl.flatMap(AppStoreLinks.trusted(trackViewUrl:))?.pathComponents.dropFirst()
                .first
            guard let code, let country = try? StorefrontCountry(code) else {
                throw .badInput(
                    "parity: --lookup \(path): cannot tell the storefront of \(result.trackName) (no country in its trackViewUrl); "
                        + "use the output of storerelease lookup --country")
            }
            releases.append(StoreRelease(result, country: country))
        }
        return releases
    }
}
