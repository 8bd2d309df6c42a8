import Foundation

/// A failure of a Google API (the Play Developer API, the Play Developer Reporting API): the
/// cases every Google answer can mean.
protocol GoogleAPIFailure: StoreAPIFailure {
    /// 401: the token is missing, expired or wrong.
    static func unauthorized(message: String) -> Self
    /// 403, and which way Google refused.
    static func forbidden(_ refusal: PlayDeveloperAPIFailure.Refusal, message: String) -> Self
    /// Still rate-limited (429) after the retries.
    static func rateLimited(retryAfter: Duration?) -> Self
    /// Any other error status, with Google's message when it sent one.
    static func httpStatus(_ status: Int, message: String?) -> Self
}

extension GoogleAPIFailure {
    /// The sentence of a 403 `SERVICE_DISABLED`: the Google `api` is not enabled in the token's project.
    static func apiNotEnabledSentence(_ api: String, message: String) -> String {
        "the Google \(api) is not enabled in the token's Cloud project (HTTP 403: \(message)); enable it in the "
            + "Cloud console"
    }

    /// The sentence of a 404 on the app: `owner` has no app `package` that the account can see.
    static func appNotFoundSentence(_ owner: String, package: String) -> String {
        "\(owner) has no app \(package) that this account can see (HTTP 404); check the package name and that "
            + "the account is invited to the app"
    }
}

extension PlayDeveloperAPIFailure: GoogleAPIFailure {}
extension PlayDeveloperReportingFailure: GoogleAPIFailure {}

/// A Google API's answer that is not a success, read once: its error envelope, the message
/// with the token taken out, the envelope's reasons and the wait Google asked for.
struct GoogleErrorAnswer {
    /// The answer's status.
    let status: Int
    /// The envelope, `nil` when the body is not one.
    let envelope: GoogleErrorEnvelope.Body?
    /// Google's message, redacted (`no message` when there is none).
    let message: String
    /// Every reason in the envelope.
    let reasons: [String]
    /// The wait Google asked for (`Retry-After`), if any.
    let retryAfter: Duration?

    /// The answer in `response`, its message passed through `redactor`.
    init(_ response: HTTPResponse, redactor: Redactor) {
        status = response.status
        envelope = GoogleErrorEnvelope.decode(response.body)
        message = redactor(envelope?.message ?? "no message")
        reasons = envelope?.reasons ?? []
        retryAfter = HTTPExchange.retryAfter(response)
    }

    /// What the answer means that every Google API means alike: 401, 403, 429 and 5xx retried,
    /// any other status a failure with Google's message when it sent an envelope.
    func verdict<Failure: GoogleAPIFailure>(as: Failure.Type = Failure.self) -> HTTPExchange.Verdict<Failure> {
        let sent = envelope == nil ? nil : message
        switch status {
        case 401:
            return .fail(.unauthorized(message: message))
        case 403:
            return .fail(.forbidden(.init(reasons: reasons, message: message), message: message))
        case 429:
            return .retry(.rateLimited(retryAfter: retryAfter), retryAfter: retryAfter)
        case 500...599:
            return .retry(.httpStatus(status, message: sent), retryAfter: retryAfter)
        default:
            return .fail(.httpStatus(status, message: sent))
        }
    }
}

/// Google's error envelope: `{"error": {"code", "message", "status", "errors": [{"reason"}], "details": [{"reason"}]}}`,
/// as far as the clients read it (the message and the reasons; the status is the answer's own).
struct GoogleErrorEnvelope: Decodable {
    struct Body: Decodable {
        struct Reason: Decodable {
            let reason: String?
        }
        let message: String?
        let errors: [Reason]?
        let details: [Reason]?
    }
    let error: Body

    /// The envelope in a body, or `nil` when the body is not one.
    static func decode(_ body: Data) -> Body? {
        (try? JSONDecoder().decode(GoogleErrorEnvelope.self, from: body))?.error
    }
}

extension GoogleErrorEnvelope.Body {
    /// Every `reason` in `errors` and `details`.
    var reasons: [String] {
        ((errors ?? []) + (details ?? [])).compactMap(\.reason)
    }
}
