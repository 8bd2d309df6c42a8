import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels

/// The lookup payload, StoreRelease and its JSON, requests, storefronts, links, retry and rate
/// limit bookkeeping: everything of the App Store side that needs no network.
@Suite struct AppStoreModelTests {
    static let fixtures = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/appstore")

    static func response(_ name: String) throws -> AppStoreLookupResponse {
        try JSONDecoder().decode(
            AppStoreLookupResponse.self, from: Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    @Test(arguments: [
        ("wechat-cn.json", "8.0.2"), ("apple-developer-us.json", "8.0"), ("slack-mac-us.json", "3.3.3"),
        ("things-mac-us.json", "3.8"), ("fantastical-mac-us.json", "2.5.6"), ("notability-mac-us.json", "3.1"),
    ])
    func everyFixtureDecodes(_ name: String, _ version: String) throws {
        let response = try Self.response(name)
        #expect(response.results.count == 1)
        #expect(response.declaredResultCount == 1)
        #expect(response.results[0].version.description == version)
    }

    @Test func theWeChatPayloadKeepsEveryField() throws {
        let wechat = try Self.response("wechat-cn.json").results[0]
        #expect(wechat.trackId == 414_478_124)
        #expect(wechat.averageUserRating == 4.36329999999999973425701682572253048419952392578125)
        #expect(wechat.userRatingCount == 5_710_077)
        #expect(wechat.fileSizeBytes == "477456384")
        #expect(wechat.genreIds == ["6005", "6007"])
        #expect(wechat.price == 0)
        #expect(wechat.formattedPrice == "免费")
        #expect(wechat.supportedDevices?.count == 65)
        #expect(wechat.minimumOsVersion?.description == "11.0")
        #expect(wechat.appDescription?.hasPrefix("微信是一款") == true)
        #expect(wechat.releaseNotes?.contains("解决了一些已知问题") == true)
        #expect(wechat.isGameCenterEnabled == false)
        #expect(wechat.kind == "software")
    }

    @Test func macResultsLackIOSFields() throws {
        let slack = try Self.response("slack-mac-us.json").results[0]
        #expect(slack.kind == "mac-software")
        #expect(slack.supportedDevices == nil)
        #expect(slack.ipadScreenshotUrls == nil)
        #expect(slack.minimumOsVersion?.description == "10.9")
    }

    static func decodeError(_ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode(AppStoreLookupResponse.self, from: Data(json.utf8))
            return nil
        } catch let error as DecodingError {
            return error.readableDescription
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (
            #"{"results":[{"trackId":1,"bundleId":"a","trackName":"A","version":"abc"}]}"#,
            #"results[0].version: version is not a version: "abc": unexpected character "a" at offset 0"#
        ),
        (#"{"results":[{"trackId":1,"bundleId":"a","trackName":"A"}]}"#, "missing key version in results[0]"),
        (
            #"{"results":[{"trackId":"1","bundleId":"a","trackName":"A","version":"1"}]}"#,
            "results[0].trackId: expected Int"
        ),
        (
            #"{"results":[{"trackId":1,"bundleId":"a","trackName":"A","version":"1","currentVersionReleaseDate":"yesterday"}]}"#,
            #"results[0].currentVersionReleaseDate: currentVersionReleaseDate is not an ISO 8601 date: "yesterday""#
        ),
        (
            #"{"results":[{"trackId":1,"bundleId":"a","trackName":"A","version":"1","minimumOsVersion":"iOS 11"}]}"#,
            #"results[0].minimumOsVersion: minimumOsVersion is not a version: "iOS 11""#
        ),
        (#"{"resultCount":0}"#, "missing key results"),
    ])
    func strictWhereItMattersWithErrorsThatNameTheFieldAndValue(_ json: String, _ message: String) {
        let error = Self.decodeError(json)
        #expect(error?.hasPrefix(message) == true, "got \(String(describing: error))")
    }

    @Test func tolerantWhereTheAPIIsLoose() throws {
        let json = #"""
            {"resultCount": 3, "unknown": true, "results": [{"trackId": 1, "bundleId": "a", "trackName": "A",
             "version": "1.0", "price": 1, "averageUserRating": 4, "newKeyFrom2030": {"x": 1},
             "minimumOsVersion": null, "features": []}]}
            """#
        let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: Data(json.utf8))
        #expect(response.declaredResultCount == 3 && response.results.count == 1)
        #expect(response.results[0].price == 1 && response.results[0].averageUserRating == 4)
        #expect(response.results[0].minimumOsVersion == nil)
    }

    @Test func storeReleaseJSONHasEveryContractKeyWithNullForAbsentValues() throws {
        let wechat = try Self.response("wechat-cn.json").results[0]
        let release = StoreRelease(wechat, country: try StorefrontCountry("cn"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(release)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let keys = [
            "store", "appID", "bundleID", "name", "version", "versionCode", "country", "releaseDate",
            "releaseNotes", "minimumOSVersion", "storeURL", "updatePriority", "clientVersionStalenessDays",
            "allowedUpdateTypes",
        ]
        #expect(Set(object.keys) == Set(keys))
        #expect(object["store"] as? String == "appStore")
        #expect(object["appID"] as? String == "414478124")
        #expect(object["version"] as? String == "8.0.2")
        #expect(object["country"] as? String == "cn")
        #expect(object["releaseDate"] as? String == "2021-02-02T08:15:22Z")
        #expect(object["minimumOSVersion"] as? String == "11.0")
        #expect(object["versionCode"] is NSNull && object["updatePriority"] is NSNull)
        #expect(object["allowedUpdateTypes"] is NSNull)
        #expect(try JSONDecoder().decode(StoreRelease.self, from: data) == release)
    }

    @Test func theStoreURLComesFromThePayloadOnlyOnAnAppleHostOverHTTPS() throws {
        let trusted = [
            "https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4",
            "https://itunes.apple.com/us/app/众驾租车/id1197227551?mt=8&uo=4",
            "https://APPS.apple.com/us/app/id1",
        ]
        for text in trusted { #expect(AppStoreLinks.trusted(trackViewUrl: text) != nil, "\(text)") }
        #expect(
            AppStoreLinks.trusted(trackViewUrl: trusted[1])?.absoluteString
                == "https://itunes.apple.com/us/app/%E4%BC%97%E9%A9%BE%E7%A7%9F%E8%BD%A6/id1197227551?mt=8&uo=4")
        // Found by the LookupPayload fuzzer: an upper-case scheme was trusted and returned as is,
        // so the "https" a caller checks for was "httpS".
        #expect(
            AppStoreLinks.trusted(trackViewUrl: "httpS://Apps.Apple.com/us/app/slack/id803453959?mt=12")?.absoluteString
                == "https://apps.apple.com/us/app/slack/id803453959?mt=12")
        let untrusted = [
            "http://apps.apple.com/us/app/id1", "https://apps.apple.com.evil.example/us/app/id1",
            "https://evil.example/apps.apple.com", "https://user@apps.apple.com/us/app/id1",
            "https://apps.apple.com:8443/us/app/id1", "javascript:alert(1)", "", "itms-apps://apps.apple.com/app/id1",
        ]
        for text in untrusted { #expect(AppStoreLinks.trusted(trackViewUrl: text) == nil, "\(text)") }
        let wechat = try Self.response("wechat-cn.json").results[0]
        let json =
            #"{"results":[{"trackId":414478124,"bundleId":"a","trackName":"A","version":"1","trackViewUrl":"https://evil.example/x"}]}"#
        let evil = try JSONDecoder().decode(AppStoreLookupResponse.self, from: Data(json.utf8)).results[0]
        #expect(
            StoreRelease(evil, country: try StorefrontCountry("jp")).storeURL?.absoluteString
                == "https://apps.apple.com/jp/app/id414478124")
        #expect(StoreRelease(wechat, country: nil).storeURL?.host == "apps.apple.com")
    }

    @Test func linksForTheAppStoreAppAndTheMacAppStore() throws {
        let cn = try StorefrontCountry("cn")
        #expect(
            AppStoreLinks.web(trackId: 414_478_124, country: cn).absoluteString
                == "https://apps.apple.com/cn/app/id414478124")
        #expect(
            AppStoreLinks.appStoreApp(trackId: 1, country: cn).absoluteString == "itms-apps://apps.apple.com/cn/app/id1"
        )
        #expect(AppStoreLinks.macAppStore(trackId: 1).absoluteString == "macappstore://apps.apple.com/us/app/id1")
    }

    @Test func requestsAreBuiltAndPercentEncoded() throws {
        let cn = try StorefrontCountry("CHN")
        let byID = try AppStoreLookupRequest(
            ids: [414_478_124, 1], country: cn, entity: .macSoftware, language: "ZH_CN")
        #expect(
            byID.url().absoluteString
                == "https://itunes.apple.com/lookup?id=414478124%2C1&country=cn&entity=macSoftware&lang=zh_cn")
        let byBundle = try AppStoreLookupRequest(bundleID: "com.tencent.xin", cacheBuster: "a b")
        let base = try #require(URL(string: "http://127.0.0.1:9/t/ok/"))
        #expect(
            byBundle.url(baseURL: base).absoluteString
                == "http://127.0.0.1:9/t/ok/lookup?bundleId=com.tencent.xin&_=a%20b")
    }

    @Test(arguments: [
        ([], "no App Store id given"), ([0], "App Store id 0 is not a positive number"),
        (Array(1...201), "201 ids in one request; the API takes at most 200"),
    ])
    func badIDListsAreRefused(_ ids: [Int], _ message: String) {
        #expect(throws: HTTPClientError.lookup(.invalidRequest(message))) { try AppStoreLookupRequest(ids: ids) }
    }

    @Test func badBundleIDsAndLanguagesAreRefused() {
        for bundle in ["", "com.tencent xin", "com/tencent", "com.微信", "a&b=c"] {
            #expect(throws: HTTPClientError.self, "\(bundle)") { try AppStoreLookupRequest(bundleID: bundle) }
        }
        for language in ["english", "en-us", "e_us", "en_usa", "12_34"] {
            #expect(throws: HTTPClientError.self, "\(language)") {
                try AppStoreLookupRequest(ids: [1], language: language)
            }
        }
    }

    @Test func storefrontsAreISOCountriesInEitherForm() throws {
        #expect(try StorefrontCountry("cn").code == "cn")
        #expect(try StorefrontCountry("CN").code == "cn")
        #expect(try StorefrontCountry("CHN").code == "cn")
        #expect(try StorefrontCountry("jpn").code == "jp")
        #expect(try StorefrontCountry("GBR").code == "gb")
        for bad in ["", "x", "zz", "china", "C N", "XXX", "中国", "bd", "BGD"] {
            #expect(throws: StorefrontCountryError(input: bad)) { try StorefrontCountry(bad) }
        }
        #expect(
            StorefrontCountryError(input: "zz").description
                == #""zz" is not an App Store storefront (the App Store has 175: give two letters such as us or cn, "#
                + "or three such as CHN; storerelease storefronts lists them)")
    }

    @Test func backOffGrowsExponentiallyWithinTheJitterBand() {
        let policy = RetryPolicy(maximumAttempts: 5, baseDelay: .milliseconds(500), maximumDelay: .seconds(4))
        #expect(policy.delay(beforeRetry: 1, jitter: 0) == .milliseconds(250))
        #expect(policy.delay(beforeRetry: 1, jitter: 1) == .milliseconds(500))
        #expect(policy.delay(beforeRetry: 2, jitter: 1) == .seconds(1))
        #expect(policy.delay(beforeRetry: 3, jitter: 1) == .seconds(2))
        #expect(policy.delay(beforeRetry: 10, jitter: 1) == .seconds(4))
        #expect(policy.delay(beforeRetry: 10, jitter: 0) == .seconds(2))
        #expect(RetryPolicy(maximumAttempts: 0).maximumAttempts == 1)
    }

    @Test func retryAfterIsSecondsOrAnHTTPDate() throws {
        let now = try #require(ISO8601Timestamp.date(from: "2015-10-21T07:28:00Z"))
        #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120))
        #expect(RetryPolicy.retryAfter(" 0 ", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
    }

    @Test func theRateLimitWindowNeverGrantsMoreThanTheLimitInAnyPeriod() {
        var window = RateLimitWindow(limit: 2, period: .seconds(60))
        #expect(window.reserve(at: .zero) == .zero)
        #expect(window.reserve(at: .zero) == .zero)
        #expect(window.reserve(at: .seconds(1)) == .seconds(60))
        #expect(window.reserve(at: .seconds(2)) == .seconds(60))
        #expect(window.reserve(at: .seconds(3)) == .seconds(120))
        #expect(window.reserve(at: .seconds(500)) == .seconds(500))

        var random = SeededGenerator(state: 9)
        var busy = RateLimitWindow(limit: 20, period: .seconds(60))
        var now = Duration.zero
        var starts: [Duration] = []
        for _ in 0..<500 {
            now += .milliseconds(Int.random(in: 0..<3000, using: &random))
            starts.append(busy.reserve(at: now))
        }
        for (index, start) in starts.enumerated() {
            let inWindow = starts[index...].prefix { $0 < start + .seconds(60) }.count
            #expect(inWindow <= 20)
        }
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 })
    }
}

@Suite struct RateLimiterTests {
    @Test func aCallerOverTheLimitWaitsForItsTurnAndCanBeCancelled() async throws {
        let limiter = RateLimiter(requests: 1, per: .seconds(3600))
        try await limiter.acquire()  // the one request of the hour
        let second = Task { try await limiter.acquire() }
        try await until("the second caller is waiting its turn") { await limiter.reservedSlots == 2 }
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
    }

    @Test func concurrentLookupsShareOneLimiter() async throws {
        // Three clients, one limiter of two requests an hour: two lookups go through, the
        // third waits (and is cancelled here rather than waiting an hour).
        let server = try LoopbackServer.shared.get()
        let limiter = RateLimiter(requests: 2, per: .seconds(3600))
        let clients = try (0..<3).map { _ in
            try AppStoreLookupClient(
                configuration: .init(baseURL: server.baseURL("ok"), retry: .none), rateLimiter: limiter)
        }
        let cn = try StorefrontCountry("cn")
        _ = try await clients[0].lookup(id: 414_478_124, country: cn)
        _ = try await clients[1].lookup(id: 414_478_124, country: cn)
        let third = Task { try await clients[2].lookup(id: 414_478_124, country: cn) }
        try await until("the third lookup is waiting its turn") { await limiter.reservedSlots == 3 }
        third.cancel()
        await #expect(throws: HTTPClientError.lookup(.exchange(.cancelled))) { try await third.value }
    }
}

/// Apple's lookup API also throttles with a bare 403: the client waits and retries, and every
/// lookup through the same limiter is held back meanwhile.
@Suite struct LookupThrottleTests {
    @Test func aBare403IsThrottlingThatARetryOutlasts() async throws {
        let server = try LoopbackServer.shared.get()
        let token = UUID().uuidString
        let limiter = RateLimiter(requests: 10_000)
        let retry = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10), throttleWait: .milliseconds(50))
        let client = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("403once", token: token), retry: retry), rateLimiter: limiter)
        let release = try await client.lookup(id: 414_478_124, country: StorefrontCountry("cn"))
        #expect(release.version?.description == "8.0.2")
        #expect(try server.stats(token: token).requests == 2)

        let always = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("403always"), retry: retry), rateLimiter: limiter)
        await #expect(throws: HTTPClientError.lookup(.throttled)) {
            try await always.lookup(id: 414_478_124, country: StorefrontCountry("cn"))
        }
        #expect(HTTPClientError.lookup(.throttled).description.contains("bare HTTP 403"))
        let notThrottling = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("404"), retry: retry), rateLimiter: limiter)
        await #expect(throws: HTTPClientError.self) { try await notThrottling.lookup(id: 1) }
    }

    @Test func aPauseHoldsEveryLaterRequestBack() {
        var window = RateLimitWindow(limit: 100, period: .seconds(60))
        #expect(window.reserve(at: .seconds(1)) == .seconds(1))
        window.pause(until: .seconds(31))
        #expect(window.reserve(at: .seconds(2)) == .seconds(31))
        #expect(window.reserve(at: .seconds(40)) == .seconds(40))
        window.pause(until: .seconds(10))
        #expect(window.reserve(at: .seconds(41)) == .seconds(41), "a shorter pause does not shorten a longer one")
    }
}
