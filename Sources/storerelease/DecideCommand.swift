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
        options: [DecideOptions.table],
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
        try JSONOutput.print(try decision(DecideOptions(arguments)))
        return 0
    }

    /// The policy's decision about the input the flags name.
    static func decision(_ options: DecideOptions) throws(CLIError) -> UpdateDecision {
        let (policy, context) = (try options.policy(), options.context)
        switch options.input {
        case .lookup(let path, let installed):
            return try decide(lookup: path, policy: policy, installed: installed, context: context)
        case .play(let path, let installed, let manifest):
            let names = try manifest.map { path throws(CLIError) in
                try DecideOptions.decodeFile(ReleaseManifest.self, path, flag: DecideOptions.manifest.name).versionNames
            }
            let info = try DecideOptions.decodeFile(AppUpdateInfo.self, path, flag: DecideOptions.play.name)
            return policy.decide(play: info, installed: installed, context: context, versionNames: names ?? [:])
        case .manifest(let path, let installed):
            let manifest = try DecideOptions.decodeFile(ReleaseManifest.self, path, flag: DecideOptions.manifest.name)
            return policy.decide(manifest: manifest, installed: installed, context: context)
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
        let source = "\(DecideOptions.lookup) \(path == "-" ? "stdin" : path)"
        let releases = try JSONProblem.decoding("decide: \(source)", as: "not a lookup response", in: data) {
            try StoredLookup.releases(in: data)
        }
        guard releases.count == 1 else {
            throw .badInput("decide: \(source): \(releases.count) releases; give one app's lookup")
        }
        return policy.decide(release: releases[0], installed: installed, context: context)
    }
}
