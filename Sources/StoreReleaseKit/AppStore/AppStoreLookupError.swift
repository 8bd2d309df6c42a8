import Foundation

/// Why an App Store lookup failed; the ``description`` says what happened and what to try.
public enum AppStoreLookupError: Error, Sendable, Hashable {
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
    /// The body is not JSON: a captive portal or an error page (`contentType` as sent).
    case notJSON(contentType: String?, start: String)
    /// The body is JSON but not a lookup response (the decoding error says where).
    case invalidPayload(String)
    /// The connection closed before the whole body arrived.
    case truncated(received: Int, expected: Int?)
    /// The body is larger than the client accepts.
    case bodyTooLarge(limit: Int)
    /// No complete answer within the timeout.
    case timedOut(after: Duration)
    /// The app found has another bundle id than the one asked for.
    case bundleIDMismatch(asked: String, returned: String)
    /// The connection failed (DNS, refused, reset).
    case transport(String)
    /// The lookup was cancelled.
    case cancelled
    /// A redirect to `origin` was not followed.
    ///
    /// It was not https (or http on loopback), or there were too many.
    case redirected(to: String)
}

extension AppStoreLookupError: CustomStringConvertible {
    /// A sentence that names what failed and, where there is one, what to try.
    public var description: String {
        switch self {
        case .invalidRequest(let message):
            return message
        case .notFound(let query, let country):
            let storefront = country.map { "storefront \($0.code)" } ?? "the default storefront (us)"
            return "not found in \(storefront): \(query); an app sold only in some countries is found "
                + "only in their storefronts: try another country (--country cn)"
        case .httpStatus(let status, let url):
            return "HTTP status \(status) from \(url)"
        case .rejected(let status, let message):
            return "the App Store refused the lookup (HTTP \(status)): \(message)"
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { " (the server asked to wait \(Self.seconds($0)))" } ?? ""
            return "rate-limited by the App Store (HTTP 429)\(wait); Apple allows about 20 lookups a minute"
        case .throttled:
            return "throttled by the App Store (a bare HTTP 403, after waiting and retrying); Apple allows about "
                + "20 lookups a minute: try again later"
        case .notJSON(let contentType, let start):
            return "the answer is not JSON (Content-Type \(contentType ?? "none"); it starts "
                + "\(start.debugDescription)): a captive portal or a proxy error page?"
        case .invalidPayload(let message):
            return "the answer is not a lookup response: \(message)"
        case .truncated(let received, let expected):
            let of = expected.map { " of \($0)" } ?? ""
            return "the answer was cut off after \(received)\(of) bytes"
        case .bodyTooLarge(let limit):
            return "the answer is larger than \(limit) bytes; a lookup response is far smaller"
        case .timedOut(let after):
            return "no answer within \(Self.seconds(after))"
        case .bundleIDMismatch(let asked, let returned):
            return "asked for bundle id \(asked) but the App Store returned \(returned)"
        case .transport(let message):
            return "the connection failed: \(message)"
        case .cancelled:
            return "the lookup was cancelled"
        case .redirected(let origin):
            return "the lookup was redirected to \(origin), which is not followed (not https, or too many redirects)"
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\((seconds * 100).rounded() / 100) s"
    }
}
