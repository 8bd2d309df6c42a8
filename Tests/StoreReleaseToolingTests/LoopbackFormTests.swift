import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// Loopback in every form the checks accept really connects, and every other form is refused
/// with a reason: the same rule for each client's base URL and for the webhook.
@Suite struct LoopbackFormTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    /// The fake's base URL for a scenario, with the scheme and host written as given.
    func url(_ scheme: String, _ host: String, _ scenario: String, token: String = UUID().uuidString) throws -> URL {
        try #require(URL(string: "\(scheme)://\(host):\(server.baseURL.port ?? 0)/\(token)/\(scenario)"))
    }

    @Test(arguments: ["HTTP", "Http", "hTTp"])
    func anUpperCaseSchemeIsHTTPAndConnects(_ scheme: String) async throws {
        let lookup = try AppStoreLookupClient(configuration: .init(baseURL: try url(scheme, "127.0.0.1", "ok")))
        let wechat = try await lookup.lookup(id: 414_478_124, country: try StorefrontCountry("cn"))
        #expect(wechat.version?.description == "8.0.2")
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken("ya29.loopback"), configuration: .init(baseURL: try url(scheme, "127.0.0.1", "ok")))
        #expect(play.configuration.baseURL.scheme == "http")
        let track = try await play.track("production", packageName: "com.example.completed")
        #expect(track.liveRelease != nil)
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken("asc-loopback")),
            configuration: .init(baseURL: try url(scheme, "127.0.0.1", "relativenext")))
        let status = try await connect.status(of: .id(414_478_124))
        #expect(status.live?.version == "8.0.2", "relative links.next resolved against the lower-cased base")
        let token = UUID().uuidString
        let hook = try WebhookNotifier(
            url: try url(scheme, "127.0.0.1", "ok", token: token).appendingPathComponent("hook"), format: .json)
        try await hook.deliver([
            ReleaseEvent(
                .forceUpdateSafe(version: try Version(parsing: "8.0.2")), at: Date(timeIntervalSince1970: 1_612_915_200)
            )
        ])
        #expect(try server.hooks(token: token).count == 1)
    }

    /// A form refused by every check: the reason each gives.
    static let refused: [(host: String, reason: String)] = {
        var forms = [
            ("127.000.000.001", "127.000.000.001 is not an IPv4 address as it is written"),
            ("127.0.0.01", "127.0.0.01 is not an IPv4 address as it is written"),
            ("127.1", "127.1 is not an IPv4 address as it is written"),
        ]
        #if canImport(FoundationNetworking)
            forms.append(("[::1]", "[::1] is an IPv6 address, which URLSession on this platform cannot connect to"))
        #endif
        return forms
    }()

    @Test(arguments: zip(refused.map(\.host), refused.map(\.reason)))
    func aFormNoRequestCouldReachIsRefusedByEveryCheck(_ host: String, _ reason: String) throws {
        for scheme in ["http", "https"] {
            let base = try url(scheme, host, "ok")
            let token = try BearerToken("x")
            let problems: [String?] = [
                problem { () throws(HTTPClientError) in try AppStoreLookupRequest.validate(baseURL: base) },
                problem { () throws(HTTPClientError) in try PlayDeveloperAPIClient.validate(baseURL: base) },
                problem { () throws(HTTPClientError) in
                    _ = try AppStoreConnectClient(credentials: .token(token), configuration: .init(baseURL: base))
                },
                problem { () throws(WebhookURLError) in
                    _ = try WebhookNotifier(url: base.appendingPathComponent("secret"))
                },
            ]
            for problem in problems {
                #expect(problem?.contains(reason) == true, "\(scheme)://\(host): \(problem ?? "accepted")")
                #expect(problem?.contains("secret") != true, "never the webhook's path")
            }
        }
    }

    /// What `body` throws, as text; `nil` when it throws nothing.
    func problem<Failure: Error>(_ body: () throws(Failure) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    #if !canImport(FoundationNetworking)
        @Test func ipv6LoopbackIsLoopbackWhereURLSessionConnectsToIt() throws {
            #expect(BaseURL.problem(with: try #require(URL(string: "http://[::1]:9000"))) == nil)
        }
    #endif
}
