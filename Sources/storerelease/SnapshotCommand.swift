import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease snapshot SOURCES [--now ISO8601] [--previous FILE]`.
    static let snapshot = Command(
        name: "snapshot",
        synopsis:
            "snapshot [(--lookup FILE[,FILE…] | (--id ID | --bundle-id ID) --countries CC[,CC…]|all|sold) [--base-url URL]] "
            + "[--play-track FILE [--package PKG] | --package PKG [--track NAME]] [ASC] [--now ISO8601] [--previous FILE]",
        summary: "Prints both stores' whole state as one JSON document, the state a watcher keeps.",
        discussion: """
            Reads what parity reads, each side optional: the storefronts' versions, the Play
            track's releases (status, userFraction, countries, includeRestOfWorld when true, and
            the review state from the edit-free list), App Store Connect's status. Prints {takenAt, appStore, googlePlay,
            appStoreConnect, firstSeen}; a store not read is null. firstSeen says when each
            storefront first served each version and when App Store Connect first showed each
            version in each state: carried forward from --previous FILE (an earlier snapshot),
            extended by what is new now. A --play-track file does not say whose track it is:
            --package PKG beside it records the app, and once --previous names a package the
            track is taken only with --package naming the same one. A live Play track (--package)
            adds playRecoveryActions: App Recovery's actions for the track's versionCodes, as
            parity prints them.
            \(HealthSourceOptions.help(judging: HealthSourceOptions.releasing)) The snapshot then
            records health: {appStore, googlePlay},
            each {source, version, versionCode, verdict, users, crashRate, anrRate, reasons} or null.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 printed; 1 a store refused or failed; 2 bad flags, or a --previous that is
            not a snapshot or is of another app.
            """,
        options: [
            SourceOptions.snapshotTable, SnapshotCommand.now, SnapshotCommand.previous, AppStoreConnectOptions.table(),
            HealthSourceOptions.table,
        ],
        examples: [
            "storerelease snapshot --lookup Docs/Examples/payloads/appstore-wechat-cn.json "
                + "--play-track Docs/Examples/payloads/play-production.json --now 2021-02-03T00:00:00Z  # \"firstSeen\""
        ],
        run: { arguments throws(CLIError) in
            try arguments.requireOnlyFlags()
            let given = try arguments.value(SnapshotCommand.now)
            let path = try arguments.value(SnapshotCommand.previous)
            let options = try SourceOptions(arguments)
            let healthOptions = try HealthSourceOptions(arguments, rollout: false)
            // The flags read, the files are opened and the clients built.
            let (appStore, play, connect) = try options.snapshotSources()
            let health = try healthOptions.sources(for: options, through: given)
            let previous = try path.map { path throws(CLIError) in
                try SnapshotFile.read(
                    path, source: "snapshot: \(SnapshotCommand.previous) \(path)", command: arguments.command)
            }
            let snapshot: ReleaseSnapshot
            do throws(ReleaseSourceError) {
                snapshot = try await ReleaseSnapshot.take(
                    appStore: appStore, play: play, appStoreConnect: connect, health: health, now: given ?? Date(),
                    previous: previous)
            } catch {
                throw CLIError(error, arguments.command)
            }
            if let previous, let conflict = snapshot.conflict(with: previous) {
                throw .badInput("snapshot: \(SnapshotCommand.previous) \(path ?? "") is of another app: \(conflict)")
            }
            try JSONOutput.print(snapshot)
            return 0
        }
    )
}

enum SnapshotCommand {
    static let now = CommonOptions.now.help("The time the snapshot is of (default: now).")
    static let previous = Option<String>(
        "--previous", "FILE", "The snapshot before, whose firstSeen is carried forward.")
}
