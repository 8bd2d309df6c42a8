import Foundation
import StoreReleaseCore

/// Why an exchange with a store's API gave no answer the client can read.
///
/// Every API's failure carries it the same way, and an ``HTTPClientError`` gives it a code of
/// its own (``HTTPClientError/Code/timedOut``…), so a caller handles a timeout or a proxy's error
/// page once for all the APIs.
package enum ExchangeFailure: Error, Sendable, Hashable {
    /// The body is not JSON: a captive portal or a proxy's error page.
    ///
    /// `contentType` is as sent, `start` the body's first characters, cut after every credential
    /// (and every 12 of its characters) was taken out.
    case notJSON(contentType: String?, start: String)
    /// The body is JSON but not what the API sends (the decoding error says where).
    case invalidPayload(String)
    /// The connection closed before the whole body arrived.
    case truncated(received: Int, expected: Int?)
    /// The body is larger than the client accepts.
    case bodyTooLarge(limit: Int)
    /// No complete answer within the timeout.
    case timedOut(after: Duration)
    /// The connection failed (DNS, refused, reset).
    case connection(String)
    /// A redirect to `origin` was not followed.
    ///
    /// It pointed at another origin while the request carried a credential, it was not https
    /// (or http on loopback), or there were too many.
    case redirected(to: String)
    /// The call was cancelled.
    case cancelled

    /// What a transport's failure is, for an exchange with this timeout and body cap.
    package init(_ error: HTTPTransportError, timeout: Duration, maximumBodySize: Int) {
        switch error {
        case .timedOut: self = .timedOut(after: timeout)
        case .bodyTooLarge: self = .bodyTooLarge(limit: maximumBodySize)
        case .truncated(let received, let expected): self = .truncated(received: received, expected: expected)
        case .connection(let message): self = .connection(message)
        case .cancelled: self = .cancelled
        }
    }

    /// A sentence naming the API (`the Play Developer API`) and what went wrong.
    package func description(api: String) -> String {
        switch self {
        case .notJSON(let contentType, let start):
            return "the answer from \(api) is not JSON (Content-Type \(contentType ?? "none"); it starts "
                + "\(start.debugDescription)): a captive portal or a proxy's error page?"
        case .invalidPayload(let message):
            return "the answer is not what \(api) sends: \(message)"
        case .truncated(let received, let expected):
            return "the answer from \(api) was cut off after \(received)\(expected.map { " of \($0)" } ?? "") bytes"
        case .bodyTooLarge(let limit):
            return "the answer from \(api) is larger than \(limit) bytes"
        case .timedOut(let after):
            return "no complete answer from \(api) within \(Self.seconds(after))"
        case .connection(let message):
            return "the connection to \(api) failed: \(message)"
        case .redirected(let origin):
            return "\(api) answered with a redirect to \(origin), which is not followed: a credential is never sent "
                + "to another host, nor anything over plain http (check the base URL, or a proxy in between)"
        case .cancelled:
            return "the call to \(api) was cancelled"
        }
    }

    /// A duration as people read it: `30 s`, `0.5 s`.
    package static func seconds(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\((seconds * 100).rounded() / 100) s"
    }
}
