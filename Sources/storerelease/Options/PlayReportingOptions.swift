import Foundation
import StoreReleaseKit

/// The Play Developer Reporting API flags: `--package` with the Play token flags and
/// `--play-reporting-base-url`, read once; the client they make.
struct PlayReportingOptions {
    static let baseURL = Option<BaseURL>(
        "--play-reporting-base-url", "URL",
        "The Play Developer Reporting API's base URL instead of https://playdeveloperreporting.googleapis.com "
            + "(http only on loopback).")

    /// `health`'s flags of the reporting API: the app, the token, the base URL.
    static let table = OptionTable([PlayOptions.table([.package, .token]), baseURL])

    /// How to get a token for health, for the help text.
    static let tokenHelp = """
        The Play token (--play-token-file FILE or $\(PlayOptions.tokenVariable)) needs the scope \
        \(PlayDeveloperReportingClient.scope) as well as \(PlayDeveloperAPIClient.scope) (in CI: gcloud \
        auth print-access-token --scopes=\(PlayDeveloperReportingClient.scope),\(PlayDeveloperAPIClient.scope)), \
        and its service account 'View app quality information' in Play Console.
        """

    private let command: String
    /// The base URL `--play-reporting-base-url` gives, if any.
    let baseURLGiven: URL?
    private let tokenFile: String?

    /// Reads the base URL and the token file's path; nothing is opened.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a flag whose value is bad.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        command = arguments.command
        baseURLGiven = try arguments.value(Self.baseURL)?.url
        tokenFile = try arguments.value(PlayOptions.tokenFile)
    }

    /// The reporting client the flags describe, its token read.
    func client() throws(CLIError) -> PlayDeveloperReportingClient {
        var configuration = HTTPClientConfiguration.playDeveloperReporting
        if let baseURLGiven { configuration.baseURL = baseURLGiven }
        guard
            let token = try TokenInput.read(
                tokenFile, flag: PlayOptions.tokenFile.name, variable: PlayOptions.tokenVariable, command: command)
        else {
            throw .usage(
                "\(command): --package reads the Play Developer Reporting API and needs a Play access token: give "
                    + "--play-token-file FILE or set \(PlayOptions.tokenVariable) (scopes "
                    + "\(PlayDeveloperReportingClient.scope) and \(PlayDeveloperAPIClient.scope))")
        }
        do throws(HTTPClientError) {
            return try PlayDeveloperReportingClient(token: token, configuration: configuration)
        } catch {
            throw .usage("\(command): \(Self.baseURL.name): \(error)")
        }
    }
}
