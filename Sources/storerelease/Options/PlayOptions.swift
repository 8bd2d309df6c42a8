import Foundation
import StoreReleaseKit

/// The Play Developer API flags that `tracks`, `parity`, `wait`, `manifest`, `availability` and
/// the sources of `snapshot` and `watch` share, read once: a stored track, or the app's package
/// with its track, base URL and token; the client and the source they make.
struct PlayOptions {
    /// The environment variable a token may come from.
    static let tokenVariable = "STORERELEASE_PLAY_TOKEN"

    static let package = Option<PackageName>(
        "--package", "PKG", "The app's package name on Google Play (com.example.app).")
    static let track = Option<TrackName>(
        "--track", "NAME",
        "The Play track: production (the default), beta, internal, wear:production, or a custom "
            + "track's name such as 'Pre-release testing'.")
    static let baseURL = Option<BaseURL>(
        "--play-base-url", "URL",
        "The Play Developer API's base URL instead of https://androidpublisher.googleapis.com (http only on loopback).")
    static let tokenFile = Option<String>(
        "--play-token-file", "FILE", "A file holding an OAuth access token (else $\(tokenVariable)).")
    static let storedTrackFile = Option<String>(
        "--play-track", "FILE", "A stored Play track (what storerelease tracks prints), instead of --package.")

    /// A flag of the group; help lists them in the order of ``table(_:storedTrack:trackLast:)``.
    enum Flag: Hashable, Sendable {
        case storedTrack, package, track, baseURL, token
    }

    /// The flags of `flags` in the order help lists them: `--play-track` (with `storedTrack`'s
    /// help), `--package`, `--track`, `--play-base-url`, `--play-token-file`; with `trackLast`,
    /// `--track` after the token (as `parity` and `manifest` list it).
    static func table(_ flags: Set<Flag>, storedTrack: Option<String> = storedTrackFile, trackLast: Bool = false)
        -> OptionTable
    {
        var parts: [(Flag, any OptionDeclarations)] = [
            (.storedTrack, storedTrack), (.package, package), (.track, track), (.baseURL, baseURL), (.token, tokenFile),
        ]
        if trackLast { parts.append(parts.remove(at: 2)) }
        return OptionTable(flags, of: parts)
    }

    /// How to get a token, for help texts and the missing-token error.
    static let tokenHelp = """
        The access token (scope \(PlayDeveloperAPIClient.scope)) comes from \(tokenFile.usage) or \
        $\(tokenVariable), the file first; in CI: gcloud auth print-access-token \
        --scopes=\(PlayDeveloperAPIClient.scope). It is never printed.
        """

    private let arguments: ParsedArguments
    /// The package `--package` names.
    let package: String?
    /// The track `--track` names, if given.
    let trackName: String?
    /// The stored track `--play-track` names.
    let storedTrack: String?
    private let baseURL: URL?
    private let tokenFile: String?

    /// Reads the flags.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a flag whose value is bad.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        self.arguments = arguments
        trackName = try arguments.value(Self.track)?.name
        package = try arguments.value(Self.package)?.name
        storedTrack = try arguments.value(Self.storedTrackFile)
        baseURL = try arguments.value(Self.baseURL)?.url
        tokenFile = try arguments.value(Self.tokenFile)
    }

    /// The track to read: `--track`, else production.
    var track: String { trackName ?? TrackName.production }

    /// Whether the flags name a Play side: a stored track or a package.
    var isGiven: Bool { storedTrack != nil || package != nil }

    /// The flags that go with `--package` alone, those given: `wait` without a package names them.
    var givenLiveFlags: [String] {
        [
            (Self.track.name, trackName != nil), (Self.baseURL.name, baseURL != nil),
            (Self.tokenFile.name, tokenFile != nil),
        ]
        .filter(\.1).map(\.0)
    }

    /// The package, which the command cannot do without.
    func requiredPackage() throws(CLIError) -> String {
        guard let package else { throw .usage("\(arguments.command): \(Self.package.usage) is required") }
        return package
    }

    /// The token: from `--play-token-file`, else the environment.
    ///
    /// - Throws: ``CLIError/usage(_:)`` saying how to give one when there is none; a bad file or
    ///   value is named, its content never shown.
    func token() throws(CLIError) -> BearerToken {
        guard
            let token = try TokenInput.read(
                tokenFile, flag: Self.tokenFile.name, variable: Self.tokenVariable, command: arguments.command)
        else {
            throw .usage(
                "\(arguments.command): no Play access token: give \(Self.tokenFile.usage) or set \(Self.tokenVariable) "
                    + "(in CI: gcloud auth print-access-token --scopes=\(PlayDeveloperAPIClient.scope))")
        }
        return token
    }

    /// A client for the token and base URL the flags give.
    func client(timeout: Duration = .seconds(30)) throws(CLIError) -> PlayDeveloperAPIClient {
        var configuration = HTTPClientConfiguration.playDeveloperAPI
        configuration.timeout = timeout
        if let baseURL { configuration.baseURL = baseURL }
        let token = try token()
        do throws(HTTPClientError) {
            return try PlayDeveloperAPIClient(token: token, configuration: configuration)
        } catch {
            throw arguments.error(Self.baseURL, .detail("\(error)"))
        }
    }

    /// The Play source the flags name: a stored track (`--play-track`), or the app's track read
    /// now (`--package`). With `packageNamesStored`, `--package` may also name a stored track's
    /// app. Only flags are read (and the file), nothing is sent.
    func source(packageNamesStored: Bool = false) throws(CLIError) -> PlaySource {
        let command = arguments.command
        switch (storedTrack, package) {
        case (let path?, let package):
            if package != nil, !packageNamesStored {
                throw .usage("\(command): give \(Self.storedTrackFile.usage) or \(Self.package.usage), not both")
            }
            for (flag, given) in [(Self.baseURL.name, baseURL != nil), (Self.tokenFile.name, tokenFile != nil)]
            where given {
                throw .usage("\(command): \(flag) goes with \(Self.package), not \(Self.storedTrackFile)")
            }
            return .stored(try storedTrack(path), packageName: package)
        case (nil, let package?):
            return .live(packageName: package, track: track, client: try client())
        case (nil, nil):
            throw .usage(
                "\(command): give \(Self.storedTrackFile.usage) or \(Self.package.usage) (the Play side)")
        }
    }

    /// A stored Play track (one track, or a list to pick `--track` from).
    private func storedTrack(_ path: String) throws(CLIError) -> PlayTrack {
        let name = arguments.command
        let data = Data(try InputFile.text(path, command: name).utf8)
        let source = "\(name): \(Self.storedTrackFile) \(path)"
        let tracks = try JSONProblem.decoding(source, as: "not a Play track", in: data) {
            try PlayTrack.decodeTracks(from: data)
        }
        if tracks.count == 1 { return tracks[0] }
        guard let found = tracks.first(where: { $0.track == track }) else {
            throw .badInput(
                "\(source) has no track \(track.debugDescription) (it has \(tracks.map(\.track).joined(separator: ", ")))"
            )
        }
        return found
    }

}

extension Set<PlayOptions.Flag> {
    /// A live Play app: package, track, API base URL, token file.
    static var live: Self { [.package, .track, .baseURL, .token] }
    /// A stored track, or a live Play app.
    static var storedOrLive: Self { live.union([.storedTrack]) }
}
