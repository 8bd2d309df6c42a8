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
        options: [AppStoreOptions.table(.app), StatusCommand.format, StatusCommand.connectTable],
        examples: [
            "storerelease status --bundle-id com.tencent.xin --asc-token-file Tests/Fixtures/asc/token.txt --format text  # live, pending"
        ],
        run: { arguments throws(CLIError) in
            try await StatusCommand.printRead(arguments, text: \AppStoreConnectStatus.text) {
                _, app, connect throws(CLIError) in
                do throws(HTTPClientError) {
                    return try await connect.client.status(of: app, platform: connect.platform)
                } catch {
                    throw CLIError(error, arguments.command)
                }
            }
        }
    )
}

enum StatusCommand {
    static let format: Option<TextFormat> = CommonOptions.format("JSON for machines (default), lines for people.")

    /// App Store Connect's flags as `status` and `availability` take them.
    static let connectTable = AppStoreConnectOptions.table(.ownAndAlias)

    /// Runs a command that reads one app through App Store Connect (`status`, `availability`):
    /// the flags checked, the app and the credentials read, `read` run, the request budget
    /// warned about when low, and what was read printed in `--format`.
    static func printRead<Value: Encodable>(
        _ arguments: ParsedArguments, text: (Value) -> String,
        read: (SourceOptions, AppStoreApp, AppStoreConnectSource) async throws(CLIError) -> Value
    ) async throws(CLIError) -> Int32 {
        try arguments.requireOnlyFlags()
        let format = try arguments.value(format) ?? .json
        let sources = try SourceOptions(arguments, platform: .ownAndAlias)
        let app = try sources.appStore.app()
        let connect = try sources.connect.requiredSource()
        let value = try await read(sources, app, connect)
        AppStoreConnectOptions.warnIfLow(connect.client, command: arguments.command)
        switch format {
        case .text: StandardStreams.print(text(value))
        case .json: try JSONOutput.print(value)
        }
        return 0
    }
}
