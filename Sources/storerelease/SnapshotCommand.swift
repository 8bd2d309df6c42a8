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
            track's releases (status, userFraction, countries, and the review state from the
            edit-free list), App Store Connect's status. Prints {takenAt, appStore, googlePlay,
            appStoreConnect, firstSeen}; a store not read is null. firstSeen says when each
            storefront first served each version and when App Store Connect first showed each
            version in each state: carried forward from --previous FILE (an earlier snapshot),
            extended by what is new now. A --play-track file does not say whose track it is:
            --package PKG beside it records the app, and once --previous names a package the
            track is taken only with --package naming the same one.
            \(PlayOptions.tokenHelp)
            \(AppStoreConnectOptions.help)
            Exit status: 0 printed; 1 a store refused or failed; 2 bad flags, or a --previous that is
            not a snapshot or is of another app.
            """,
        options: sourceOptions + [
            .value("--now", "ISO8601", "The time the snapshot is of (default: now)."),
            .value("--previous", "FILE", "The snapshot before, whose firstSeen is carried forward."),
        ] + AppStoreConnectOptions.specs,
        examples: [
            "storerelease snapshot --lookup Docs/Examples/payloads/appstore-wechat-cn.json "
                + "--play-track Docs/Examples/payloads/play-production.json --now 2021-02-03T00:00:00Z  # \"firstSeen\""
        ],
        run: { arguments throws(CLIError) in
            let name = "snapshot"
            try arguments.requireOnlyFlags()
            let now = try arguments.date("--now", command: name) ?? Date()
            let (appStore, play, connect) = try sources(arguments, command: name)
            var previous: ReleaseSnapshot?
            if let path = arguments.value("--previous") {
                let data = Data(try InputFile.text(path, command: name).utf8)
                previous = try JSONProblem.decoding("snapshot: --previous \(path)", as: "not a snapshot", in: data) {
                    try StrictJSON.decode(ReleaseSnapshot.self, from: data)
                }
            }
            let snapshot: ReleaseSnapshot
            do throws(ReleaseSourceError) {
                snapshot = try await ReleaseSnapshot.take(
                    appStore: appStore, play: play, appStoreConnect: connect, now: now, previous: previous)
            } catch {
                throw .source(error, command: name)
            }
            if let previous, let conflict = snapshot.conflict(with: previous) {
                throw .badInput(
                    "snapshot: --previous \(arguments.value("--previous") ?? "") is of another app: \(conflict)")
            }
            try JSONOutput.print(snapshot)
            return 0
        }
    )

    /// The store flags a snapshot is taken from (`snapshot`, `watch`), before App Store Connect's.
    static let sourceOptions: [OptionSpec] = [
        AppStoreOptions.lookup, AppStoreOptions.id, AppStoreOptions.bundleID, AppStoreOptions.countries,
        AppStoreOptions.baseURL, AppStoreOptions.lookupsPerMinute, PlayOptions.storedTrackFile, PlayOptions.package,
        PlayOptions.track, PlayOptions.baseURL, PlayOptions.tokenFile,
    ]

    /// The stores a snapshot is taken from, each side optional but one of App Store and Play given.
    static func sources(_ arguments: ParsedArguments, command name: String) throws(CLIError) -> (
        AppStoreSource?, PlaySource?, AppStoreConnectSource?
    ) {
        let named = [AppStoreOptions.lookup.name, AppStoreOptions.id.name, AppStoreOptions.bundleID.name].contains {
            arguments.value($0) != nil
        }
        let appStore = named ? try AppStoreOptions.source(arguments, command: name, storefronts: .many) : nil
        let playNamed =
            arguments.value(PlayOptions.storedTrackFile.name) != nil || arguments.value(PlayOptions.package.name) != nil
        let play = playNamed ? try PlayOptions.source(arguments, command: name, packageNamesStored: true) : nil
        let connect = try AppStoreConnectOptions.source(arguments, command: name)
        guard appStore != nil || play != nil else {
            throw .usage(
                "\(name): give the App Store side (--lookup, or --id/--bundle-id with --countries), Play, or both")
        }
        return (appStore, play, connect)
    }
}
