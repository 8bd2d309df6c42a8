import Foundation
import StoreReleaseKit

/// The Play Developer Reporting API flags of `health`: `--package` with the Play token flags and
/// `--play-reporting-base-url`.
enum PlayReportingOptions {
    static let baseURL = Option<BaseURL>(
        "--play-reporting-base-url", "URL",
        "The Play Developer Reporting API's base URL instead of https://playdeveloperreporting.googleapis.com "
            + "(http only on loopback).")

    /// How to get a token for health, for the help text.
    static let tokenHelp = """
        The Play token (--play-token-file FILE or $\(PlayOptions.tokenVariable)) needs the scope \
        \(PlayDeveloperReportingClient.scope) as well as \(PlayDeveloperAPIClient.scope) (in CI: gcloud \
        auth print-access-token --scopes=\(PlayDeveloperReportingClient.scope),\(PlayDeveloperAPIClient.scope)), \
        and its service account 'View app quality information' in Play Console.
        """

    /// The reporting client the flags describe.
    static func client(_ arguments: ParsedArguments, command: String) throws(CLIError) -> PlayDeveloperReportingClient {
        var configuration = HTTPClientConfiguration.playDeveloperReporting
        if let url = try arguments.value(baseURL)?.url { configuration.baseURL = url }
        guard
            let token = try TokenInput.read(
                try arguments.value(PlayOptions.tokenFile), flag: PlayOptions.tokenFile.name,
                variable: PlayOptions.tokenVariable, command: command)
        else {
            throw .usage(
                "\(command): --package reads the Play Developer Reporting API and needs a Play access token: give "
                    + "--play-token-file FILE or set \(PlayOptions.tokenVariable) (scopes "
                    + "\(PlayDeveloperReportingClient.scope) and \(PlayDeveloperAPIClient.scope))")
        }
        do throws(HTTPClientError) {
            return try PlayDeveloperReportingClient(token: token, configuration: configuration)
        } catch {
            throw .usage("\(command): \(baseURL.name): \(error)")
        }
    }
}
