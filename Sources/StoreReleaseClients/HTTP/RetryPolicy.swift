import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// When to try a failed lookup again, and how long to wait first.
///
/// Server errors (5xx), rate limiting (429), timeouts and dropped connections are retried;
/// anything else is an answer. Waits grow exponentially with "equal jitter" (half fixed, half
/// random), so clients that failed together do not retry together, and a `Retry-After` header
/// is honoured when it asks for no more than ``maximumRetryAfter``.
public struct RetryPolicy: Sendable, Hashable {
    /// How many attempts in all, the first included (1 means no retry).
    public var maximumAttempts: Int
    /// The wait before the first retry, before jitter.
    public var baseDelay: Duration
    /// The longest wait between attempts, before jitter.
    public var maximumDelay: Duration
    /// The longest `Retry-After` to wait for; a server asking for more ends the lookup.
    public var maximumRetryAfter: Duration
    /// How long to hold every request back when a server throttles without saying for how long.
    ///
    /// Apple's lookup API answers a bare 403.
    public var throttleWait: Duration

    /// Makes a policy; the defaults suit an interactive check.
    ///
    /// 3 attempts, 0.5 s then 1 s between them, 20 s when throttled.
    public init(
        maximumAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8),
        maximumRetryAfter: Duration = .seconds(30), throttleWait: Duration = .seconds(20)
    ) {
        self.throttleWait = throttleWait
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// No retries at all.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// The wait before a retry.
    ///
    /// - Parameters:
    ///   - retry: Which retry: 1 for the first.
    ///   - jitter: A number in `0...1`; the wait is between half and all of the exponential delay.
    /// - Returns: The wait, at most ``maximumDelay``.
    func delay(beforeRetry retry: Int, jitter: Double) -> Duration {
        let exponential = baseDelay * (1 << min(max(retry - 1, 0), 30))
        let capped = min(exponential, maximumDelay)
        return capped * (0.5 + 0.5 * min(max(jitter, 0), 1))
    }

    /// The wait a `Retry-After` header asks for: whole seconds, or an HTTP date.
    ///
    /// - Returns: `nil` when the header is absent or neither form.
    static func retryAfter(_ header: String?, now: Date) -> Duration? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Int(header), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: header) else { return nil }
        return .milliseconds(Int(max(0, date.timeIntervalSince(now)) * 1000))
    }
}
