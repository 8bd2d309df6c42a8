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
