import Foundation
import StoreReleaseCore
import StoreReleaseModels

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (`FoundationNetworking` on Linux).
///
/// The body is read as it arrives and the request cancelled as soon as it passes the cap; a
/// body shorter than its `Content-Length` is reported as truncated. Nothing is cached. Redirects
/// are not followed: the 3xx answer is returned, and the clients decide (a credential never
/// goes to another origin; a same-origin redirect keeps the method and the body).
public struct URLSessionTransport: HTTPTransport {
    /// Makes a transport; each request uses its own ephemeral session.
    public init() {}

    /// Sends a request; see ``HTTPTransport/send(_:timeout:maximumBodySize:)``.
    public func send(_ request: HTTPRequest, timeout: Duration, maximumBodySize: Int) async throws(HTTPTransportError)
        -> HTTPResponse
    {
        let seconds = timeout.seconds
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        let collector = BodyCollector(limit: maximumBodySize)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: seconds)
        urlRequest.httpMethod = request.method
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let task = session.dataTask(with: urlRequest)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.start(task, continuation)
            }
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }
}

/// Collects one task's body, enforcing the cap, and resumes the waiting caller once.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var body = Data()
    private var response: HTTPURLResponse?
    private var tooLarge = false
    private var continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>?

    init(limit: Int) {
        self.limit = limit
    }

    func start(
        _ task: URLSessionDataTask, _ continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>
    ) {
        lock.withLock { self.continuation = continuation }
        task.resume()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let declared = http.map { Int($0.expectedContentLength) } ?? -1
        let allowed = lock.withLock {
            self.response = http
            if declared > limit { tooLarge = true }
            return !tooLarge
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    /// Never follows a redirect: the redirect itself is the answer (see ``HTTPExchange``).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            body.append(data)
            if body.count > limit { tooLarge = true }
            return tooLarge
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = lock.withLock {
            () -> (
                CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>?,
                Result<HTTPResponse, HTTPTransportError>
            ) in
            let pending = self.continuation
            self.continuation = nil
            return (pending, outcome(error))
        }
        continuation?.resume(returning: result)
    }

    /// What the finished task amounts to. Called with the lock held.
    private func outcome(_ error: (any Error)?) -> Result<HTTPResponse, HTTPTransportError> {
        if tooLarge { return .failure(.bodyTooLarge) }
        let expected = response.flatMap { $0.expectedContentLength >= 0 ? Int($0.expectedContentLength) : nil }
        if let error {
            let code = (error as? URLError)?.code
            switch code {
            case .timedOut?: return .failure(.timedOut)
            case .cancelled?: return .failure(.cancelled)
            default:
                // A response that began and stopped short of its Content-Length was cut off,
                // whatever name the URL loading system gives the failure.
                if response != nil, let expected, body.count < expected {
                    return .failure(.truncated(received: body.count, expected: expected))
                }
                if response != nil, code == .networkConnectionLost {
                    return .failure(.truncated(received: body.count, expected: expected))
                }
                return .failure(.connection(error.localizedDescription))
            }
        }
        guard let response else { return .failure(.connection("no HTTP response")) }
        if let expected, body.count < expected {
            return .failure(.truncated(received: body.count, expected: expected))
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(HTTPResponse(status: response.statusCode, headers: headers, body: body))
    }
}
