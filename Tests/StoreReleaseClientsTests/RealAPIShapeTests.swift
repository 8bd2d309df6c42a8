import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseModels

/// The fakes answer as the vendors' published contracts say, the real bodies from public issue
/// threads and fastlane's fixtures decode, and no credential leaves its origin.
@Suite struct RealAPIShapeTests {
    static let secret = "ya29.redirect-secret-\(UUID().uuidString)"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    /// A real body from `Tests/Fixtures/real/…`.
    func real(_ path: String) throws -> Data {
        try Data(contentsOf: LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures/real/\(path)"))
    }

    // MARK: - The contracts

    @Test func everyBodyTheFakesServeInEveryScenarioValidatesAgainstTheContracts() throws {
        let fixtures = LoopbackServer.packageRoot.appendingPathComponent("Tests/Fixtures").path
        let run = try LoopbackServer.runSupportScript("contract_walk.py", [fixtures])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains(" 0 violations, 0 unchecked"), "\(run.output)")
    }

    @Test func theValidatorRejectsBodiesThatBreakTheContracts() throws {
        let run = try LoopbackServer.runSupportScript("contract_walk.py", ["--self-test"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("broken bodies caught"), "\(run.output)")
    }

    @Test func theBodiesATestIsServedAreCheckedAsTheyAreSent() async throws {
        let token = UUID().uuidString
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret), configuration: .init(baseURL: server.baseURL("ok", token: token)))
        _ = try await play.tracks(packageName: "com.example.completed")
        let checks = try server.contractChecks(token: token)
        #expect(checks.checked == 2, "insert and list; the DELETE has no body")
        #expect(checks.violations.isEmpty, "\(checks.violations)")
    }

    // MARK: - Real bodies

    @Test func aRealPlayTrackDecodes() throws {
        let tracks = try PlayTrack.decodeTracks(from: try real("play/kolibri-track-alpha.json"))
        let alpha = try #require(tracks.first)
        #expect(alpha.track == "alpha" && alpha.releases.count == 2)
        #expect(alpha.releases[0].status == .draft && alpha.releases[0].versionCodes.isEmpty, "a draft, no codes")
        #expect(alpha.releases[1].versionCodes.map(\.rawValue) == [2_009_007_882, 2_009_007_883])
        #expect(alpha.liveRelease?.version?.description == "0.15.6")
    }

    @Test(arguments: [
        ("play/error-403-forbidden-gpp805.json", ["forbidden"], "The caller does not have permission"),
        (
            "play/error-403-insufficient-gpp837.json", ["forbidden"],
            "The current user has insufficient permissions to perform the requested operation."
        ),
        (
            "play/error-404-trackEmpty-gpp169.json", ["trackEmpty"],
            "Track not found: no APK version codes in the specified track."
        ),
    ])
    func realPlayErrorsDecode(_ file: String, _ reasons: [String], _ message: String) throws {
        let envelope = try #require(GoogleErrorEnvelope.decode(try real(file)))
        #expect(envelope.reasons == reasons && envelope.message == message)
    }

    @Test(arguments: ["403forbidden", "403insufficient"])
    func realForbiddenBodiesSayTheAccountLacksRights(_ scenario: String) async throws {
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret),
            configuration: .init(baseURL: server.baseURL(scenario), retry: .none))
        do throws(HTTPClientError) {
            _ = try await play.track("production", packageName: "com.example.completed")
            Issue.record("expected a refusal")
        } catch {
            guard case .play(.forbidden(.permissionDenied, _)) = error.reason else {
                Issue.record("\(scenario): \(error)")
                return
            }
            #expect(error.description.contains("invite it in the Play Console"))
        }
    }

    @Test func realAppStoreConnectPagesDecode() throws {
        let ready = try JSONDecoder().decode(
            AppStoreConnectDocuments.Versions.self,
            from: try real("asc/fastlane-app_store_versions_ready_for_distribution.json"))
        let versions = ready.versions()
        #expect(versions.map(\.versionString) == ["1.2.3"])
        #expect(versions.first?.state == .readyForDistribution && versions.first?.storeState == .readyForSale)
        #expect(versions.first?.isRemovedFromSale == false)
        let status = AppStoreConnectStatus(appID: "123", versions: versions)
        #expect(status.live?.version == "1.2.3" && status.live?.removedFromSale == false)

        let empty = try JSONDecoder().decode(
            AppStoreConnectDocuments.Versions.self, from: try real("asc/fastlane-app_store_versions_not_ready.json"))
        #expect(empty.versions().isEmpty)
        let apps = try JSONDecoder().decode(
            AppStoreConnectDocuments.Apps.self, from: try real("asc/fastlane-testflight-apps.json"))
        #expect(!apps.data.isEmpty)
    }

    @Test(arguments: ["fastlane-itunesLookup-284882215.json", "fastlane-itunesLookup-338986109_FR.json"])
    func realLookupAnswersDecode(_ file: String) throws {
        let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: try real("appstore/\(file)"))
        let result = try #require(response.results.first)
        let release = StoreRelease(result, country: nil)
        #expect(release.version != nil && release.appID != nil, "\(release)")
    }

    @Test func theLookupAPIsOwnErrorBodyIsRead() async throws {
        #expect(
            AppStoreLookupClient.errorMessage(in: try real("appstore/fastlane-itunesLookup-invalid.json"))
                == "Invalid value(s) for key(s): [itunesId]")
        let client = try AppStoreLookupClient(configuration: .init(baseURL: server.baseURL("badrequest")))
        do throws(HTTPClientError) {
            _ = try await client.lookup(id: 1)
            Issue.record("expected the API's refusal")
        } catch {
            #expect(error == .lookup(.rejected(status: 400, message: "Invalid value(s) for key(s): [itunesId]")))
            #expect(error.description.contains("HTTP 400): Invalid value(s) for key(s): [itunesId]"))
        }
    }

    // MARK: - Credentials stay on their origin

    @Test(arguments: [
        ("http://127.0.0.1:8080", true), ("http://localhost", true),
        ("http://[::1]:9000", LoopbackServer.ipv6Connects),
        ("HTTP://127.0.0.1:8080", true), ("http://127.000.000.001", false), ("https://127.0.0.01", false),
        ("http://127.1.2.3", true), ("https://androidpublisher.googleapis.com", true),
        ("http://127.example.com", false), ("http://127.0.0.1.example.com", false), ("http://127.0.0.256", false),
        ("http://1127.0.0.1", false), ("http://localhost.example.com", false), ("http://10.0.0.1", false),
    ])
    func loopbackIsLocalhostA127LiteralOrIPv6One(_ url: String, _ accepted: Bool) throws {
        let problem = BaseURL.problem(with: try #require(URL(string: url)))
        #expect((problem == nil) == accepted, "\(url): \(problem ?? "accepted")")
    }

    @Test func aPlayRedirectToAnotherOriginIsRefusedAndNothingReachesIt() async throws {
        let token = UUID().uuidString
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret), configuration: .init(baseURL: server.baseURL("redirect", token: token))
        )
        do throws(HTTPClientError) {
            _ = try await play.tracks(packageName: "com.example.completed")
            Issue.record("expected the redirect to be refused")
        } catch {
            guard case .play(.exchange(.redirected(let origin))) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(origin.hasPrefix("http://127.0.0.2:"), "names where it pointed")
            #expect(!error.description.contains(Self.secret))
        }
        let elsewhere = try server.elsewhere(token: token)
        #expect(elsewhere.authorization == 0 && elsewhere.requests == 0, "\(elsewhere)")
    }

    @Test func anAppStoreConnectRedirectToAnotherOriginIsRefused() async throws {
        let token = UUID().uuidString
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken(Self.secret)),
            configuration: .init(baseURL: server.baseURL("redirect", token: token)))
        do throws(HTTPClientError) {
            _ = try await connect.status(of: .id(414_478_124))
            Issue.record("expected the redirect to be refused")
        } catch {
            #expect(error.description.contains("redirect to http://127.0.0.2:"), "\(error)")
        }
        #expect(try server.elsewhere(token: token).authorization == 0)
    }

    @Test func aSameOriginRedirectKeepsTheMethodAndTheBody() async throws {
        let token = UUID().uuidString
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken(Self.secret),
            configuration: .init(baseURL: server.baseURL("redirectsame", token: token)))
        let track = try await play.track("production", packageName: "com.example.completed")
        #expect(track.liveRelease?.version?.description == "8.0.2")
        let stats = try server.playStats(token: token)
        #expect(stats["editsInserted"] as? Int == 1, "the POST stayed a POST: \(stats)")
        #expect(stats["editsDeleted"] as? Int == 1 && stats["openEdits"] as? Int == 0, "the DELETE stayed a DELETE")

        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken(Self.secret)),
            configuration: .init(baseURL: server.baseURL("redirectsame", token: token)))
        #expect(try await connect.status(of: .id(414_478_124)).live?.version == "8.0.2")
    }

    @Test func aLookupWithoutCredentialsMayFollowARedirectElsewhereButSendsNoHeaderThere() async throws {
        let token = UUID().uuidString
        let client = try AppStoreLookupClient(
            configuration: .init(baseURL: server.baseURL("redirect", token: token), retry: .none))
        _ = try? await client.lookup(id: 414_478_124, country: StorefrontCountry("cn"))
        let elsewhere = try server.elsewhere(token: token)
        #expect(elsewhere.requests == 1 && elsewhere.authorization == 0, "\(elsewhere)")
        let same = try AppStoreLookupClient(configuration: .init(baseURL: server.baseURL("redirectsame")))
        #expect(
            try await same.lookup(id: 414_478_124, country: StorefrontCountry("cn")).version?.description == "8.0.2")
    }
}
