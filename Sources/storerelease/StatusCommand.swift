import StoreReleaseKit

extension Command {
    /// `storerelease status (--id ID | --bundle-id ID) [--asc-platform ios|macos|tvos|visionos] ASC [--asc-base-url URL] [--format json|text]`.
    static let status = Command(
        name: "status",
        synopsis:
            "status (--id ID | --bundle-id ID) [--asc-platform ios|macos|tvos|visionos] (--asc-key-file FILE --asc-key-id KID "
            + "--asc-issuer-id ISSUER | --asc-token-file FILE) [--asc-base-url URL] [--format json|text]",
        summary: "Prints App Store Connect's view of an app: the live version, its phased release, the pending one.",
        discussion: """
            Reads the app's versions from the App Store Connect API (all pages) with their phased
            releases. Prints one JSON object: appID, live ({version, state, phasedRelease} or
            null: the highest version users can download), pending ({version, state} or null:
            the highest version above it, in review, approved or waiting); phasedRelease is
            {state, day, percent} or null, percent the share of automatic updates on that day
            (1, 2, 5, 10, 20, 50, 100). States are Apple's (READY_FOR_DISTRIBUTION, IN_REVIEW,
            PENDING_DEVELOPER_RELEASE, ACTIVE, PAUSED…).
            \(AppStoreConnectOptions.help)
            Exit status: 0 printed; 1 App Store Connect refused or failed (its detail is shown);
            2 bad flags, a missing or malformed key.
            """,
        options: [
            AppStoreOptions.id,
            AppStoreOptions.bundleID,
            .value("--format", "json|text", "JSON for machines (default), lines for people."),
        ] + AppStoreConnectOptions.specs + [AppStoreConnectOptions.platformAlias],
        examples: [
            "storerelease status --bundle-id com.tencent.xin --asc-token-file Tests/Fixtures/asc/token.txt --format text  # live, pending"
        ],
        run: { arguments throws(CLIError) in
            let command = "status"
            try arguments.requireOnlyFlags()
            let format = arguments.value("--format") ?? "json"
            guard format == "json" || format == "text" else {
                throw .usage("status: --format \(format.debugDescription) is not json or text")
            }
            let app = try AppStoreOptions.app(arguments, command: command)
            let platform = try AppStoreConnectOptions.platform(arguments, command: command)
            guard let client = try AppStoreConnectOptions.client(arguments, command: command) else {
                throw .usage("status: no App Store Connect credentials: \(AppStoreConnectOptions.help)")
            }
            let status: AppStoreConnectStatus
            do throws(AppStoreConnectError) {
                status = try await client.status(of: app, platform: platform)
            } catch {
                throw AppStoreConnectOptions.failure(error, command: command)
            }
            AppStoreConnectOptions.warnIfLow(client, command: command)
            if format == "text" {
                StandardStreams.print(status.text)
            } else {
                try JSONOutput.print(status)
            }
            return 0
        }
    )
}
