import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Why a Play Developer API call failed, in its words: what an ``HTTPClientError`` of the Play
/// Developer API holds; the ``description`` says what happened and what to do.
///
/// No case holds the access token: messages from Google are kept with the token taken out.
package enum PlayDeveloperAPIFailure: Error, Sendable, Hashable {
    /// Why Google refused with 403.
    package enum Refusal: Sendable, Hashable {
        /// The token lacks the `androidpublisher` scope (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`).
        case scopeInsufficient
        /// The Google Play Android Developer API is not enabled in the token's Cloud project.
        case apiNotEnabled
        /// The account may not read this app (not invited to the Play Console, or too few rights).
        case permissionDenied
    }

    /// The request itself is wrong (a malformed package name, track or base URL).
    case invalidRequest(String)
    /// 401: the token is missing, expired or wrong.
    case unauthorized(message: String)
    /// 401 with reason `permissionDenied`: the account has no access to the app.
    ///
    /// The token is good, but its account was never invited to the app in Play Console.
    case notInvited(message: String)
    /// 403: the token's account may not do this; `refusal` says which way.
    case forbidden(Refusal, message: String)
    /// 404 on the package: Play has no such app, or the account cannot see it.
    case packageNotFound(String)
    /// 404 "Track not found": the app has no track of this name.
    ///
    /// `available` names the tracks it has when they could be read (through the edit), else `nil`.
    case trackNotFound(String, available: [String]?)
    /// The edit was deleted under us twice running (it expired, or another was committed).
    case editDeleted(message: String)
    /// 409 `concurrentUpdate` after the retries: another tool is changing the app.
    case conflict(message: String)
    /// A write was not sent: what the edit read is not what the change expects (the release moved
    /// on since the plan was made, or is not on the track); the text says what it found.
    case releaseChanged(String)
    /// Still rate-limited (429) after the retries; `retryAfter` is Google's wait, if any.
    case rateLimited(retryAfter: Duration?)
    /// Any other error status, with Google's message when it sent one.
    case httpStatus(Int, message: String?)
    /// The exchange gave no answer the client can read.
    ///
    /// A timeout, a cut-off or foreign body, a failed connection, a redirect not followed, or
    /// cancellation: the same ``ExchangeFailure`` for every client.
    case exchange(ExchangeFailure)

    /// Whether asking again later cannot help.
    ///
    /// The token, the account's rights or the package are wrong; a command that polls stops at
    /// once on these.
    package var isPermanent: Bool {
        switch self {
        case .invalidRequest, .unauthorized, .notInvited, .forbidden, .packageNotFound, .trackNotFound:
            return true
        case .exchange(.redirected):
            return true
        case .editDeleted, .conflict, .releaseChanged, .rateLimited, .httpStatus, .exchange:
            return false
        }
    }
}

extension PlayDeveloperAPIFailure: CustomStringConvertible {
    /// A sentence that names what failed and what to try.
    package var description: String {
        switch self {
        case .invalidRequest(let message):
            return message
        case .unauthorized(let message):
            return "Google refused the token (HTTP 401: \(message)): it is missing, expired or wrong; "
                + "make a fresh one (gcloud auth print-access-token --scopes=\(PlayDeveloperAPIClient.scope))"
        case .notInvited(let message):
            return "the token's account has no access to this app in Play Console (HTTP 401 permissionDenied: "
                + "\(message)); invite the service account's e-mail in Play Console (Users and permissions, "
                + "Invite new users) with at least 'View app information' for this app, then try again (a new "
                + "invitation can take up to a day to apply)"
        case .forbidden(.scopeInsufficient, let message):
            return "the token lacks the androidpublisher scope (HTTP 403: \(message)); make one with "
                + "--scopes=\(PlayDeveloperAPIClient.scope)"
        case .forbidden(.apiNotEnabled, let message):
            return Self.apiNotEnabledSentence("Play Android Developer API", message: message)
        case .forbidden(.permissionDenied, let message):
            return "the token's account may not read this app (HTTP 403: \(message)); invite it in the Play "
                + "Console (Users and permissions) with at least view access to app information"
        case .packageNotFound(let package):
            return Self.appNotFoundSentence("Google Play", package: package)
        case .trackNotFound(let track, let available):
            let known =
                available.map { names in
                    names.isEmpty
                        ? "; it has no tracks" : "; it has \(names.map(\.debugDescription).joined(separator: ", "))"
                } ?? " (\(FailureHint.playTracks.words))"
            return "the app has no Play track \(track.debugDescription) (HTTP 404)\(known)"
        case .editDeleted(let message):
            return "the edit was deleted before it could be read, twice (\(message)); another tool may be "
                + "committing edits: try again"
        case .releaseChanged(let message):
            return message + "; nothing was committed: read the stores again (\(FailureHint.planWithoutApplying.words))"
        case .conflict(let message):
            return "another tool is changing the app (HTTP 409: \(message)); try again"
        case .rateLimited(let retryAfter):
            return Self.rateLimitedSentence(by: "the Play Developer API", asker: "Google", retryAfter: retryAfter)
        case .httpStatus(let status, let message):
            return Self.statusSentence(status, from: "the Play Developer API", details: [message])
        case .exchange(let failure):
            return failure.description(api: "the Play Developer API")
        }
    }
}

extension PlayDeveloperAPIFailure: StoreAPIFailure {
    package var code: HTTPClientError.Code {
        switch self {
        case .invalidRequest: .invalidRequest
        case .unauthorized: .unauthorized
        case .notInvited, .forbidden: .forbidden
        case .packageNotFound, .trackNotFound: .notFound
        case .editDeleted, .conflict, .releaseChanged: .conflict
        case .rateLimited: .rateLimited
        case .httpStatus: .httpStatus
        case .exchange(let failure): failure.code
        }
    }

    package var error: HTTPClientError { .play(self) }
}

extension PlayDeveloperAPIFailure.Refusal {
    /// Which way a Google API refused with 403, from the envelope's reasons and message (any
    /// Google API: the publisher one and the reporting one answer alike).
    init(reasons: [String], message: String) {
        if reasons.contains("ACCESS_TOKEN_SCOPE_INSUFFICIENT") || message.contains("insufficient authentication scopes")
        {
            self = .scopeInsufficient
        } else if reasons.contains("SERVICE_DISABLED") || message.contains("has not been used in project")
            || message.contains("is disabled")
        {
            self = .apiNotEnabled
        } else {
            self = .permissionDenied
        }
    }
}
