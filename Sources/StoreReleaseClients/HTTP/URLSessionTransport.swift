import Foundation
import StoreReleaseCore
import StoreReleaseModels

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (`FoundationNetworking` on Linux).
///
/// The timeout is the whole exchange's deadline, kept here by a timer of its own that cancels
/// the request when it passes: `URLSession`'s own request timeout (set to the same value) only
/// measures the silence between two packets, and on Linux `FoundationNetworking` keeps no other,
/// so a server trickling a byte a second would otherwise hold a request for as long as it liked. The body is read as it arrives and the request cancelled as soon as it
/// passes the cap (or, with ``HTTPRequest/bodyPrefix``, once the prefix is read); a body shorter
/// than its `Content-Length` is reported as truncated (with a prefix asked for, it is the answer:
/// that caller judges by the status). Nothing is cached. Redirects are not
/// followed: the 3xx answer is returned, and the clients decide (a credential never goes to
/// another origin; a same-origin redirect keeps the method and the body).
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
        let collector = BodyCollector(limit: maximumBodySize, prefix: request.bodyPrefix)
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
                collector.start(task, deadline: .now() + seconds, continuation)
            }
        } onCancel: {
            collector.end(task, .cancelled)
        }
        return try result.get()
    }
}

/// Collects one task's body, enforcing the cap and the deadline, and resumes the waiting caller
/// once: with the task's outcome, or with the deadline or a cancellation, whichever comes first.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Continuation = CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>

    private let lock = NSLock()
    private let limit: Int
    /// The bytes to read before answering, when the caller wants only a prefix.
    private let prefix: Int?
    private var body = Data()
    private var response: HTTPURLResponse?
    private var tooLarge = false
    private var continuation: Continuation?
    /// Why the exchange was ended from outside, before the task finished (then the caller has its answer).
    private var ended: HTTPTransportError?

    init(limit: Int, prefix: Int?) {
        self.limit = limit
        self.prefix = prefix.map { max(0, min($0, limit)) }
    }

    /// Starts the task and the deadline's timer; answers at once when the call was already cancelled.
    func start(_ task: URLSessionDataTask, deadline: DispatchTime, _ continuation: Continuation) {
        let early = lock.withLock { () -> HTTPTransportError? in
            if ended == nil { self.continuation = continuation }
            return ended
        }
        if let early { return continuation.resume(returning: .failure(early)) }
        // A dispatch timer, not a task's sleep: the deadline holds however busy the task pool is.
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self, weak task] in
            if let task { self?.end(task, .timedOut) }
        }
        task.resume()
    }

    /// Ends the exchange now with `reason` (the deadline, or a cancellation), unless it has
    /// already ended: the caller gets `reason` and the task is cancelled.
    func end(_ task: URLSessionDataTask, _ reason: HTTPTransportError) {
        finish(.failure(reason), ended: reason)
        task.cancel()
    }

    /// Resumes the caller with `result`, the first time only.
    private func finish(_ result: Result<HTTPResponse, HTTPTransportError>, ended reason: HTTPTransportError? = nil) {
        let pending = lock.withLock { () -> Continuation? in
            if ended == nil { ended = reason }
            let pending = continuation
            continuation = nil
            return pending
        }
        pending?.resume(returning: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let declared = http.map { Int($0.expectedContentLength) } ?? -1
        let (allowed, answer) = lock.withLock { () -> (Bool, HTTPResponse?) in
            self.response = http
            if prefix == 0, let http { return (false, Self.response(http, body: Data())) }
            if prefix == nil, declared > limit { tooLarge = true }
            return (!tooLarge, nil)
        }
        if let answer { finish(.success(answer)) }
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
        let (stop, answer) = lock.withLock { () -> (Bool, HTTPResponse?) in
            if let prefix {
                body.append(data.prefix(max(0, prefix - body.count)))
                guard body.count >= prefix, let response else { return (false, nil) }
                return (true, Self.response(response, body: body))
            }
            body.append(data)
            if body.count > limit { tooLarge = true }
            return (tooLarge, nil)
        }
        if let answer { finish(.success(answer)) }
        if stop { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let result = lock.withLock { outcome(error) }
        finish(result)
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
                // A caller that asked for a prefix judges by the status alone: a body cut short
                // is what was read.
                if prefix != nil, let response { return .success(Self.response(response, body: body)) }
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
        if prefix == nil, let expected, body.count < expected {
            return .failure(.truncated(received: body.count, expected: expected))
        }
        return .success(Self.response(response, body: body))
    }

    /// The response as the clients see it.
    private static func response(_ response: HTTPURLResponse, body: Data) -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: response.statusCode, headers: headers, body: body)
    }
}
