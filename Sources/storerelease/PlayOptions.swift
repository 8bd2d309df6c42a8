import Foundation
import StoreReleaseKit

/// The Play Developer API flags that `tracks`, `parity` and `wait` share, and the client they make.
enum PlayOptions {
    /// The environment variable a token may come from.
    static let tokenVariable = "STORERELEASE_PLAY_TOKEN"

    static let package = OptionSpec.value(
        "--package", "PKG", "The app's package name on Google Play (com.example.app).")
    static let track = OptionSpec.value(
        "--track", "NAME",
        "The Play track: production (the default), beta, internal, wear:production, or a custom "
            + "track's name such as 'Pre-release testing'.")
    static let baseURL = OptionSpec.value(
        "--play-base-url", "URL",
        "The Play Developer API's base URL instead of https://androidpublisher.googleapis.com (http only on loopback).")
    static let tokenFile = OptionSpec.value(
        "--play-token-file", "FILE", "A file holding an OAuth access token (else $\(tokenVariable)).")

    /// How to get a token, for help texts and the missing-token error.
    static let tokenHelp = """
        The access token (scope \(PlayDeveloperAPIClient.scope)) comes from --play-token-file FILE or \
        $\(tokenVariable), the file first; in CI: gcloud auth print-access-token \
        --scopes=\(PlayDeveloperAPIClient.scope). It is never printed.
        """

    /// The package name given with `--package`, checked.
    static func packageName(_ arguments: ParsedArguments, command: String) throws(CLIError) -> String? {
        guard let name = arguments.value(package.name) else { return nil }
        guard PlayDeveloperAPIClient.isPackageName(name) else {
            throw .usage(
                "\(command): --package \(name.debugDescription) is not an Android package name (such as com.example.app)"
            )
        }
        return name
    }

    /// The track given with `--track`, checked (any text of 1 to 100 characters), or `nil`.
    static func trackName(_ arguments: ParsedArguments, command: String) throws(CLIError) -> String? {
        guard let name = arguments.value(track.name) else { return nil }
        if let problem = PlayDeveloperAPIClient.problem(withTrack: name) {
            throw .usage("\(command): --track: \(problem)")
        }
        return name
    }

    /// The token: from `--play-token-file`, else the environment.
    ///
    /// - Throws: ``CLIError/usage(_:)`` saying how to give one when there is none; a bad file or
    ///   value is named, its content never shown.
    static func token(_ arguments: ParsedArguments, command: String) throws(CLIError) -> BearerToken {
        guard
            let token = try TokenInput.read(arguments, flag: tokenFile.name, variable: tokenVariable, command: command)
        else {
            throw .usage(
                "\(command): no Play access token: give --play-token-file FILE or set \(tokenVariable) "
                    + "(in CI: gcloud auth print-access-token --scopes=\(PlayDeveloperAPIClient.scope))")
        }
        return token
    }

    /// A client for the token and base URL the arguments give.
    static func client(_ arguments: ParsedArguments, command: String, timeout: Duration = .seconds(30))
        throws(CLIError) -> PlayDeveloperAPIClient
    {
        var configuration = HTTPClientConfiguration.playDeveloperAPI
        configuration.timeout = timeout
        if let url = try arguments.url(baseURL.name, command: command) { configuration.baseURL = url }
        let token = try token(arguments, command: command)
        do throws(PlayDeveloperAPIError) {
            return try PlayDeveloperAPIClient(token: token, configuration: configuration)
        } catch {
            throw .usage("\(command): --play-base-url: \(error)")
        }
    }

    static let storedTrackFile = OptionSpec.value(
        "--play-track", "FILE", "A stored Play track (what storerelease tracks prints), instead of --package.")

    /// The Play source the flags name: a stored track (`--play-track`), or the app's track read
    /// now (`--package`). With `packageNamesStored`, `--package` may also name a stored track's
    /// app. Only flags are read (and the file), nothing is sent.
    static func source(_ arguments: ParsedArguments, command: String, packageNamesStored: Bool = false)
        throws(CLIError) -> PlaySource
    {
        let trackName = try trackName(arguments, command: command) ?? "production"
        let package = try packageName(arguments, command: command)
        switch (arguments.value(storedTrackFile.name), package) {
        case (let path?, let package):
            if package != nil, !packageNamesStored {
                throw .usage("\(command): give --play-track FILE or --package PKG, not both")
            }
            for flag in [baseURL.name, tokenFile.name] where arguments.value(flag) != nil {
                throw .usage("\(command): \(flag) goes with --package, not --play-track")
            }
            return .stored(try storedTrack(path, name: trackName, command: command), packageName: package)
        case (nil, let package?):
            return .live(packageName: package, track: trackName, client: try client(arguments, command: command))
        case (nil, nil):
            throw .usage("\(command): give --play-track FILE or --package PKG (the Play side)")
        }
    }

    /// A stored Play track (one track, or a list to pick `name` from).
    static func storedTrack(_ path: String, name trackName: String, command name: String) throws(CLIError) -> PlayTrack
    {
        let data = Data(try InputFile.text(path, command: name).utf8)
        let tracks = try JSONProblem.decoding("\(name): --play-track \(path)", as: "not a Play track", in: data) {
            try PlayTrack.decodeTracks(from: data)
        }
        if tracks.count == 1 { return tracks[0] }
        guard let track = tracks.first(where: { $0.track == trackName }) else {
            throw .badInput(
                "\(name): --play-track \(path) has no track \(trackName.debugDescription) (it has \(tracks.map(\.track).joined(separator: ", ")))"
            )
        }
        return track
    }

    /// The CLI error for a failed call: bad requests exit 2, everything else 1.
    static func failure(_ error: PlayDeveloperAPIError, command: String) -> CLIError {
        if case .invalidRequest(let message) = error { return .usage("\(command): \(message)") }
        return .failure("\(command): \(error)")
    }
}
