import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Why an App Store lookup failed, in the lookup's words: what an ``HTTPClientError`` of the lookup
/// holds; the ``description`` says what happened and what to try.
package enum AppStoreLookupFailure: Error, Sendable, Hashable {
    /// The request itself is wrong (an empty id list, a malformed bundle id or base URL).
    case invalidRequest(String)
    /// The storefront has no such app. Apps sold in some countries only are found only there.
    case notFound(query: String, country: StorefrontCountry?)
    /// The server answered with an HTTP error status (after retries, for 5xx).
    case httpStatus(Int, url: String)
    /// The lookup API refused the request with its own error body.
    ///
    /// The body is `{"errorMessage": …}`, sent with HTTP 400 for a malformed query.
    case rejected(status: Int, message: String)
    /// Still rate-limited (HTTP 429) after the retries; `retryAfter` is the server's wait, if any.
    case rateLimited(retryAfter: Duration?)
    /// Still refused with a bare 403 after the retries.
    ///
    /// A 403 without a body is the lookup API's other way of throttling.
    case throttled
    /// The app found has another bundle id than the one asked for.
    case bundleIDMismatch(asked: String, returned: String)
    /// The exchange gave no answer the client can read.
    ///
    /// A timeout, a cut-off or foreign body, a failed connection, a redirect not followed, or
    /// cancellation: the same ``ExchangeFailure`` for every client.
    case exchange(ExchangeFailure)
}

extension AppStoreLookupFailure: StoreAPIFailure {
    package var code: HTTPClientError.Code {
        switch self {
        case .invalidRequest: .invalidRequest
        case .notFound: .notFound
        case .httpStatus, .rejected: .httpStatus
        case .rateLimited, .throttled: .rateLimited
        case .bundleIDMismatch: .otherApp
        case .exchange(let failure): failure.code
        }
    }

    /// A request, an app or a redirect that is wrong; an app not found may appear later.
    package var isPermanent: Bool {
        switch self {
        case .invalidRequest, .bundleIDMismatch, .exchange(.redirected): true
        case .notFound, .httpStatus, .rejected, .rateLimited, .throttled, .exchange: false
        }
    }

    package var error: HTTPClientError { .lookup(self) }
}

extension AppStoreLookupFailure: CustomStringConvertible {
    /// A sentence that names what failed and, where there is one, what to try.
    package var description: String {
        switch self {
        case .invalidRequest(let message):
            return message
        case .notFound(let query, let country):
            let storefront = country.map { "storefront \($0.code)" } ?? "the default storefront (us)"
            return "not found in \(storefront): \(query); an app sold only in some countries is found "
                + "only in their storefronts: try another country (\(FailureHint.storefront("cn").words))"
        case .httpStatus(let status, let url):
            return Self.statusSentence(status, from: url)
        case .rejected(let status, let message):
            return "the App Store refused the lookup (HTTP \(status)): \(message)"
        case .rateLimited(let retryAfter):
            return Self.rateLimitedSentence(by: "the App Store", asker: "the server", retryAfter: retryAfter)
                + "; Apple allows about 20 lookups a minute"
        case .throttled:
            return "throttled by the App Store (a bare HTTP 403, after waiting and retrying); Apple allows about "
                + "20 lookups a minute: try again later"
        case .bundleIDMismatch(let asked, let returned):
            return "asked for bundle id \(asked) but the App Store returned \(returned)"
        case .exchange(let failure):
            return failure.description(api: "the App Store lookup")
        }
    }
}
