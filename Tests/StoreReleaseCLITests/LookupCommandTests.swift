import Foundation
import StoreReleaseTestSupport
import Testing

/// `storerelease lookup` against the loopback server: the contract's JSON, and every fault
/// ending in its message and exit status.
@Suite struct LookupCommandTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func lookup(_ scenario: String, _ arguments: String...) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            "storerelease",
            ["lookup"] + arguments + ["--base-url", server.baseURL(scenario).absoluteString, "--timeout", "1"])
    }

    @Test func printsWeChatsReleaseWithVersionAndStoreURL() throws {
        let result = try lookup("ok", "--id", "414478124", "--country", "cn")
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        #expect(array[0]["version"] as? String == "8.0.2")
        #expect(array[0]["storeURL"] as? String == "https://apps.apple.com/cn/app/%E5%BE%AE%E4%BF%A1/id414478124?uo=4")
        #expect(array[0]["store"] as? String == "appStore")
        #expect(array[0]["versionCode"] is NSNull)
        #expect(array[0].keys.count == 14)
    }

    @Test func printsReleasesInTheOrderOfTheIDs() throws {
        let result = try lookup("ok", "--id", "904280696,803453959", "--country", "USA")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.compactMap { $0["appID"] as? String } == ["904280696", "803453959"])
    }

    @Test func looksUpByBundleID() throws {
        let result = try lookup("ok", "--bundle-id", "com.culturedcode.ThingsMac", "--entity", "mac")
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""version" : "3.8""#))
    }

    @Test func notFoundExitsOneNamingTheStorefront() throws {
        let result = try lookup("ok", "--id", "414478124")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("not found in the default storefront (us): App Store id 414478124"))
        let jp = try lookup("empty", "--bundle-id", "com.tencent.xin", "--country", "jp")
        #expect(jp.status == 1 && jp.stderr.contains("not found in storefront jp: bundle id com.tencent.xin"))
    }

    @Test func aPartialResultPrintsWhatWasFoundAndExitsOne() throws {
        let result = try lookup("ok", "--id", "803453959,7")
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""appID" : "803453959""#))
        #expect(result.stderr.contains("not found in the default storefront (us): App Store id 7"))
    }

    /// `lookup` over storefronts against the sweep fake, with the token whose requests are counted.
    func sweep(_ token: String, _ arguments: [String]) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            "storerelease",
            ["lookup"] + arguments + [
                "--base-url", server.baseURL("sweep", token: token).absoluteString, "--lookups-per-minute", "6000",
            ])
    }

    @Test func manyIDsInManyStorefrontsPrintWhatWasFoundAndNameWhatWasNot() throws {
        let token = UUID().uuidString
        // Id 150 is sold only in us; ru has nothing.
        let result = try sweep(token, ["--id", "414478124,150", "--countries", "us,cn,ru"])
        #expect(result.status == 1, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(
            array.map { "\($0["country"] ?? "")/\($0["appID"] ?? "")" } == ["cn/414478124", "us/414478124", "us/150"])
        #expect(
            result.stderr.contains(
                "lookup: no result for App Store id 150 in storefront cn; for App Store ids 414478124, 150 in storefront ru"
            ), "\(result.stderr)")
        #expect(try server.stats(token: token).requests == 3, "one request a storefront for both ids")
    }

    @Test func aSweepOfOneIDWithEmptyStorefrontsExitsOneNamingThem() throws {
        let result = try sweep(UUID().uuidString, ["--id", "414478124", "--countries", "us,ru,kz"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""country" : "us""#))
        #expect(result.stderr.contains("lookup: no result for App Store id 414478124 in storefronts kz, ru"))
        let bundle = try sweep(UUID().uuidString, ["--bundle-id", "com.tencent.xin", "--countries", "ru"])
        #expect(bundle.status == 1 && bundle.stderr.contains("for bundle id com.tencent.xin in storefront ru"))
        let found = try sweep(UUID().uuidString, ["--id", "414478124", "--countries", "us,cn"])
        #expect(found.status == 0, "every storefront has it: \(found.stderr)")
    }

    @Test func aShardPartWithNoStorefrontInItIsEmptyAndExitsZero() throws {
        let token = UUID().uuidString
        let result = try sweep(token, ["--id", "414478124", "--countries", "us", "--shard", "2/2"])
        #expect(result.status == 0, "\(result.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        #expect(parsed?.isEmpty == true, "\(result.stdout)")
        #expect(try server.stats(token: token).requests == 0)
    }

    @Test func aStorefrontGivenManyTimesIsAskedOnce() throws {
        let token = UUID().uuidString
        let result = try sweep(token, ["--id", "414478124", "--countries", "us,us,US,USA"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try server.stats(token: token).requests == 1)
        let many = UUID().uuidString
        let copies = Array(repeating: "us", count: 10_000).joined(separator: ",")
        let flood = try sweep(many, ["--id", "414478124", "--countries", copies])
        let requests = try server.stats(token: many).requests
        #expect(flood.status == 0 && requests == 1, "\(flood.stderr)")
    }

    @Test func soldStorefrontsAreEachAppsOwn() throws {
        let token = UUID().uuidString
        let tokenFile = BuiltProducts.packageRoot.appendingPathComponent("Tests/Fixtures/asc/token.txt").path
        // WeChat is sold in six storefronts, 999000999 in all 175: the six are asked for both.
        let result = try sweep(
            token,
            [
                "--id", "414478124,999000999", "--countries", "sold", "--asc-token-file", tokenFile,
                "--asc-base-url", server.baseURL("complete").absoluteString,
            ])
        #expect(result.status == 1, "kr and most others have no result: \(result.stderr)")
        let stats = try server.stats(token: token)
        #expect(stats.requests == 175)
        #expect(stats.ids.filter { $0.count == 2 }.count == 6 && stats.ids.filter { $0 == ["999000999"] }.count == 169)
    }

    @Test func aStoredLookupInACountryWithoutAStorefrontExitsTwoNamingIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bd-\(UUID().uuidString).json")
        try Data(#"[{"store": "appStore", "appID": "1", "version": "8.0.2", "country": "bd"}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let play = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads/play-production.json")
        let result = try BuiltProducts.run(
            "storerelease", ["parity", "--lookup", file.path, "--play-track", play.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(#""bd" is not an App Store storefront"#), "\(result.stderr)")
    }

    @Test(arguments: [
        (["--countries", "bd"], #"lookup: --countries: "bd" is not an App Store storefront"#),
        (["--countries", "us,LIE"], #"lookup: --countries: "LIE" is not an App Store storefront"#),
        (["--country", "ps"], #"lookup: --country "ps" is not an App Store storefront"#),
    ])
    func aCountryWithoutAStorefrontExitsTwoNamingIt(_ flags: [String], _ message: String) throws {
        let token = UUID().uuidString
        let result = try sweep(token, ["--id", "414478124"] + flags)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        #expect(try server.stats(token: token).requests == 0, "refused before any request")
    }

    @Test(arguments: [
        ("503always", "HTTP status 503 from"), ("429long", "rate-limited by the App Store (HTTP 429)"),
        ("html", "the answer from the App Store lookup is not JSON (Content-Type text/html"),
        ("truncated", "the answer from the App Store lookup was cut off after"),
        ("hang", "no complete answer from the App Store lookup within 1 s"),
        ("wrongbundle", "asked for bundle id com.tencent.xin but the App Store returned com.example.other"),
        ("badversion", #"results[0].version: version is not a version: "1.4 (18)""#), ("404", "HTTP status 404"),
        ("badrequest", "the App Store refused the lookup (HTTP 400): Invalid value(s) for key(s): [itunesId]"),
    ])
    func everyFaultEndsInItsMessageAndExitOne(_ scenario: String, _ message: String) throws {
        let result = try lookup(scenario, "--bundle-id", "com.tencent.xin", "--country", "cn")
        #expect(result.exited && result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test func aServerThatTricklesItsAnswerIsTimedOutNamingTheTimeout() throws {
        // A byte a second is never quiet for 2 s: only the deadline on each attempt as a whole ends it.
        let result = try BuiltProducts.run(
            "storerelease",
            ["lookup", "--id", "414478124", "--base-url", server.baseURL("trickle").absoluteString, "--timeout", "2"])
        #expect(result.exited && result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains("no complete answer from the App Store lookup within 2 s"),
            "stderr: \(result.stderr)")
    }

    @Test func anOversizedBodyIsRefused() throws {
        let result = try lookup("huge", "--id", "1")
        #expect(result.status == 1)
        #expect(result.stderr.contains("the answer from the App Store lookup is larger than 4194304 bytes"))
    }

    @Test func recoversFromA503AndA429() throws {
        #expect(try lookup("503once", "--id", "414478124", "--country", "cn").status == 0)
        #expect(try lookup("429once", "--id", "414478124", "--country", "cn").status == 0)
    }

    @Test(arguments: [
        (["--id", "abc"], #"lookup: --id: "abc" is not an App Store id"#),
        (["--id", "1,,2"], #"lookup: --id: "" is not an App Store id"#),
        (["--id", "-5"], #"lookup: --id: "-5" is not an App Store id"#),
        (["--id", "1", "--bundle-id", "a"], "lookup: give exactly one of --id or --bundle-id"),
        ([String](), "lookup: give exactly one of --id or --bundle-id"),
        (["--id", "1", "--country", "zz"], #"lookup: --country "zz" is not an App Store storefront"#),
        (["--id", "1", "--timeout", "soon"], #"lookup: --timeout "soon" is not a number of seconds"#),
        (["--id", "1", "--base-url", "http://example.com"], "must be https (http only on a loopback address"),
        (["--id", "1", "--entity", "watch"], #"lookup: --entity "watch" is not an entity"#),
        (["--bundle-id", "com.tencent xin"], #"lookup: bundle id "com.tencent xin" is not a bundle identifier"#),
        (["--id", "1", "extra"], #"lookup: takes no arguments, only flags; got "extra""#),
    ])
    func badFlagsExitTwo(_ arguments: [String], _ message: String) throws {
        let result = try BuiltProducts.run("storerelease", ["lookup"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}
