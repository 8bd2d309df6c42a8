import Foundation
import StoreReleaseCore
import StoreReleaseModels
import StoreReleasePolicy
import StoreReleaseTestSupport
import Testing

/// `[:mav: V]` in the App Store description: a minimum supported version without a server.
@Suite struct MinimumVersionTagTests {
    @Test(arguments: [
        ("WeChat connects you.\n[:mav: 8.0.2]", "8.0.2"),
        ("[:MAV:8.0]", "8.0"),
        ("Fast. [:mav:   7.9.1  ] and more", "7.9.1"),
        ("[:mav: 8.0.5] then [:mav: 9.0]", "8.0.5"),
        // upgrader's own rows (larryaasen/upgrader test/itunes_test.dart, 'testing minAppVersion',
        // at fd0c5789): it writes SemVer too.
        ("test [:mav: 1.2.3]", "1.2.3"), ("test [:mav:1.2.3]", "1.2.3"), ("test [:mav:1.2.3 ]", "1.2.3"),
        ("test [:mav: 1]", "1.0.0"), ("[:mav: 0.9.9+4]", "0.9.9+4"), ("[:mav: 1.0.0-5.2.pre]", "1.0.0-5.2.pre"),
    ])
    func aTagSetsTheMinimum(_ description: String, _ version: String) throws {
        guard case .version(let found) = MinimumVersionTag.find(in: description) else {
            Issue.record("no version in \(description)")
            return
        }
        let expected = try Version(parsingAppStoreOrSemVer: version)
        #expect(found == expected)
        #expect(found.description == version || version == "1.0.0", "the text is kept as written")
    }

    @Test func aSemVerTagIsReadAsSemVer() throws {
        guard case .version(let pre) = MinimumVersionTag.find(in: "[:mav: 1.0.0-5.2.pre]") else {
            Issue.record("not read")
            return
        }
        #expect(pre.scheme == .semver && pre.isPreRelease)
        let release = try Version(parsing: "1.0.0")
        let below = try Version(parsing: "0.9.9")
        #expect(pre < release && pre > below)
    }

    /// upgrader's `belowMinAppVersion` rows for an installed 0.9.9 (larryaasen/upgrader
    /// test/upgrader_test.dart, 'test upgrader minAppVersion', at fd0c5789), plus SemVer installs.
    @Test(arguments: [
        ("0.9.9", "[:mav: 0.5.0]", false), ("0.9.9", "[:mav: 1.0.0]", true), ("0.9.9", "[:mav: empty]", false),
        ("0.9.9", "[:mav: 0.9.9+4]", false), ("0.9.9", "[:mav: 0.9.9-5.2.pre]", false),
        ("0.9.9", "[:mav: 1.0.0-5.2.pre]", true), ("0.9.8", "[:mav: 0.9.9+4]", true),
        ("1.0.0", "[:mav: 1.0.0-5.2.pre]", false), ("1.0.0-5.1.pre", "[:mav: 1.0.0-5.2.pre]", true),
        ("1.0.0-5.10.pre", "[:mav: 1.0.0-5.2.pre]", false), ("1.0.0-5.2.pre+7", "[:mav: 1.0.0-5.2.pre]", false),
    ])
    func belowASemVerTagForcesAsUpgraderDoes(_ installed: String, _ tag: String, _ forced: Bool) throws {
        let now = Date(timeIntervalSince1970: 1_612_569_600)  // 2021-02-06, days after 8.0.2
        let decision = UpdatePolicy().decide(
            lookup: try Self.result(description: "Chat.\n\(tag)"),
            installed: try Version(parsingAppStoreOrSemVer: installed),
            context: UpdateContext(now: now))
        #expect((decision.reason == .belowMinimumSupported) == forced, "\(installed) under \(tag): \(decision)")
    }

    @Test func aHugeMalformedTagIsQuotedOnceAndShort() throws {
        let huge = String(repeating: "x", count: 2 << 20)
        for description in ["[:mav: \(huge)]", "[:mav: 1.\(huge)]", "[:mav: \(huge)", "[:mav: \(huge) ]"] {
            let tag = try #require(MinimumVersionTag.find(in: description))
            let warning = try #require(tag.warning)
            #expect(warning.count < 300, "\(warning.prefix(400))")
            #expect(warning.components(separatedBy: "[:mav:").count == 2, "quoted once: \(warning)")
            #expect(!warning.contains(String(repeating: "x", count: MinimumVersionTag.quotedLength)), "\(warning)")
        }
        let long = try #require(MinimumVersionTag.find(in: "[:mav: \(String(repeating: "1.", count: 1000))1]"))
        #expect(long.warning?.hasSuffix("its version is longer than 64 characters") == true)
    }

    @Test(arguments: [
        ("[:mav: soon]", "the description's [:mav: soon] was ignored: "),
        ("[:mav: ]", "it names no version"),
        ("[:mav: 1.2.3 beta]", "was ignored"),
        ("[:mav: 1.0-beta]", "it is neither an App Store version nor SemVer: unexpected character"),
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
