import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The one thing the clients need from an HTTP stack: a request sent with a deadline and a body cap.
///
/// The deadline is total: connecting, sending, waiting and reading the whole body all count
/// against it, so a server that trickles its answer a byte at a time cannot stretch an exchange
/// past it (a transport may also give up earlier on a connection that goes quiet).
///
/// ``URLSessionTransport`` is the default; backend code can plug in its own client.
public protocol HTTPTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameters:
    ///   - request: The method, URL, headers and body.
    ///   - timeout: The most the whole exchange may take, from sending to the body's last byte.
    ///   - maximumBodySize: The most bytes of body to accept; stop reading past it. A request with
    ///     a ``HTTPRequest/bodyPrefix`` stops there instead and returns what it read.
    /// - Returns: The status, headers and body, whatever the status; a redirect is returned as
    ///   it is, not followed (the clients follow it, or refuse it, themselves).
    /// - Throws: ``HTTPTransportError``: ``HTTPTransportError/timedOut`` once `timeout` has passed,
    ///   however much of the answer had arrived.
    func send(_ request: HTTPRequest, timeout: Duration, maximumBodySize: Int) async throws(HTTPTransportError)
        -> HTTPResponse
}

/// A request as the clients send it.
///
/// Its description and dump leave out the value of an `Authorization` header, so a request that
/// carries a token can be logged.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `DELETE`…
    public var method: String
    /// Where to send it.
    public var url: URL
    /// Header fields, names as given.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// The most of the answer's body to read, for a caller that needs the status (a webhook).
    ///
    /// Past this many bytes (and never more than the transport's cap) reading stops and the
    /// response is returned with what was read, never ``HTTPTransportError/bodyTooLarge``.
    /// `nil`, the default: the whole body, within the cap.
    public var bodyPrefix: Int?

    /// Makes a request; a `GET` without headers or body by default, reading the whole answer.
    public init(
        method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, bodyPrefix: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bodyPrefix = bodyPrefix
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `POST https://…` and the header names, never a credential's value.
    public var description: String {
        let names = headers.keys.sorted().joined(separator: ", ")
        return "\(method) \(url.absoluteString)" + (names.isEmpty ? "" : " (headers: \(names))")
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The method, URL and header names only, so `dump` shows no credential.
    public var customMirror: Mirror {
        Mirror(self, children: ["method": method, "url": url, "headerNames": headers.keys.sorted()])
    }
}

/// An HTTP response as the client sees it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public let status: Int
    /// The headers, names lowercased.
    public let headers: [String: String]
    /// The whole body, or as much as the request's prefix asked for.
    ///
    /// Its first ``HTTPRequest/bodyPrefix`` bytes when the request asked for no more.
    public let body: Data

    /// Makes a response; header names are lowercased.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }
}

/// Why an exchange produced no complete response.
public enum HTTPTransportError: Error, Sendable, Hashable {
    /// No complete response within the timeout (however much of it had arrived).
    case timedOut
    /// The body grew past the cap; reading stopped.
    case bodyTooLarge
    /// The connection closed before the body was complete.
    case truncated(received: Int, expected: Int?)
    /// The connection failed.
    case connection(String)
    /// The task was cancelled.
    case cancelled

    /// Whether trying again may help: a timeout, a cut-off body or a failed connection.
    var isTransient: Bool {
        switch self {
        case .timedOut, .truncated, .connection: return true
        case .bodyTooLarge, .cancelled: return false
        }
    }
}
