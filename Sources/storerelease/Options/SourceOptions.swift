import StoreReleaseKit

/// The three stores' flags, read once into typed values, in the order their rules need: App
/// Store Connect's (whose credentials `--countries sold` needs), the App Store's, Play's.
///
/// The model is swift-argument-parser's `@OptionGroup`: a command that reads a store puts the
/// groups' tables in its own and reads the group, never the flags themselves. Reading opens no
/// file and builds no client; ``snapshotSources()`` and the groups' `source` and `client` do.
struct SourceOptions {
    private let command: String
    let appStore: AppStoreOptions
    let play: PlayOptions
    let connect: AppStoreConnectOptions

    /// Reads the flags, App Store Connect's with `platform`'s.
    init(_ arguments: ParsedArguments, platform: AppStoreConnectOptions.PlatformFlags = .own) throws(CLIError) {
        command = arguments.command
        connect = try AppStoreConnectOptions(arguments, platform: platform)
        appStore = try AppStoreOptions(arguments, connect: connect)
        play = try PlayOptions(arguments)
    }

    /// The store flags a snapshot is taken from (`snapshot`, `watch`), before App Store Connect's.
    static let snapshotTable = OptionTable([AppStoreOptions.table(.sweep), PlayOptions.table(.storedOrLive)])

    /// The stores a snapshot is taken from, each side optional but one of App Store and Play given.
    func snapshotSources() throws(CLIError) -> (AppStoreSource?, PlaySource?, AppStoreConnectSource?) {
        let appStore = self.appStore.isGiven ? try self.appStore.source(storefronts: .many) : nil
        let play = self.play.isGiven ? try self.play.source(packageNamesStored: true) : nil
        let connect = try connect.source()
        guard appStore != nil || play != nil else {
            throw .usage(
                "\(command): give the App Store side (\(AppStoreOptions.lookup), or "
                    + "\(AppStoreOptions.id)/\(AppStoreOptions.bundleID) with \(AppStoreOptions.countries)), Play, or both"
            )
        }
        return (appStore, play, connect)
    }
}
