import StoreReleaseCore
import StoreReleaseModels

/// Why a call to a store's API failed: one error for every client here.
///
/// ``AppStoreLookupClient``, ``PlayDeveloperAPIClient``, ``PlayDeveloperReportingClient`` and
/// ``AppStoreConnectClient`` all throw it. A caller decides by ``code`` (what kind of failure)
/// and ``isPermanent`` (whether asking again later can help); the ``description`` is a sentence
/// that names the API, what went wrong and what to try, and never holds a token. Codes are static
/// values of a struct, not the cases of a closed enum, so a client or a failure added later is no
/// breaking change:
///
/// ```swift
/// do {
///     _ = try await client.lookup(id: 414478124)  // no country: the US storefront
/// } catch {
///     // Typed throws: `error` is an HTTPClientError; decide by its code.
///     if error.code == .notFound {
///         print(error)  // not found in the default storefront (us): App Store id 414478124; …
///     }
/// }
/// ```
public struct HTTPClientError: Error, Sendable, Hashable {
    /// What went wrong, in the words of the API that failed.
    ///
    /// Indirect, so the error is one reference wherever it is thrown: held inline (a few words of
    /// strings and tags), a Play failure rethrown through an edit's async closures was read back
    /// corrupted by Swift 6.3's debug build about every second run (a freed message string, found
    /// by `PlayDeveloperAPIClientTests.theEditIsDeletedWhenTheReadFails`, 5 crashes in 10 runs;
    /// AddressSanitizer sees nothing, as the task allocator's memory is not its own). Boxed:
    /// 0 in 20.
    package indirect enum Reason: Sendable, Hashable {
        /// A failure of the App Store lookup.
        case lookup(AppStoreLookupFailure)
        /// A failure of the Play Developer API.
        case play(PlayDeveloperAPIFailure)
        /// A failure of the Play Developer Reporting API.
        case playReporting(PlayDeveloperReportingFailure)
        /// A failure of App Store Connect.
        case connect(AppStoreConnectFailure)
    }

    /// What went wrong, with everything the description says.
    package let reason: Reason

    /// An error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// A failure of the App Store lookup.
    package static func lookup(_ failure: AppStoreLookupFailure) -> HTTPClientError { .init(.lookup(failure)) }
    /// A failure of the Play Developer API.
    package static func play(_ failure: PlayDeveloperAPIFailure) -> HTTPClientError { .init(.play(failure)) }
    /// A failure of the Play Developer Reporting API.
    package static func playReporting(_ failure: PlayDeveloperReportingFailure) -> HTTPClientError {
        .init(.playReporting(failure))
    }
    /// A failure of App Store Connect.
    package static func connect(_ failure: AppStoreConnectFailure) -> HTTPClientError { .init(.connect(failure)) }

    /// The failure, whichever API's it is.
    private var failure: any StoreAPIFailure {
        switch reason {
        case .lookup(let failure): failure
        case .play(let failure): failure
        case .playReporting(let failure): failure
        case .connect(let failure): failure
        }
    }

    /// What kind of failure this is: what a caller switches on.
    public var code: Code { failure.code }

    /// Whether asking again later cannot help.
    ///
    /// The request, the credential, the account's rights or the app are wrong, or a redirect was
    /// refused. A command that polls stops at once on these.
    public var isPermanent: Bool { failure.isPermanent }
}

extension HTTPClientError: CustomStringConvertible {
    /// A sentence that names the API, what failed and, where there is one, what to try.
    public var description: String { failure.description }
}

extension HTTPClientError {
    /// What kind of failure an ``HTTPClientError`` is.
    ///
    /// A struct with static values, backed by a closed enum of its own: a switch over codes has
    /// a `default`, so a code added later breaks no caller.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Representation: String, Sendable, Hashable {
            case invalidRequest, signing, unauthorized, forbidden, notFound, otherApp, conflict, rateLimited
            case httpStatus, notJSON, invalidPayload, truncated, bodyTooLarge, timedOut, connection, redirected
            case cancelled
        }

        private let representation: Representation

        private init(_ representation: Representation) {
            self.representation = representation
        }

        /// The request itself is wrong.
        ///
        /// An id, a bundle id, a package or track name, a base URL (the command-line tool exits 2).
        public static let invalidRequest = Code(.invalidRequest)
        /// An App Store Connect token could not be made (signing failed).
        public static let signing = Code(.signing)
        /// The token is missing, expired or wrong (HTTP 401).
        public static let unauthorized = Code(.unauthorized)
        /// The token's account may not do this: a scope, a role, an invitation, an agreement.
        public static let forbidden = Code(.forbidden)
        /// No such app, package or track, or none in this storefront.
        public static let notFound = Code(.notFound)
        /// The app found is another one than the one asked for (its bundle id differs).
        public static let otherApp = Code(.otherApp)
        /// Another tool is changing the app (HTTP 409), or deleted the edit being read.
        public static let conflict = Code(.conflict)
        /// Still rate-limited or throttled after the retries.
        public static let rateLimited = Code(.rateLimited)
        /// Any other error status (after the retries, for 5xx).
        public static let httpStatus = Code(.httpStatus)
        /// The body is not JSON: a captive portal or a proxy's error page.
        public static let notJSON = Code(.notJSON)
        /// The body is JSON but not what the API sends.
        public static let invalidPayload = Code(.invalidPayload)
        /// The connection closed before the whole body arrived.
        public static let truncated = Code(.truncated)
        /// The body is larger than the client accepts.
        public static let bodyTooLarge = Code(.bodyTooLarge)
        /// No complete answer within the timeout.
        public static let timedOut = Code(.timedOut)
        /// The connection failed (DNS, refused, reset).
        public static let connection = Code(.connection)
        /// A redirect was not followed: to another host with a credential, or not over https.
        public static let redirected = Code(.redirected)
        /// The call was cancelled.
        public static let cancelled = Code(.cancelled)

        /// The code's name: `notFound`, `timedOut`.
        public var description: String { representation.rawValue }
    }
}

/// A failure of one API, in that API's words: what ``HTTPClientError`` holds.
package protocol StoreAPIFailure: Error, CustomStringConvertible {
    /// The failure for a request that is wrong before it is sent (a base URL that is not `https`).
    static func invalidRequest(_ message: String) -> Self
    /// The failure for an exchange that gave no answer the client can read.
    static func exchange(_ failure: ExchangeFailure) -> Self
    /// What kind of failure it is.
    var code: HTTPClientError.Code { get }
    /// Whether asking again later cannot help.
    var isPermanent: Bool { get }
    /// The error a client throws for it.
    var error: HTTPClientError { get }
}

extension StoreAPIFailure {
    /// The sentence of a 429 after the retries: `rate-limited by <api> (HTTP 429)`, then the wait
    /// `asker` asked for, when it said one (` (Google asked to wait 30 s)`).
    static func rateLimitedSentence(by api: String, asker: String, retryAfter: Duration?) -> String {
        let wait = retryAfter.map { " (\(asker) asked to wait \(ExchangeFailure.seconds($0)))" } ?? ""
        return "rate-limited by \(api) (HTTP 429)\(wait)"
    }

    /// The sentence of an error status no case names: `HTTP status 500 from <api>`, then each
    /// detail the API sent, after a colon.
    static func statusSentence(_ status: Int, from api: String, details: [String?] = []) -> String {
        "HTTP status \(status) from \(api)" + details.compactMap { $0 }.map { ": \($0)" }.joined()
    }
}

extension ExchangeFailure {
    /// The code of an exchange that gave no answer the client can read.
    package var code: HTTPClientError.Code {
        switch self {
        case .notJSON: .notJSON
        case .invalidPayload: .invalidPayload
        case .truncated: .truncated
        case .bodyTooLarge: .bodyTooLarge
        case .timedOut: .timedOut
        case .connection: .connection
        case .redirected: .redirected
        case .cancelled: .cancelled
        }
    }
}
