import Foundation

/// Why an App Store Connect call failed; the ``description`` says what happened and what to do.
///
/// No case holds a token or key material: Apple's `detail` is kept with the token taken out.
public enum AppStoreConnectError: Error, Sendable, Hashable {
    /// The request itself is wrong (a malformed bundle id, platform or base URL).
    case invalidRequest(String)
    /// The token could not be made (signing failed).
    case signing(String)
    /// 401 `NOT_AUTHORIZED`, even with a fresh token.
    case unauthorized(detail: String)
    /// 403: the key's role may not read this, or an agreement is missing.
    case forbidden(code: String, detail: String)
    /// No such app (404, or no app with that bundle id).
    case appNotFound(String)
    /// Still rate-limited (429) after the retries.
    case rateLimited(retryAfter: Duration?)
    /// Any other error status, with Apple's code and detail when it sent them.
    case httpStatus(Int, code: String?, detail: String?)
    /// The body is not JSON.
    case notJSON(contentType: String?, start: String)
    /// The body is JSON but not what the API sends (the decoding error says where).
    case invalidPayload(String)
    /// The connection closed before the whole body arrived.
    case truncated(received: Int, expected: Int?)
    /// The body is larger than the client accepts.
    case bodyTooLarge(limit: Int)
    /// No complete answer within the timeout.
    case timedOut(after: Duration)
    /// The connection failed.
    case transport(String)
    /// The call was cancelled.
    case cancelled
    /// A redirect to `origin` was not followed: the token is never sent to another origin.
    case redirected(to: String)

    /// Whether asking again later cannot help: the key, its rights or the app are wrong.
    public var isPermanent: Bool {
        switch self {
        case .invalidRequest, .signing, .unauthorized, .forbidden, .appNotFound, .redirected: return true
        case .rateLimited, .httpStatus, .notJSON, .invalidPayload, .truncated, .bodyTooLarge, .timedOut, .transport,
            .cancelled:
            return false
        }
    }
}

extension AppStoreConnectError: HTTPClientError {}

extension AppStoreConnectError: CustomStringConvertible {
    /// A sentence that names what failed and what to try.
    public var description: String {
        switch self {
        case .invalidRequest(let message):
            return message
        case .signing(let message):
            return "cannot make an App Store Connect token: \(message)"
        case .unauthorized(let detail):
            return "App Store Connect refused the token (HTTP 401: \(detail)); check the key id, the issuer id and "
                + "that the key is not revoked"
        case .forbidden(let code, let detail):
            return "App Store Connect forbids this (HTTP 403 \(code): \(detail)); the key needs a role that reads "
                + "apps (Developer, App Manager or Admin) and every agreement must be accepted"
        case .appNotFound(let app):
            return "App Store Connect has no app \(app) that this key can see"
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { " (Apple asked to wait \(AppStoreLookupError.seconds($0)))" } ?? ""
            return "rate-limited by App Store Connect (HTTP 429)\(wait); the key's hourly budget is spent"
        case .httpStatus(let status, let code, let detail):
            return "HTTP status \(status) from App Store Connect"
                + [code, detail].compactMap { $0 }.map { ": \($0)" }.joined()
        case .notJSON(let contentType, let start):
            return "App Store Connect's answer is not JSON (Content-Type \(contentType ?? "none"); it starts "
                + "\(start.debugDescription))"
        case .invalidPayload(let message):
            return "the answer is not what App Store Connect sends: \(message)"
        case .truncated(let received, let expected):
            return "App Store Connect's answer was cut off after \(received)\(expected.map { " of \($0)" } ?? "") bytes"
        case .bodyTooLarge(let limit):
            return "App Store Connect's answer is larger than \(limit) bytes"
        case .timedOut(let after):
            return "no answer from App Store Connect within \(AppStoreLookupError.seconds(after))"
        case .transport(let message):
            return "the connection to App Store Connect failed: \(message)"
        case .cancelled:
            return "the App Store Connect call was cancelled"
        case .redirected(let origin):
            return "App Store Connect answered with a redirect to \(origin), which is not followed: the token is "
                + "never sent to another host (check --asc-base-url, or a proxy in between)"
        }
    }
}

/// Apple's error document: `{"errors": [{"status", "code", "title", "detail"}]}`.
struct AppleErrorDocument: Decodable {
    struct Entry: Decodable {
        let status: String?
        let code: String?
        let title: String?
        let detail: String?
    }
    let errors: [Entry]

    /// The first error in a body, or `nil` when the body is not Apple's error document.
    static func first(in body: Data) -> Entry? {
        (try? JSONDecoder().decode(AppleErrorDocument.self, from: body))?.errors.first
    }
}

/// The key's hourly request budget, from `X-Rate-Limit: user-hour-lim:3600;user-hour-rem:3599;`.
public struct RateLimitBudget: Sendable, Hashable, CustomStringConvertible {
    /// Requests allowed in the rolling hour.
    public let limit: Int
    /// Requests left.
    public let remaining: Int

    /// Reads the header; `nil` when it is absent or malformed.
    public init?(header: String?) {
        guard let header else { return nil }
        var values: [String: Int] = [:]
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, let value = Int(pair[1]) { values[pair[0]] = value }
        }
        guard let limit = values["user-hour-lim"], let remaining = values["user-hour-rem"], limit > 0 else {
            return nil
        }
        self.limit = limit
        self.remaining = remaining
    }

    /// Whether less than a tenth of the hour's budget is left.
    public var isLow: Bool { remaining * 10 < limit }

    /// `120 of 3600 requests left this hour`.
    public var description: String { "\(remaining) of \(limit) App Store Connect requests left this hour" }
}
