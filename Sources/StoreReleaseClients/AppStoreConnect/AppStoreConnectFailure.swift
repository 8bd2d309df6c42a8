import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Why an App Store Connect call failed, in its words: what an ``HTTPClientError`` of App Store
/// Connect holds; the ``description`` says what happened and what to do.
///
/// No case holds a token or key material: Apple's `detail` is kept with the token taken out.
package enum AppStoreConnectFailure: Error, Sendable, Hashable {
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
    /// The exchange gave no answer the client can read.
    ///
    /// A timeout, a cut-off or foreign body, a failed connection, a redirect not followed, or
    /// cancellation: the same ``ExchangeFailure`` for every client.
    case exchange(ExchangeFailure)

    /// Whether asking again later cannot help: the key, its rights or the app are wrong.
    package var isPermanent: Bool {
        switch self {
        case .invalidRequest, .signing, .unauthorized, .forbidden, .appNotFound, .exchange(.redirected): return true
        case .rateLimited, .httpStatus, .exchange:
            return false
        }
    }
}

extension AppStoreConnectFailure: StoreAPIFailure {
    package var code: HTTPClientError.Code {
        switch self {
        case .invalidRequest: .invalidRequest
        case .signing: .signing
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .appNotFound: .notFound
        case .rateLimited: .rateLimited
        case .httpStatus: .httpStatus
        case .exchange(let failure): failure.code
        }
    }

    package var error: HTTPClientError { .connect(self) }
}

extension AppStoreConnectFailure: CustomStringConvertible {
    /// A sentence that names what failed and what to try.
    package var description: String {
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
            return Self.rateLimitedSentence(by: "App Store Connect", asker: "Apple", retryAfter: retryAfter)
                + "; the key's hourly budget is spent"
        case .httpStatus(let status, let code, let detail):
            return Self.statusSentence(status, from: "App Store Connect", details: [code, detail])
        case .exchange(let failure):
            return failure.description(api: "App Store Connect")
        }
    }
}

/// Apple's error document: `{"errors": [{"status", "code", "title", "detail"}]}`, as far as the
/// client reads it (the status is the answer's own).
struct AppleErrorDocument: Decodable {
    struct Entry: Decodable {
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
