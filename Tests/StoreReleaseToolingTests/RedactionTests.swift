import Foundation
import StoreReleaseModels
import StoreReleaseTestSupport
import StoreReleaseTooling
import Testing

@testable import StoreReleaseClients

/// No piece of a token a server echoes reaches an error: redacted before any cut, and every run
/// of 12 of its characters taken out, not only the whole token.
@Suite struct RedactionTests {
    /// A 4 KiB token, as long as a token with claims in it gets.
    static let long = LongSecret.make()

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    /// Expects no 12-character piece of `secret` in `text`.
    func expectNoPiece(
        of secret: String, in text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let piece = LongSecret.firstPiece(of: secret, in: text)
        #expect(
            piece == nil, "\(what): \(piece ?? "") of the token shows in \(text.prefix(300))",
            sourceLocation: sourceLocation)
    }

    /// Expects `error` to show `<redacted>` and no piece of the long token, described or dumped.
    func expectRedacted(
        _ error: some Error & CustomStringConvertible, _ scenario: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var dumped = ""
        dump(error, to: &dumped)
        for text in [error.description, dumped] {
            expectNoPiece(of: Self.long, in: text, scenario, sourceLocation: sourceLocation)
        }
        #expect(error.description.contains(Redactor.marker), "\(scenario): \(error)", sourceLocation: sourceLocation)
    }

    @Test func aLongTokenAtTheStartOfABodyIsTakenOutBeforeTheCut() {
        let redactor = Redactor(secrets: [Self.long])
        let bodies = [
            Self.long + " is not a token", "<html>Proxy error: token " + Self.long + " refused</html>",
            String(Self.long.prefix(2048)) + "... (cut)", "x" + String(Self.long.dropFirst(100).prefix(30)) + "y",
        ]
        for body in bodies {
            let start = redactor.start(of: Data(body.utf8), length: 60)
            expectNoPiece(of: Self.long, in: start, "start")
            #expect(start.contains(Redactor.marker), "\(start)")
            expectNoPiece(of: Self.long, in: redactor(body), "whole")
        }
        #expect(redactor.start(of: Data(bodies[1].utf8), length: 60).hasPrefix("<html>Proxy error: token <redacted>"))
    }

    @Test func elevenCharactersStayAndTheServersOwnWordsAreUntouched() {
        let redactor = Redactor(secrets: [Self.long, "short"])
        let eleven = "[" + String(Self.long.dropFirst(7).prefix(11)) + "]"
        #expect(redactor(eleven) == eleven, "under 12 characters is not a piece")
        #expect(
            redactor("Request had invalid authentication credentials.")
                == "Request had invalid authentication credentials.")
        #expect(redactor("a short secret, shortly") == "a <redacted> secret, <redacted>ly", "a short secret only whole")
        #expect(Redactor()("anything \(Self.long)") == "anything \(Self.long)", "nothing to redact")
        let both = String(Self.long.prefix(20)) + String(Self.long.suffix(20))
        #expect(redactor(both) == "<redacted>", "two pieces side by side are one run")
    }

    @Test func aRedactorShowsNoSecretWhenDumped() {
        var dumped = ""
        dump(Redactor(secrets: [Self.long]), to: &dumped)
        #expect(dumped == "- Redactor(1 secrets)\n", "no children, so not even the secret's bytes")
        #expect("\(Redactor(secrets: [Self.long]))" == "Redactor(1 secrets)")
    }

    @Test(arguments: ["echostart", "echomiddle", "echoprefix", "echoerror"])
    func playEchoingTheTokenShowsNoPieceOfIt(_ scenario: String) async throws {
        let play = try PlayDeveloperAPIClient(
            token: try BearerToken(Self.long),
            configuration: .init(baseURL: server.baseURL(scenario), retry: RetryPolicy(maximumAttempts: 1)))
        do throws(HTTPClientError) {
            _ = try await play.track("production", packageName: "com.example.completed")
            Issue.record("\(scenario): expected an error")
        } catch {
            expectRedacted(error, scenario)
        }
    }

    @Test(arguments: ["echostart", "echomiddle", "echoprefix", "echoerror"])
    func appStoreConnectEchoingTheTokenShowsNoPieceOfIt(_ scenario: String) async throws {
        let connect = try AppStoreConnectClient(
            credentials: .token(try BearerToken(Self.long)),
            configuration: .init(baseURL: server.baseURL(scenario), retry: RetryPolicy(maximumAttempts: 1)))
        do throws(HTTPClientError) {
            _ = try await connect.status(of: .id(414_478_124))
            Issue.record("\(scenario): expected an error")
        } catch {
            expectRedacted(error, scenario)
        }
    }

    @Test func aSignedTokenEchoedInAnErrorShowsNoPieceOfIt() async throws {
        let credentials = try TestKey().credentials()
        let token = UUID().uuidString
        let connect = try AppStoreConnectClient(
            credentials: credentials,
            configuration: .init(
                baseURL: server.baseURL("echoerror", token: token), retry: RetryPolicy(maximumAttempts: 1)))
        do throws(HTTPClientError) {
            _ = try await connect.status(of: .id(414_478_124))
            Issue.record("expected an error")
        } catch {
            let jwts = try server.ascStats(token: token)["tokens"] as? [String] ?? []
            #expect(jwts.count == 2, "a fresh token after the first 401")
            for jwt in jwts { expectNoPiece(of: jwt, in: error.description, "JWT") }
        }
    }
}
