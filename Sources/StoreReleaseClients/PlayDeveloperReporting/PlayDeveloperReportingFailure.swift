import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Why a Play Developer Reporting API call failed, in its words: what an ``HTTPClientError`` of
/// the Play Developer Reporting API holds; the ``description`` says what happened and what to do.
///
/// No case holds the access token: messages from Google are kept with the token taken out.
package enum PlayDeveloperReportingFailure: Error, Sendable, Hashable {
    /// The request itself is wrong (a malformed package name or base URL).
    case invalidRequest(String)
    /// 401: the token is missing, expired or wrong.
    case unauthorized(message: String)
    /// 403: the token, the project or the account may not read this.
    ///
    /// The token lacks the reporting scope, the API is not enabled, or the account may not view
    /// the app's quality data; `refusal` says which.
    case forbidden(PlayDeveloperAPIFailure.Refusal, message: String)
    /// 404 on the app: Play has no such app, or the account cannot see it.
    case packageNotFound(String)
    /// Still rate-limited (429) after the retries; `retryAfter` is Google's wait, if any.
    case rateLimited(retryAfter: Duration?)
    /// Any other error status, with Google's message when it sent one.
    case httpStatus(Int, message: String?)
    /// The answer is JSON of the right shape, but a value in it is not what it must be.
    ///
    /// A rate that is not a decimal fraction, a negative or fractional count: the text names the field.
    case invalidValue(String)
    /// The exchange gave no answer the client can read (the same ``ExchangeFailure`` as every client's).
    case exchange(ExchangeFailure)

    /// Whether asking again later cannot help: the token, the account's rights or the package are wrong.
    package var isPermanent: Bool {
        switch self {
        case .invalidRequest, .unauthorized, .forbidden, .packageNotFound, .invalidValue, .exchange(.redirected):
            return true
        case .rateLimited, .httpStatus, .exchange:
            return false
        }
    }
}

extension PlayDeveloperReportingFailure: StoreAPIFailure {
    package var code: HTTPClientError.Code {
        switch self {
        case .invalidRequest: .invalidRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .packageNotFound: .notFound
        case .rateLimited: .rateLimited
        case .httpStatus: .httpStatus
        case .invalidValue: .invalidPayload
        case .exchange(let failure): failure.code
        }
    }

    package var error: HTTPClientError { .playReporting(self) }
}

extension PlayDeveloperReportingFailure: CustomStringConvertible {
    /// A sentence that names what failed and what to try.
    package var description: String {
        let scopes = "--scopes=\(PlayDeveloperReportingClient.scope),\(PlayDeveloperAPIClient.scope)"
        switch self {
        case .invalidRequest(let message):
            return message
        case .unauthorized(let message):
            return "Google refused the token (HTTP 401: \(message)): it is missing, expired or wrong; make a fresh "
                + "one with both scopes (gcloud auth print-access-token \(scopes))"
        case .forbidden(.scopeInsufficient, let message):
            return "the token lacks the playdeveloperreporting scope (HTTP 403: \(message)); health needs "
                + "\(PlayDeveloperReportingClient.scope) as well as the androidpublisher one: make it with \(scopes)"
        case .forbidden(.apiNotEnabled, let message):
            return Self.apiNotEnabledSentence("Play Developer Reporting API", message: message)
        case .forbidden(.permissionDenied, let message):
            return "the token's account may not view this app's quality data (HTTP 403: \(message)); in Play "
                + "Console (Users and permissions) give the service account 'View app quality information' for "
                + "the app, and make the token with the scope \(PlayDeveloperReportingClient.scope)"
        case .packageNotFound(let package):
            return Self.appNotFoundSentence("the Play Developer Reporting API", package: package)
        case .rateLimited(let retryAfter):
            return Self.rateLimitedSentence(
                by: "the Play Developer Reporting API", asker: "Google", retryAfter: retryAfter)
        case .httpStatus(let status, let message):
            return Self.statusSentence(status, from: "the Play Developer Reporting API", details: [message])
        case .invalidValue(let message):
            return "the answer is not what the Play Developer Reporting API sends: \(message)"
        case .exchange(let failure):
            return failure.description(api: "the Play Developer Reporting API")
        }
    }
}
