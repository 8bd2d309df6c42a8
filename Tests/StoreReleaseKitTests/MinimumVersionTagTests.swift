import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseKit

/// `[:mav: V]` in the App Store description: a minimum supported version without a server.
@Suite struct MinimumVersionTagTests {
    @Test(arguments: [
        ("WeChat connects you.\n[:mav: 8.0.2]", "8.0.2"),
        ("[:MAV:8.0]", "8.0"),
        ("Fast. [:mav:   7.9.1  ] and more", "7.9.1"),
        ("[:mav: 8.0.5] then [:mav: 9.0]", "8.0.5"),
    ])
    func aTagSetsTheMinimum(_ description: String, _ version: String) throws {
        #expect(MinimumVersionTag.find(in: description) == .version(try Version(parsing: version)))
    }

    @Test(arguments: [
        ("[:mav: soon]", "the description's [:mav: soon] was ignored: "),
        ("[:mav: ]", "it names no version"),
        ("[:mav: 1.2.3 beta]", "was ignored"),
        ("new [:mav: 1.2", "it has no closing ]"),
    ])
    func aMalformedTagIsIgnoredWithTheReason(_ description: String, _ warning: String) throws {
        let tag = try #require(MinimumVersionTag.find(in: description))
        #expect(tag.warning?.contains(warning) == true, "\(tag)")
    }

    @Test func noTagNoMinimum() {
        #expect(MinimumVersionTag.find(in: "The messaging app. [mav: 1.0] (:mav: 2)") == nil)
    }

    static func result(description: String) throws -> AppStoreLookupResult {
        let url = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/appstore/wechat-cn.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var results = try #require(object["results"] as? [[String: Any]])
        results[0]["description"] = description
        object["results"] = results
        let data = try JSONSerialization.data(withJSONObject: object)
        return try JSONDecoder().decode(AppStoreLookupResponse.self, from: data).results[0]
    }

    @Test func theDecisionForcesBelowTheTagAndThePolicysHigherMinimumWins() throws {
        let now = Date(timeIntervalSince1970: 1_612_569_600)  // 2021-02-06, days after 8.0.2
        let context = UpdateContext(now: now)
        let tagged = try Self.result(description: "Chat.\n[:mav: 8.0.1]")
        let below = UpdatePolicy().decide(lookup: tagged, installed: try Version(parsing: "8.0.0"), context: context)
        #expect(below.action == .immediate && below.reason == .belowMinimumSupported && below.warnings.isEmpty)
        let above = UpdatePolicy().decide(lookup: tagged, installed: try Version(parsing: "8.0.1"), context: context)
        #expect(above.action == .flexible && above.reason == .updateAvailable)
        let stricter = UpdatePolicy(minimumSupportedVersion: Version("8.0.2"))
        #expect(
            stricter.decide(lookup: tagged, installed: try Version(parsing: "8.0.1"), context: context).action
                == .immediate)
        let looser = UpdatePolicy(minimumSupportedVersion: Version("7.0"))
        #expect(
            looser.decide(lookup: tagged, installed: try Version(parsing: "8.0.0"), context: context).action
                == .immediate)
        let malformed = try Self.result(description: "[:mav: eight]")
        let ignored = UpdatePolicy().decide(
            lookup: malformed, installed: try Version(parsing: "8.0.0"), context: context)
        #expect(ignored.action == .flexible && ignored.warnings.count == 1)
        #expect(ignored.warnings.first?.hasPrefix("the description's [:mav: eight] was ignored: ") == true)
    }
}
