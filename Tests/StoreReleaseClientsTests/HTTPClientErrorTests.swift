import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels
import Testing

/// One error for every client: a caller decides by the code and `isPermanent`, whatever API failed.
@Suite struct HTTPClientErrorTests {
    @Test func theSameKindOfFailureHasTheSameCodeFromEveryClient() {
        let notFound: [HTTPClientError] = [
            .lookup(.notFound(query: "App Store id 1", country: nil)),
            .play(.packageNotFound("com.example.app")),
            .play(.trackNotFound("beta", available: nil)), .playReporting(.packageNotFound("com.example.app")),
            .connect(.appNotFound("1")),
        ]
        #expect(notFound.allSatisfy { $0.code == .notFound }, "\(notFound.map(\.code))")
        let timedOut: [HTTPClientError] = [
            .lookup(.exchange(.timedOut(after: .seconds(10)))), .play(.exchange(.timedOut(after: .seconds(30)))),
            .connect(.exchange(.timedOut(after: .seconds(30)))),
        ]
        #expect(timedOut.allSatisfy { $0.code == .timedOut && !$0.isPermanent })
        let invalid: [HTTPClientError] = [
            .lookup(.invalidRequest("a")), .play(.invalidRequest("b")), .connect(.invalidRequest("c")),
        ]
        #expect(invalid.allSatisfy { $0.code == .invalidRequest && $0.isPermanent })
        #expect(HTTPClientError.lookup(.throttled).code == .rateLimited)
        #expect(HTTPClientError.play(.notInvited(message: "m")).code == .forbidden)
        #expect(HTTPClientError.lookup(.bundleIDMismatch(asked: "a.b", returned: "c.d")).code == .otherApp)
        #expect(HTTPClientError.connect(.exchange(.redirected(to: "https://elsewhere"))).isPermanent)
        #expect(HTTPClientError.playReporting(.forbidden(.scopeInsufficient, message: "m")).code == .forbidden)
        #expect(HTTPClientError.playReporting(.invalidValue("rate")).code == .invalidPayload)
        #expect(HTTPClientError.playReporting(.invalidValue("rate")).isPermanent)
        #expect(HTTPClientError.Code.notFound.description == "notFound")
    }

    /// The sentences every API words alike (a 429, another status, Google's 403 and 404) are built
    /// in one place, each still naming its own API, word for word.
    @Test(arguments: [
        (
            HTTPClientError.lookup(.rateLimited(retryAfter: .seconds(30))),
            "rate-limited by the App Store (HTTP 429) (the server asked to wait 30 s); Apple allows about 20 "
                + "lookups a minute"
        ),
        (
            .lookup(.httpStatus(503, url: "https://itunes.apple.com/lookup")),
            "HTTP status 503 from https://itunes.apple.com/lookup"
        ),
        (
            .connect(.rateLimited(retryAfter: nil)),
            "rate-limited by App Store Connect (HTTP 429); the key's hourly budget is spent"
        ),
        (
            .connect(.httpStatus(500, code: "UNEXPECTED_ERROR", detail: "try again")),
            "HTTP status 500 from App Store Connect: UNEXPECTED_ERROR: try again"
        ),
        (.connect(.httpStatus(502, code: nil, detail: nil)), "HTTP status 502 from App Store Connect"),
        (
            .play(.rateLimited(retryAfter: .milliseconds(1500))),
            "rate-limited by the Play Developer API (HTTP 429) (Google asked to wait 1.5 s)"
        ),
        (
            .play(.httpStatus(500, message: "Internal error encountered.")),
            "HTTP status 500 from the Play Developer API: Internal error encountered."
        ),
        (
            .play(.forbidden(.apiNotEnabled, message: "m")),
            "the Google Play Android Developer API is not enabled in the token's Cloud project (HTTP 403: m); "
                + "enable it in the Cloud console"
        ),
        (
            .play(.packageNotFound("com.example.app")),
            "Google Play has no app com.example.app that this account can see (HTTP 404); check the package "
                + "name and that the account is invited to the app"
        ),
        (.playReporting(.rateLimited(retryAfter: nil)), "rate-limited by the Play Developer Reporting API (HTTP 429)"),
        (.playReporting(.httpStatus(404, message: nil)), "HTTP status 404 from the Play Developer Reporting API"),
        (
            .playReporting(.forbidden(.apiNotEnabled, message: "m")),
            "the Google Play Developer Reporting API is not enabled in the token's Cloud project (HTTP 403: m); "
                + "enable it in the Cloud console"
        ),
        (
            .playReporting(.packageNotFound("com.example.app")),
            "the Play Developer Reporting API has no app com.example.app that this account can see (HTTP 404); "
                + "check the package name and that the account is invited to the app"
        ),
    ])
    func theSentencesEveryAPIWordsAlikeKeepEachAPIsWords(error: HTTPClientError, sentence: String) {
        #expect(error.description == sentence)
    }

    /// Every client refuses a base URL that is not `https` before it sends anything, as its own
    /// API's invalid request (the check is made once, where each client makes its exchange).
    @Test func everyClientRefusesAnHTTPBaseURLAsItsOwnInvalidRequest() throws {
        let configuration = HTTPClientConfiguration(baseURL: try #require(URL(string: "http://example.com")))
        let token = try BearerToken("t")
        let problem =
            #"base URL "http://example.com" must be https (http only on a loopback address: localhost or 127.x.x.x"#
        func reason(_ make: () throws(HTTPClientError) -> Void) -> HTTPClientError.Reason? {
            do {
                try make()
                return nil
            } catch {
                return error.reason
            }
        }
        let reasons = [
            reason { () throws(HTTPClientError) in _ = try AppStoreLookupClient(configuration: configuration) },
            reason { () throws(HTTPClientError) in
                _ = try PlayDeveloperAPIClient(token: token, configuration: configuration)
            },
            reason { () throws(HTTPClientError) in
                _ = try PlayDeveloperReportingClient(token: token, configuration: configuration)
            },
            reason { () throws(HTTPClientError) in
                _ = try AppStoreConnectClient(credentials: .token(token), configuration: configuration)
            },
        ]
        let messages = reasons.map { reason -> String? in
            switch reason {
            case .lookup(.invalidRequest(let message)), .play(.invalidRequest(let message)),
                .playReporting(.invalidRequest(let message)), .connect(.invalidRequest(let message)):
                return message
            default: return nil
            }
        }
        #expect(messages.allSatisfy { $0?.hasPrefix(problem) == true }, "\(reasons)")
        guard case .lookup = reasons[0], case .play = reasons[1], case .playReporting = reasons[2],
            case .connect = reasons[3]
        else {
            Issue.record("not each client's own failure: \(reasons)")
            return
        }
    }

    @Test func theDescriptionIsTheAPIsOwnSentence() {
        let error = HTTPClientError.lookup(.notFound(query: "App Store id 414478124", country: nil))
        #expect(
            error.description
                == "not found in the default storefront (us): App Store id 414478124; an app sold only in some "
                + "countries is found only in their storefronts: try another country (storefront cn)")
        #expect(
            HTTPClientError.play(.exchange(.cancelled)).description
                == "the call to the Play Developer API was cancelled")
    }
}
