import StoreReleaseKit

extension Command {
    /// `storerelease tracks --package PKG [--track NAME] [--play-base-url URL] [--play-token-file FILE] [--timeout S]`.
    static let tracks = Command(
        name: "tracks",
        synopsis: "tracks --package PKG [--track NAME] [--play-base-url URL] [--play-token-file FILE] [--timeout S]",
        summary: "Prints an app's Google Play tracks from the Play Developer API, in the API's JSON shape.",
        discussion: """
            Reads the tracks with their rollout detail through an edit that is opened, read and
            deleted (on every path, failures included), never committed. Prints {"tracks": […]},
            or with --track one {"track": …, "releases": […]}; an empty track has "releases": []
            and exits 0; a track the app does not have exits 1 naming the tracks it has. Track
            names are any text ("Pre-release testing"). The output is what
            'storerelease parity --play-track' reads.
            \(PlayOptions.tokenHelp)
            Exit status: 0 printed; 1 the API refused or failed (401: the token, or an account
            not invited to the app; 403: the scope, the API or the account's rights; 404: the
            package or the track); 2 bad flags or a missing token.
            """,
        options: [PlayOptions.table(.live), TracksCommand.timeout],
        examples: [
            "storerelease tracks --package com.example.rollout --track production  # inProgress, countryTargeting",
            "storerelease tracks --package com.example.completed  # production, internal, beta",
        ],
        run: { arguments throws(CLIError) in
            try arguments.requireOnlyFlags()
            let play = try PlayOptions(arguments)
            let package = try play.requiredPackage()
            let client = try play.client(timeout: try arguments.value(TracksCommand.timeout)?.duration ?? .seconds(30))
            let track = play.trackName
            let tracks: [PlayTrack]
            do throws(HTTPClientError) {
                tracks =
                    if let track { [try await client.track(track, packageName: package)] } else {
                        try await client.tracks(packageName: package)
                    }
            } catch {
                throw CLIError(error, arguments.command)
            }
            struct List: Encodable { let tracks: [PlayTrack] }
            if track != nil, let one = tracks.first {
                try JSONOutput.print(one)
            } else {
                try JSONOutput.print(List(tracks: tracks))
            }
            return 0
        }
    )
}

enum TracksCommand {
    static let timeout = CommonOptions.timeout.help(
        "Seconds each attempt may take in all, the whole answer read (default 30).")
}
