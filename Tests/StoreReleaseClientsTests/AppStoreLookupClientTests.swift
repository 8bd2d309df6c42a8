import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels

/// The client against a real HTTP server on 127.0.0.1 serving the fixtures and the faults.
@Suite struct AppStoreLookupClientTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func client(
        _ scenario: String, token: String = UUID().uuidString, timeout: Duration = .seconds(5),
        retry: RetryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10)),
        maximumBodySize: Int = 4 << 20
    ) throws -> AppStoreLookupClient {
        let configuration = HTTPClientConfiguration(
            baseURL: server.baseURL(scenario, token: token), timeout: timeout, retry: retry,
            maximumBodySize: maximumBodySize)
        return try AppStoreLookupClient(configuration: configuration, rateLimiter: RateLimiter(requests: 10_000))
    }

    func expectError(
        _ expected: (HTTPClientError) -> Bool, in body: () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch let error as HTTPClientError {
            #expect(expected(error), "got \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected an HTTPClientError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func findsWeChatInTheChineseStorefront() async throws {
        let release = try await client("ok").lookup(id: 414_478_124, country: StorefrontCountry("cn"))
        #expect(release.store == .appStore)
        #expect(release.version?.description == "8.0.2")
        #expect(release.bundleID == "com.tencent.xin")
        #expect(release.name == "微信")
        #expect(release.country?.code == "cn")
        #expect(release.minimumOSVersion == (try Version(parsing: "11.0")))
        #expect(release.storeURL?.absoluteString == "https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4")
        #expect(release.releaseDate.map(ISO8601Timestamp.string(from:)) == "2021-02-02T08:15:22Z")
    }

    @Test func anAppSoldOnlyInChinaIsNotFoundElsewhereAndTheErrorSaysSo() async throws {
        let client = try client("ok")
        await expectError(
            { $0 == .lookup(.notFound(query: "App Store id 414478124", country: nil)) },
            in: {
                _ = try await client.lookup(id: 414_478_124)
            })
        let error = HTTPClientError.lookup(.notFound(query: "App Store id 414478124", country: nil))
        #expect(error.description.contains("the default storefront (us)"))
        #expect(error.description.contains("try another country"))
    }

    @Test func looksUpByBundleID() async throws {
        let release = try await client("ok").lookup(
            bundleID: "com.tinyspeck.slackmacgap", country: StorefrontCountry("US"))
        #expect(release.appID == "803453959")
        #expect(release.version?.description == "3.3.3")
    }

    @Test func batchesManyIDsIntoAsFewRequestsAsTheLimitAllowsAndMatchesThemBack() async throws {
        let token = UUID().uuidString
        let real = [640_199_958, 975_937_182, 736_189_492, 803_453_959, 904_280_696]
        let ids = real + Array(1...445) + real  // 450 distinct ids, duplicates asked twice
        let releases = try await client("ok", token: token).lookup(ids: ids, country: .unitedStates)
        #expect(Set(releases.keys) == Set(real))
        #expect(releases[803_453_959]?.bundleID == "com.tinyspeck.slackmacgap")
        let stats = try server.stats(token: token)
        #expect(stats.requests == 3)
        #expect(stats.ids.map(\.count) == [200, 200, 50])
    }

    @Test func asksEveryStorefrontForEveryIDTwoHundredARequestAndNamesWhatIsMissing() async throws {
        let token = UUID().uuidString
        let (us, cn, de) = (try StorefrontCountry("us"), try StorefrontCountry("cn"), try StorefrontCountry("de"))
        // 450 ids in 3 storefronts (us twice): ids 100 to 199 are sold only in us.
        let ids = Array(100..<550)
        let result = try await client("sweep", token: token).lookup(
            ids.map(AppStoreApp.id), in: [us, cn, StorefrontCountry("US"), de])
        let stats = try server.stats(token: token)
        #expect(stats.requests == 9, "3 requests of at most 200 ids in each of 3 storefronts")
        #expect(stats.ids.map(\.count) == [200, 200, 50, 200, 200, 50, 200, 200, 50])
        #expect(result.found.count == 450 + 350 + 350)
        #expect(result.found.prefix(450).map(\.appID) == ids.map { String($0) }, "us first, in the order of the ids")
        #expect(result.found.prefix(450).allSatisfy { $0.country == us })
        #expect(result.missing.count == 200 && !result.isComplete)
        #expect(result.missing.first == StorefrontLookup.Missing(country: cn, app: .id(100)))
        #expect(Set(result.missing.map(\.country)) == [cn, de])
        let names = (100...199).map(String.init).joined(separator: ", ")
        #expect(result.missingDescription == "no result for App Store ids \(names) in storefronts cn, de")
    }

    @Test func aStorefrontGivenManyTimesInAnyCaseIsAskedOnce() async throws {
        let token = UUID().uuidString
        let us = try ["us", "US", "usa", "USA"].map { code in try StorefrontCountry(code) }
        let copies = Array(repeating: us, count: 2_500).flatMap { $0 }
        #expect(copies.count == 10_000)
        let result = try await client("sweep", token: token).lookup([.id(414_478_124)], in: copies)
        #expect(result.found.count == 1 && result.isComplete)
        #expect(try server.stats(token: token).requests == 1)
        let sweep = try await client("sweep", token: token).sweep(.id(414_478_124), in: copies)
        let requests = try server.stats(token: token).requests
        #expect(sweep.count == 1 && requests == 2)
    }

    @Test func aBundleIDMissingInAStorefrontIsAPairAndTheRestIsFound() async throws {
        let (us, ru) = (try StorefrontCountry("us"), try StorefrontCountry("ru"))
        let result = try await client("sweep").lookup([.bundleID("com.tencent.xin")], in: [ru, us])
        #expect(result.found.map(\.country) == [us])
        #expect(result.missing == [StorefrontLookup.Missing(country: ru, app: .bundleID("com.tencent.xin"))])
        #expect(result.missingDescription == "no result for bundle id com.tencent.xin in storefront ru")
        let empty = try client("sweep")
        await expectError(
            { $0 == .lookup(.invalidRequest("no App Store id or bundle id given")) },
            in: { _ = try await empty.lookup([], in: [us]) })
    }

    /// A fault the lookup meets, what the lookup ends with and how many requests it took.
    struct RetryCase: Sendable, CustomTestStringConvertible {
        /// What the lookup ends with.
        enum Outcome: Sendable, Equatable {
            /// The release, of this version.
            case found(String)
            /// This HTTP status, after the requests.
            case status(Int)
            /// Rate-limited, the server asking to wait this long.
            case rateLimited(Duration)
        }

        let scenario: String
        let outcome: Outcome
        let requests: Int
        var testDescription: String { "\(scenario): \(outcome) after \(requests)" }
    }

    /// A 503 or 429 is retried (a Retry-After within the maximum waited out), up to three
    /// requests; a 404, or a Retry-After longer than the maximum, ends the lookup at once.
    static let retryCases: [RetryCase] = [
        RetryCase(scenario: "503once", outcome: .found("8.0.2"), requests: 2),
        RetryCase(scenario: "503always", outcome: .status(503), requests: 3),
        RetryCase(scenario: "429once", outcome: .found("8.0.2"), requests: 2),
        RetryCase(scenario: "429long", outcome: .rateLimited(.seconds(3600)), requests: 1),
        RetryCase(scenario: "404", outcome: .status(404), requests: 1),
    ]

    @Test(arguments: retryCases)
    func aFaultIsRetriedAsItsKindAllows(_ fault: RetryCase) async throws {
        let token = UUID().uuidString
        let client = try client(fault.scenario, token: token)
        let china = try StorefrontCountry("cn")
        let outcome: RetryCase.Outcome
        do throws(HTTPClientError) {
            let release = try await client.lookup(id: 414_478_124, country: china)
            outcome = .found(release.version?.description ?? "none")
        } catch {
            switch error.reason {
            case .lookup(.httpStatus(let status, _)): outcome = .status(status)
            case .lookup(.rateLimited(let retryAfter?)): outcome = .rateLimited(retryAfter)
            default: throw error
            }
        }
        #expect(outcome == fault.outcome)
        #expect(try server.stats(token: token).requests == fault.requests)
    }

    @Test func anHTMLCaptivePortalIsNotJSON() async throws {
        let client = try client("html")
        await expectError(
            { error in
                if case .lookup(.exchange(.notJSON(let type, let start))) = error.reason {
                    type == "text/html" && start.hasPrefix("<!DOCTYPE html>")
                } else {
                    false
                }
            },
            in: {
                _ = try await client.lookup(id: 414_478_124)
            })
    }

    @Test func aTruncatedBodyIsReported() async throws {
        let client = try client("truncated")
        await expectError(
            { if case .lookup(.exchange(.truncated(_, let expected))) = $0.reason { expected == 1000 } else { false } },
            in: {
                _ = try await client.lookup(id: 414_478_124)
            })
    }

    @Test func anOversizedBodyIsRefusedWhileReading() async throws {
        let client = try client("huge", maximumBodySize: 1 << 20)
        await expectError(
            { $0 == .lookup(.exchange(.bodyTooLarge(limit: 1 << 20))) },
            in: {
                _ = try await client.lookup(id: 414_478_124)
            })
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let client = try client("hang", timeout: .milliseconds(500), retry: .none)
        await expectError(
            { $0 == .lookup(.exchange(.timedOut(after: .milliseconds(500)))) },
            in: {
                _ = try await client.lookup(id: 414_478_124)
            })
    }

    @Test func aServerThatTricklesItsAnswerTimesOutAtTheDeadline() async throws {
        // The headers at once, then a byte a second for 30 s: never quiet for 2 s, so only a
        // deadline on the whole exchange ends it (the hang guard is not a timing assertion).
        let client = try client("trickle", timeout: .seconds(2), retry: .none)
        await expectError(
            { $0 == .lookup(.exchange(.timedOut(after: .seconds(2)))) },
            in: {
                _ = try await endingWithin("the trickled lookup ends", deadline: .seconds(60)) {
                    try await client.lookup(id: 414_478_124)
                }
            })
    }

    @Test func cancellationStopsAHangingLookup() async throws {
        let token = UUID().uuidString
        // Generous limits: on a loaded 2-core machine (the whole suite at once) the request can take
        // many seconds to reach the fake, and it must still be the cancellation that ends it, not
        // the client's timeout (the waits are hang guards, not timing assertions).
        let client = try client("hang", token: token, timeout: .seconds(120), retry: .none)
        let task = Task { try await client.lookup(id: 414_478_124) }
        try await until("the server holds the request", deadline: .seconds(90)) {
            (try? server.stats(token: token).requests) == 1
        }
        task.cancel()
        await expectError({ $0 == .lookup(.exchange(.cancelled)) }, in: { _ = try await task.value })
    }

    @Test func anEmptyResultIsNotFound() async throws {
        let client = try client("empty")
        await expectError(
            {
                $0 == .lookup(.notFound(query: "bundle id com.tencent.xin", country: StorefrontCountry.unitedStates))
            },
            in: {
                _ = try await client.lookup(bundleID: "com.tencent.xin", country: .unitedStates)
            })
    }

    @Test func aDifferentBundleIDIsAMismatch() async throws {
        let client = try client("wrongbundle")
        await expectError(
            { $0 == .lookup(.bundleIDMismatch(asked: "com.tencent.xin", returned: "com.example.other")) },
            in: {
                _ = try await client.lookup(bundleID: "com.tencent.xin", country: StorefrontCountry("cn"))
            })
    }

    @Test func aVersionThatDoesNotParseIsAnErrorNamingTheFieldAndValue() async throws {
        let client = try client("badversion")
        await expectError(
            { error in
                if case .lookup(.exchange(.invalidPayload(let message))) = error.reason {
                    message.hasPrefix("results[0].version: version is not a version: \"1.4 (18)\"")
                } else {
                    false
                }
            },
            in: {
                _ = try await client.lookup(id: 414_478_124, country: StorefrontCountry("cn"))
            })
    }

    @Test func aResultCountThatDisagreesWithTheResultsIsTolerated() async throws {
        let client = try client("miscount")
        let response = try await client.response(
            for: AppStoreLookupRequest(ids: [414_478_124], country: StorefrontCountry("cn")))
        #expect(response.declaredResultCount == 7)
        #expect(response.results.count == 1)
    }

    @Test func plainHTTPIsOnlyForLoopback() throws {
        for base in ["http://itunes.apple.com", "ftp://127.0.0.1", "http://10.0.0.1:8080"] {
            let configuration = HTTPClientConfiguration(baseURL: try #require(URL(string: base)))
            #expect(throws: HTTPClientError.self, "\(base)") {
                try AppStoreLookupClient(configuration: configuration)
            }
        }
        for base in ["https://itunes.apple.com", "http://127.0.0.1:8080", "http://localhost:1"] {
            let configuration = HTTPClientConfiguration(baseURL: try #require(URL(string: base)))
            #expect(throws: Never.self, "\(base)") { try AppStoreLookupClient(configuration: configuration) }
        }
    }
}
