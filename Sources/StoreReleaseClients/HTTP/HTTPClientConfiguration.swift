import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// What a client of a store's API does on the wire.
///
/// Where the API is, how long one attempt may take, when to retry, the largest answer it reads
/// and the most pages it follows. One configuration for every client here: ``AppStoreLookupClient``,
/// ``PlayDeveloperAPIClient``, ``PlayDeveloperReportingClient`` and ``AppStoreConnectClient`` each
/// take one, with their defaults as a static value (``appStoreLookup``, ``playDeveloperAPI``,
/// ``playDeveloperReporting``, ``appStoreConnect``). A client checks the base URL
/// when it is made: `https`, or `http` on a loopback address (tests).
///
/// ```swift
/// var configuration = HTTPClientConfiguration.playDeveloperAPI
/// configuration.timeout = .seconds(10)
/// configuration.retry = .none
/// let impatient = try PlayDeveloperAPIClient(token: try BearerToken(token), configuration: configuration)
/// ```
public struct HTTPClientConfiguration: Sendable, Hashable {
    /// Where the API is: the store's host, or a loopback server in tests.
    public var baseURL: URL
    /// The most one attempt of a request may take in all, the whole answer read.
    ///
    /// A server trickling its answer cannot stretch it; a retry gets as long again.
    public var timeout: Duration
    /// When and how to retry.
    public var retry: RetryPolicy
    /// The largest body accepted; reading stops past it.
    public var maximumBodySize: Int
    /// The most pages of one listing a client follows (App Store Connect's `links.next`).
    public var maximumPages: Int

    /// Makes a configuration.
    ///
    /// - Parameters:
    ///   - baseURL: Where the API is.
    ///   - timeout: The most one attempt may take in all; 30 s by default.
    ///   - retry: When and how to retry; the defaults of
    ///     ``RetryPolicy/init(maximumAttempts:baseDelay:maximumDelay:maximumRetryAfter:throttleWait:)``.
    ///   - maximumBodySize: The largest body accepted; 4 MiB by default.
    ///   - maximumPages: The most pages of one listing followed; 40 by default.
    public init(
        baseURL: URL, timeout: Duration = .seconds(30), retry: RetryPolicy = RetryPolicy(),
        maximumBodySize: Int = 4 << 20, maximumPages: Int = 40
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.retry = retry
        self.maximumBodySize = maximumBodySize
        self.maximumPages = maximumPages
    }

    /// What is wrong with the base URL, or `nil` when nothing is (``BaseURL/problem(with:)``).
    package var problem: String? { BaseURL.problem(with: baseURL) }

    /// The configuration as a client keeps it: the base URL's scheme lower-cased.
    package var normalized: HTTPClientConfiguration {
        var configuration = self
        configuration.baseURL = Origin.normalized(baseURL)
        return configuration
    }
}
