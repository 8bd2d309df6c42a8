import Foundation

/// The one thing the lookup client needs from an HTTP stack: a GET with a deadline and a body cap.
///
/// ``URLSessionTransport`` is the default; backend code can plug in its own client.
public protocol HTTPTransport: Sendable {
    /// Fetches a URL.
    ///
    /// - Parameters:
    ///   - url: The URL to GET.
    ///   - timeout: The most the whole exchange may take.
    ///   - maximumBodySize: The most bytes of body to accept; stop reading past it.
    /// - Returns: The status, headers and body, whatever the status.
    /// - Throws: ``HTTPTransportError``.
    func get(_ url: URL, timeout: Duration, maximumBodySize: Int) async throws(HTTPTransportError) -> HTTPResponse
}

/// An HTTP response as the client sees it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public let status: Int
    /// The headers, names lowercased.
    public let headers: [String: String]
    /// The whole body.
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
    /// No complete response within the timeout.
    case timedOut
    /// The body grew past the cap; reading stopped.
    case bodyTooLarge
    /// The connection closed before the body was complete.
    case truncated(received: Int, expected: Int?)
    /// The connection failed.
    case connection(String)
    /// The task was cancelled.
    case cancelled
}
