import Foundation
import StoreReleaseTestSupport
import Testing

/// The library speaks of values, the tool of flags: the library's messages end with a hint in
/// values (``FailureHint``), the built tool words the same hint as its flags, byte for byte as
/// before, and no library source names a flag in a string.
@Suite struct FailureHintTests {
    let server: LoopbackServer
    let scratch: ScratchFolder
    let tokenFile: URL

    init() throws {
        server = try LoopbackServer.shared.get()
        scratch = try ScratchFolder("hint-token")
        tokenFile = scratch.url.appendingPathComponent("token")
        try Data("ya29.hint-secret\n".utf8).write(to: tokenFile)
    }

    func run(_ arguments: [String]) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            executable: BuiltProducts.directory.appendingPathComponent("storerelease"), arguments,
            environment: ["STORERELEASE_PLAY_TOKEN": "", "STORERELEASE_ASC_TOKEN": ""])
    }

    @Test func anAppNotFoundNamesTheCountryFlag() throws {
        let result = try run([
            "lookup", "--id", "414478124", "--base-url", server.baseURL("ok").absoluteString, "--timeout", "1",
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr
                == "storerelease: lookup: not found in the default storefront (us): App Store id 414478124; an app "
                + "sold only in some countries is found only in their storefronts: try another country (--country cn)\n"
        )
    }

    @Test func aTrackNotFoundNamesTheTracksCommand() throws {
        let result = try run([
            "wait", "--package", "com.example.completed", "--track", "prodution", "--version", "8.0.2", "--interval",
            "60", "--timeout", "3600", "--play-base-url", server.baseURL("ok").absoluteString, "--play-token-file",
            tokenFile.path,
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr
                == #"storerelease: wait: Google Play: the app has no Play track "prodution" (HTTP 404) "#
                + "(storerelease tracks --package … lists the tracks it has)\n")
    }

    @Test func aPlanNotAppliedNamesTheApplyAndConfirmFlags() throws {
        let token = UUID().uuidString
        let result = try run([
            "halt", "8.0.10", "--package", "com.example.rollout", "--play-token-file", tokenFile.path,
            "--play-base-url", server.baseURL("ok", token: token).absoluteString, "--id", "414478124",
            "--asc-token-file", tokenFile.path, "--asc-base-url",
            server.baseURL("rolling", token: token).absoluteString,
            "--format", "text",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").first
                == "halt 8.0.10: plan, nothing written (run with --apply --confirm to apply)")
    }

    /// A flag of the tool (`--word`) inside a string literal of a library source, with its file.
    struct Mention: Hashable, CustomStringConvertible {
        let file: String
        let flag: String
        var description: String { "\(file): \(flag)" }
    }

    /// Other tools' flags a library message may name: gcloud's, in how to make a token.
    static let otherToolsFlags: Set<String> = ["--scopes"]

    /// What is left in the folders being redesigned now (issue 42): to be worded as hints there.
    /// Each fixed one must leave this list, so that it only shrinks.
    static let pending: Set<Mention> = []

    /// The string literals of a Swift source: each `"…"` on a line that is not a comment, and
    /// every line of a `"""` block.
    static func literals(_ source: String) -> [String] {
        var found: [String] = []
        var inBlock = false
        let quoted = /"(?:[^"\\]|\\.)*"/
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.contains("\"\"\"") {
                if inBlock { inBlock = false } else if trimmed.hasSuffix("\"\"\"") { inBlock = true }
                continue
            }
            if inBlock {
                found.append(String(line))
                continue
            }
            if trimmed.hasPrefix("//") { continue }
            found += line.matches(of: quoted).map { String($0.output) }
        }
        return found
    }

    static func mentions(in libraries: [String]) throws -> Set<Mention> {
        let sources = BuiltProducts.packageRoot.appendingPathComponent("Sources")
        var found: Set<Mention> = []
        for library in libraries {
            let folder = sources.appendingPathComponent(library)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for literal in literals(text) {
                    for flag in literal.matches(of: /--[a-z][a-z0-9-]*/) {
                        let name = String(flag.output)
                        if !otherToolsFlags.contains(name) {
                            found.insert(Mention(file: library + "/" + file, flag: name))
                        }
                    }
                }
            }
        }
        return found
    }

    @Test func theScanFindsAFlagInAStringAndNotInAComment() {
        let source = """
            /// Give `--country` in a comment.
            let a = "try another country (--country cn)"  // --ignored
            let b = \"\"\"
                give each app its own --state
                \"\"\"
            """
        #expect(
            Self.literals(source).joined().matches(of: /--[a-z]+/).map { String($0.output) } == [
                "--country", "--state",
            ])
    }

    @Test func noLibraryMessageNamesAFlag() throws {
        let libraries = [
            "StoreReleaseCore", "StoreReleaseModels", "StoreReleaseClients", "StoreReleaseFlow", "StoreReleasePolicy",
            "StoreReleaseTooling",
        ]
        let found = try Self.mentions(in: libraries)
        #expect(
            found.subtracting(Self.pending).isEmpty, "library strings name flags: \(found.subtracting(Self.pending))")
        #expect(
            Self.pending.subtracting(found).isEmpty,
            "worded as hints now, drop from pending: \(Self.pending.subtracting(found))")
    }
}
