import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease decide --installed V (--lookup FILE | --play FILE | --manifest FILE) …`.
    static let decide = Command(
        name: "decide",
        synopsis:
            "decide --installed V (--lookup FILE | --play FILE | --manifest FILE) [--policy FILE] [--os-version V] "
            + "[--now ISO8601] [--skipped-version V] [--last-prompted ISO8601] [--reminded-version V] "
            + "[--install-channel appStore|testFlight|sandbox|debug] [--install-id ID] [--type-in-progress flexible|immediate]",
        summary: "Decides what the app should do about a release and prints one JSON decision.",
        discussion: """
            --lookup takes an App Store lookup response (as the API sends it) or the output of
            'storerelease lookup' (one release). A response whose description carries
            [:mav: V] (upgrader's tag) sets the minimum supported version to V: below it the
            decision is immediate/belowMinimumSupported; the policy's own minimum wins when
            higher. --manifest takes a self-hosted release manifest (keys: latestVersion,
            minimumSupportedVersion, releaseDate, releaseNotes, storeURL, minimumOSVersion,
            inReview; inReview true means no prompt; with "schemaVersion": 2 also
            blockedVersions [V…] (installed exactly one: immediate/blockedVersion), rollout
            {percent, startedAt} (an install whose bucket of --install-id ID is at or above the
            percent, or without an id below 100%: none/notInRollout), versionNames {"81":
            "8.0.10"}). --play with --manifest: the manifest's versionNames name the installed
            and available versionCodes, so forceUpdateOn, promptOn and the remind interval per
            change work on Play. --play takes a Play
            AppUpdateInfo as JSON (keys: packageName, availableVersionCode, updateAvailability,
            installStatus; optional updatePriority, clientVersionStalenessDays, bytesDownloaded,
            totalBytesToDownload, installErrorCode, allowedUpdateTypes, failedUpdatePreconditions
            ({"flexible": [names], "immediate": [names]}), allowedUpdateTypesWithAssetPackDeletion;
            constants as Play's integers or names), and then --installed is the installed
            versionCode; --type-in-progress says which flow the app started, since Play's record
            does not: a flexible download in progress is none/updateInProgress (its listener
            reports progress), immediate or unknown is resumeImmediate. FILE '-' reads stdin.
            --policy takes the policy JSON; absent keys take their defaults: forceUpdateOn
            ("none"; or "major", "minor", "patch": that change or a bigger one is immediate),
            minimumSupportedVersion (none; below it is immediate), releaseDelayHours (24),
            remindAfterHours (24; or {"major": H, "minor": H, "patch": H}), immediatePriority (4),
            flexibleStalenessDays (0), immediateStalenessDays (none), promptOn (none; "major",
            "minor", "patch": a smaller change never prompts, changeTooSmall), onlyForced (false;
            true: only immediate updates prompt, notForced). An unknown key is an error.
            --reminded-version V is the version "later" was said to: a newer store version ends
            the reminder. --install-channel testFlight, sandbox or debug never prompts
            (notFromTheStore).
            The decision has: action (none, flexible, immediate, completeUpdate,
            resumeImmediate), reason (the first rule that matched), installedVersion,
            storeVersion, storeURL, releaseNotes, warnings (what was ignored: a malformed
            [:mav: V] tag), failedPreconditions (Play's names for the
            decision's update type, [] when none) and allowAssetPackDeletion (true: start the flow
            with setAllowAssetPackDeletion(true); Play allows the type only that way).
            Exit status: 0 decided; 2 a bad flag, version, date, file or JSON (named).
            """,
        options: [
            .value("--installed", "V", "The installed version (Play: the installed versionCode)."),
            .value("--lookup", "FILE", "An App Store lookup response, or the output of storerelease lookup."),
            .value("--play", "FILE", "A Play AppUpdateInfo as JSON."),
            .value(
                "--manifest", "FILE",
                "A self-hosted release manifest (latestVersion, minimumSupportedVersion, inReview, …)."),
            .value("--policy", "FILE", "The policy JSON; absent keys take their defaults."),
            .value("--os-version", "V", "The device's OS version, checked against the release's minimumOSVersion."),
            .value("--now", "ISO8601", "The current time (default: now)."),
            .value("--skipped-version", "V", "The version the user chose to skip."),
            .value("--last-prompted", "ISO8601", "When the user last chose \"later\"."),
            .value("--install-id", "ID", "A stable id of this install, for a manifest's staged rollout."),
            .value("--reminded-version", "V", "The version \"later\" was said to; a newer one ends the reminder."),
            .value(
                "--install-channel", "appStore|testFlight|sandbox|debug",
                "Where the installed build came from (default appStore); the others never prompt."),
            .value(
                "--type-in-progress", "flexible|immediate", "With --play: the update flow the app started, if one is."),
        ],
        examples: [
            "storerelease decide --installed 8.0.1 --lookup Docs/Examples/payloads/appstore-wechat-cn.json --now 2021-02-05T00:00:00Z",
            #"echo '{"forceUpdateOn": "minor"}' | storerelease decide --installed 7.9 --lookup Docs/Examples/payloads/appstore-wechat-cn.json --policy -"#,
            "storerelease lookup --id 414478124 --country cn | storerelease decide --installed 8.0.1 --lookup -",
        ],
        run: { arguments throws(CLIError) in try DecideCommand.run(arguments) }
    )
}

enum DecideCommand {
    static let name = "decide"

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let sources = ["--lookup", "--play", "--manifest"].filter { arguments.value($0) != nil }
        guard sources.count == 1 || sources == ["--play", "--manifest"] else {
            throw .usage("decide: give exactly one of --lookup, --play or --manifest (or --play with --manifest)")
        }
        guard let installedText = arguments.value("--installed") else {
            throw .usage("decide: --installed V is required")
        }
        let policy: UpdatePolicy =
            try arguments.value("--policy").map { path throws(CLIError) in
                try decodeFile(UpdatePolicy.self, path, flag: "--policy")
            } ?? UpdatePolicy()
        let context = UpdateContext(
            osVersion: try arguments.version("--os-version", command: name),
            now: try arguments.date("--now", command: name) ?? Date(),
            skippedVersion: try arguments.version("--skipped-version", command: name),
            lastPrompted: try arguments.date("--last-prompted", command: name),
            typeInProgress: try typeInProgress(arguments),
            remindedVersion: try arguments.version("--reminded-version", command: name),
            installChannel: try installChannel(arguments), installID: try installID(arguments))
        let decision: UpdateDecision
        if let path = arguments.value("--play") {
            let installed: VersionCode
            do throws(VersionError) {
                installed = try VersionCode(parsing: installedText)
            } catch {
                throw .badInput("decide: --installed (with --play, the installed versionCode): \(error)")
            }
            let names = try arguments.value("--manifest").map { manifest throws(CLIError) in
                try decodeFile(ReleaseManifest.self, manifest, flag: "--manifest").versionNames
            }
            decision = policy.decide(
                play: try decodeFile(AppUpdateInfo.self, path, flag: "--play"), installed: installed, context: context,
                versionNames: names ?? [:])
        } else {
            // SemVer too (1.0.0-5.1.pre), read as a [:mav:] tag is.
            let installed: Version
            do throws(VersionError) {
                installed = try Version(parsingAppStoreOrSemVer: installedText)
            } catch {
                throw .badInput("decide: --installed \(error)")
            }
            if let path = arguments.value("--lookup") {
                decision = try decide(lookup: path, policy: policy, installed: installed, context: context)
            } else {
                let manifest = try decodeFile(
                    ReleaseManifest.self, arguments.value("--manifest") ?? "-", flag: "--manifest")
                decision = policy.decide(manifest: manifest, installed: installed, context: context)
            }
        }
        try JSONOutput.print(decision)
        return 0
    }

    /// `--install-id`: any text but an empty one, which would put every install in one bucket.
    static func installID(_ arguments: ParsedArguments) throws(CLIError) -> String? {
        guard let id = arguments.value("--install-id") else { return nil }
        guard !id.allSatisfy(\.isWhitespace) else {
            throw .usage("decide: --install-id is empty: give the install's stable id (a UUID kept on the device)")
        }
        return id
    }

    static func installChannel(_ arguments: ParsedArguments) throws(CLIError) -> InstallChannel {
        guard let text = arguments.value("--install-channel") else { return .appStore }
        guard let channel = InstallChannel(rawValue: text) else {
            let names = InstallChannel.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("decide: --install-channel \(text.debugDescription) is not one of \(names)")
        }
        return channel
    }

    static func typeInProgress(_ arguments: ParsedArguments) throws(CLIError) -> AppUpdateType? {
        guard let text = arguments.value("--type-in-progress") else { return nil }
        guard arguments.value("--play") != nil else { throw .usage("decide: --type-in-progress goes with --play") }
        guard let type = AppUpdateType(name: text) else {
            throw .usage("decide: --type-in-progress \(text.debugDescription) is not flexible or immediate")
        }
        return type
    }

    static func decodeFile<T: Decodable>(_ type: T.Type, _ path: String, flag: String) throws(CLIError) -> T {
        let data = Data(try InputFile.text(path, command: name).utf8)
        return try JSONProblem.decoding("decide: \(flag) \(path == "-" ? "stdin" : path)", in: data) {
            try StrictJSON.decode(T.self, from: data)
        }
    }

    /// The decision about the one release in a lookup response (its description's `[:mav: V]`
    /// read), or in `storerelease lookup`'s output.
    static func decide(lookup path: String, policy: UpdatePolicy, installed: Version, context: UpdateContext)
        throws(CLIError) -> UpdateDecision
    {
        let data = Data(try InputFile.text(path, command: name).utf8)
        // The API's own response carries the description; 'storerelease lookup' output does not.
        if let response = try? StrictJSON.decode(AppStoreLookupResponse.self, from: data),
            response.results.count == 1
        {
            return policy.decide(lookup: response.results[0], installed: installed, context: context)
        }
        let source = "--lookup \(path == "-" ? "stdin" : path)"
        let releases = try JSONProblem.decoding("decide: \(source)", as: "not a lookup response", in: data) {
            try StoredLookup.releases(in: data)
        }
        guard releases.count == 1 else {
            throw .badInput("decide: \(source): \(releases.count) releases; give one app's lookup")
        }
        return policy.decide(release: releases[0], installed: installed, context: context)
    }
}
