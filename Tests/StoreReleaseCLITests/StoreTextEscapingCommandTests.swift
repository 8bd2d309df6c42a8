import Foundation
import StoreReleaseTestSupport
import Testing

/// A store's words written by the built tool: a 403 whose message (the fakes' `403forged`)
/// carries an ANSI colour, a line break and a forged line, a pipe, an HTML image, a Markdown link
/// and a code span never starts a line of its own on stdout or stderr (a forged `::error::` in a
/// CI log), never acts on the terminal, and in Markdown reads as written.
@Suite struct StoreTextEscapingCommandTests {
    static let secret = "ya29.escaping-secret-\(UUID().uuidString)"
    /// The forged message as the tool writes it on one line: its controls written out.
    static let written = #"bad \u{1B}[31mRED\u{1B}[0m\u{A}FORGED LINE | <img src=x onerror=alert(1)>"#

    let server: LoopbackServer
    let scratch: ScratchFolder
    var tokenFile: String { scratch.url.appendingPathComponent("token").path }

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("escaping")
        try Data((Self.secret + "\n").utf8).write(to: scratch.url.appendingPathComponent("token"))
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> BuiltProducts.Result {
        let result = try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"),
            arguments + ["--play-token-file", tokenFile], environment: ["STORERELEASE_PLAY_TOKEN": ""])
        #expect(result.exited, sourceLocation: sourceLocation)
        #expect(
            !result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret), "a token shows",
            sourceLocation: sourceLocation)
        return result
    }

    /// No line of `output` starts with the forged line, and no ESC reaches it.
    func expectNoForgedLine(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            !lines.contains { $0.hasPrefix("FORGED") }, "\(output.debugDescription)", sourceLocation: sourceLocation)
        #expect(!output.unicodeScalars.contains("\u{1B}"), "\(output.debugDescription)", sourceLocation: sourceLocation)
    }

    /// `advance` and `tracks` whose Play read is refused with the forged message: the error is
    /// one line on stderr, the message's line break written out (it was printed raw, the forged
    /// line a line of its own).
    @Test(arguments: [
        ["advance", "8.0.10", "--package", "com.example.rollout"], ["tracks", "--package", "com.example.rollout"],
    ])
    func aStoresErrorMessageIsOneLineOnStderr(_ command: [String]) throws {
        let token = UUID().uuidString
        let result = try run(command + ["--play-base-url", server.baseURL("403forged", token: token).absoluteString])
        #expect(result.status == 1, "\(result.stderr)")
        expectNoForgedLine(result.stderr)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("(HTTP 403: " + Self.written), "\(result.stderr)")
    }

    /// `advance --health` whose health read is refused with the forged message: the gate's hold
    /// reason carries it, and the text plan writes it on its own line, written out (it was
    /// printed with a raw line break: `FORGED LINE | …` a line of stdout).
    func heldByAForgedHealthError(_ format: String, token: String) throws -> BuiltProducts.Result {
        let result = try run([
            "advance", "8.0.10", "--package", "com.example.rollout", "--play-base-url",
            server.baseURL("ok", token: token).absoluteString, "--health", "--play-reporting-base-url",
            server.baseURL("403forged", token: token).absoluteString, "--format", format,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        expectNoForgedLine(result.stdout)
        expectNoForgedLine(result.stderr)
        return result
    }

    @Test func aStoresErrorInTheTextPlanStaysOnItsLine() throws {
        let result = try heldByAForgedHealthError("text", token: UUID().uuidString)
        let reason = result.stdout.split(separator: "\n").first { $0.hasPrefix("    Google Play: unknown (") }
        #expect(
            reason?.contains("(HTTP 403: " + Self.written + " [link](http://evil) `code`)") == true, "\(result.stdout)")
    }

    /// The Markdown plan escapes the store's words as `health --format markdown` does: the line
    /// break written out, the image, the link, the code span and the pipe backslashed (they were
    /// written raw: a forged line, an `<img onerror>`, a live link).
    @Test func aStoresErrorInTheMarkdownPlanReadsAsWritten() throws {
        let result = try heldByAForgedHealthError("markdown", token: UUID().uuidString)
        let reason = result.stdout.split(separator: "\n").first { $0.hasPrefix("  - Google Play: unknown (") }
        let escaped =
            #"(HTTP 403: bad \\u{1B}\[31mRED\\u{1B}\[0m\\u{A}FORGED LINE \| \<img src=x onerror=alert(1)> "#
            + #"\[link](http://evil) \`code\`)"#
        #expect(reason?.contains(escaped) == true, "\(result.stdout)")
        for raw in [" <img", " [link]", "`code`", "LINE | "] {
            #expect(!result.stdout.contains(raw), "\(raw): \(result.stdout)")
        }
        // Our own words are as they were.
        #expect(result.stdout.hasPrefix("### advance 8.0.10: hold, nothing written\n\n- gate: hold at 20%\n"))
        #expect(result.stdout.contains("\n  - when the current step began is not known (no state): its age"))
    }
}
