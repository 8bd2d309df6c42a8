import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One request sent the way every client here sends them: within a timeout and a body cap,
/// after the rate limiter (if any) allows it, and again with back-off while the answer says a
/// retry may help.
///
/// Redirects are followed here, not by the transport: to the same origin with the same method,
/// headers and body; to another origin only when the request carries no `Authorization` and the
/// target is https (or http on loopback), else the exchange fails with
/// ``ExchangeFailure/redirected(to:)`` naming where it pointed. At most five hops.
///
/// The clients differ only in what an answer means, which each says through `judge`.
struct HTTPExchange: Sendable {
    /// What an answer (or a failed exchange) means for the client.
    enum Verdict<Failure: Error> {
        /// The answer to return.
        case success
        /// A failure that another attempt may fix, after at least the server's wait if it gave one.
        case retry(Failure, retryAfter: Duration?)
        /// A failure to report now.
        case fail(Failure)
        /// The server is throttling without saying for how long: every request through the shared
        /// rate limiter pauses for `wait`, then this one is tried again.
        case throttle(Failure, wait: Duration)
    }

    let transport: any HTTPTransport
    /// The host, timeout, retries and body cap, the base URL's scheme lower-cased.
    let configuration: HTTPClientConfiguration
    /// The limiter every request waits for, if the API has one.
    let rateLimiter: RateLimiter?

    /// Makes the exchange of a client of `Failure`'s API; the base URL is kept normalized
    /// (``HTTPClientConfiguration/normalized``).
    ///
    /// - Throws: `Failure.invalidRequest`'s ``HTTPClientError`` when the configuration has a
    ///   problem (``HTTPClientConfiguration/problem``): every client refuses it alike.
    init<Failure: StoreAPIFailure>(
        checking configuration: HTTPClientConfiguration, transport: any HTTPTransport, rateLimiter: RateLimiter? = nil,
        failure _: Failure.Type
    ) throws(HTTPClientError) {
        if let problem = configuration.problem { throw Failure.invalidRequest(problem).error }
        self.transport = transport
        self.configuration = configuration.normalized
        self.rateLimiter = rateLimiter
    }

    private var timeout: Duration { configuration.timeout }
    private var retry: RetryPolicy { configuration.retry }
    private var maximumBodySize: Int { configuration.maximumBodySize }

    /// Sends `request` until it succeeds, fails for good, or the attempts run out.
    ///
    /// An exchange that produced no response becomes the client's error of the same name, and is
    /// retried when ``HTTPTransportError/isTransient``.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - once: A write that must never be sent twice (a commit, a `PATCH`, an App Recovery
    ///     create or deploy): whatever happens to it — a 5xx, a 429, a timeout, a dropped
    ///     connection — it is not sent again, since the store may have applied it; the caller
    ///     reads the store back instead. Redirects are still followed (nothing was applied).
    ///   - judge: What a response means.
    /// - Returns: The response `judge` called a success.
    /// - Throws: The ``HTTPClientError`` of the client's failure for the last attempt.
    func send<Failure: StoreAPIFailure>(
        _ request: HTTPRequest, once: Bool = false, judge: (HTTPResponse) -> Verdict<Failure>
    ) async throws(HTTPClientError) -> HTTPResponse {
        do throws(Failure) {
            return try await attempts(request, once: once, judge: judge)
        } catch {
            throw error.error
        }
    }

    /// ``send(_:once:judge:)``, failing with the client's own failure.
    private func attempts<Failure: StoreAPIFailure>(
        _ request: HTTPRequest, once: Bool, judge: (HTTPResponse) -> Verdict<Failure>
    ) async throws(Failure) -> HTTPResponse {
        let cancelled = Failure.exchange(.cancelled)
        var attempt = 1
        var request = request
        var hops = 0
        while true {
            let verdict: Verdict<Failure>
            var answer: HTTPResponse?
            do {
                try await rateLimiter?.acquire()
            } catch {
                throw cancelled
            }
            var redirect: URL?
            do throws(HTTPTransportError) {
                let response = try await transport.send(request, timeout: timeout, maximumBodySize: maximumBodySize)
                redirect = Self.redirectTarget(of: response, from: request.url)
                answer = response
                verdict = redirect == nil ? judge(response) : .success
            } catch {
                if error == .cancelled { throw cancelled }
                let failure = failure(error, as: Failure.self)
                verdict = error.isTransient ? .retry(failure, retryAfter: nil) : .fail(failure)
            }
            if let target = redirect {
                hops += 1
                let origin = Origin(target)
                let crossing = origin != Origin(request.url)
                guard hops <= Self.maximumRedirects,
                    !crossing || (request.headers["Authorization"] == nil && origin.isSafeForCredentials)
                else { throw Failure.exchange(.redirected(to: origin.description)) }
                request.url = target
                continue
            }
            if once {
                switch verdict {
                case .retry(let failure, _), .throttle(let failure, _): throw failure
                case .success, .fail: break
                }
            }
            switch verdict {
            case .success:
                if let answer { return answer }
                throw cancelled
            case .fail(let failure):
                throw failure
            case .throttle(let failure, let wait):
                guard attempt < retry.maximumAttempts else { throw failure }
                if let rateLimiter {
                    await rateLimiter.pause(for: wait)
                } else {
                    do {
                        try await Task.sleep(for: wait)
                    } catch {
                        throw cancelled
                    }
                }
                attempt += 1
            case .retry(let failure, let retryAfter):
                let delay = retry.delay(beforeRetry: attempt, jitter: Double.random(in: 0...1))
                guard attempt < retry.maximumAttempts else { throw failure }
                var wait = delay
                if let retryAfter {
                    guard retryAfter <= retry.maximumRetryAfter else { throw failure }
                    wait = max(retryAfter, delay)
                }
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    throw cancelled
                }
                attempt += 1
            }
        }
    }

    /// The most redirects one exchange follows.
    static let maximumRedirects = 5

    /// Where a redirect (301, 302, 303, 307, 308 with a `Location`) points, resolved against the
    /// request's URL; `nil` for any other answer.
    static func redirectTarget(of response: HTTPResponse, from url: URL) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"],
            let target = URL(string: location, relativeTo: url)?.absoluteURL
        else { return nil }
        return Origin.normalized(target)
    }

    /// The client's error for a transport failure.
    private func failure<Failure: StoreAPIFailure>(_ error: HTTPTransportError, as: Failure.Type) -> Failure {
        .exchange(ExchangeFailure(error, timeout: timeout, maximumBodySize: maximumBodySize))
    }

    /// The `Retry-After` header's wait, if the response has one.
    static func retryAfter(_ response: HTTPResponse) -> Duration? {
        RetryPolicy.retryAfter(response.headers["retry-after"], now: Date())
    }

    /// Decodes a response's JSON body: a body that is not a JSON object is
    /// ``ExchangeFailure/notJSON(contentType:start:)`` (its first characters, redacted before the
    /// cut), one that does not decode ``ExchangeFailure/invalidPayload(_:)`` saying where (redacted).
    static func decode<T: Decodable, Failure: StoreAPIFailure>(
        _ type: T.Type, from response: HTTPResponse, failing: Failure.Type, redactor: Redactor = Redactor()
    ) throws(HTTPClientError) -> T {
        let body = response.body
        guard StrictJSON.firstByte(of: body) == UInt8(ascii: "{") else {
            let start = redactor.start(of: body, length: 60)
            throw Failure.exchange(
                .notJSON(contentType: response.headers["content-type"].map { redactor($0) }, start: start)
            ).error
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw Failure.exchange(.invalidPayload(redactor(error.readableDescription))).error
        } catch {
            throw Failure.exchange(.invalidPayload(redactor(String(describing: error)))).error
        }
    }
}
