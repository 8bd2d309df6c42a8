import Foundation
import StoreReleaseTestSupport
import Testing

/// Docs that cannot rot: every Swift block in the guides is compiled code that runs.
@Suite struct DocExamplesTests {
    /// Lines as the comparison sees them: trimmed, blank lines dropped.
    static func normalized(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The ```swift blocks of a Markdown file.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let lines = current, trimmed == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func markdownFiles() throws -> [URL] {
        let docs = BuiltProducts.packageRoot.appendingPathComponent("Docs")
        let enumerator = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil)
        let files = (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "md" }
        return files + [BuiltProducts.packageRoot.appendingPathComponent("README.md")]
    }

    @Test func everySwiftBlockInTheDocsIsCompiledExampleCode() throws {
        let examples = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples")
        let sources = try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { Self.normalized(try String(contentsOf: $0, encoding: .utf8)) }
        var blockCount = 0
        for file in try Self.markdownFiles() {
            for block in Self.swiftBlocks(in: try String(contentsOf: file, encoding: .utf8)) {
                blockCount += 1
                let lines = Self.normalized(block)
                let found = sources.contains { source in
                    source.count >= lines.count
                        && (0...(source.count - lines.count)).contains {
                            Array(source[$0..<($0 + lines.count)]) == lines
                        }
                }
                #expect(found, "\(file.lastPathComponent): this block is not in Docs/Examples:\n\(block)")
            }
        }
        #expect(blockCount >= 7, "the guides' examples were found")
    }

    /// The ```swift blocks of the library's doc comments, without their `///`.
    static func docCommentBlocks() throws -> [(String, String)] {
        let files = BuiltProducts.libraryModules.flatMap { module in
            let sources = BuiltProducts.packageRoot.appendingPathComponent("Sources/\(module)")
            return FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL]
                ?? []
        }
        var blocks: [(String, String)] = []
        for file in files where file.pathExtension == "swift" {
            let comments = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("///") }
                .map { String($0.dropFirst(3).drop { $0 == " " }) }
            blocks += swiftBlocks(in: comments.joined(separator: "\n")).map { (file.lastPathComponent, $0) }
        }
        return blocks
    }

    @Test func everySwiftBlockInADocCommentIsCompiledExampleCode() throws {
        let examples = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples")
        let sources = try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { Self.normalized(try String(contentsOf: $0, encoding: .utf8)) }
        let blocks = try Self.docCommentBlocks()
        for (file, block) in blocks {
            let lines = Self.normalized(block)
            let found = sources.contains { source in
                source.count >= lines.count
                    && (0...(source.count - lines.count)).contains { Array(source[$0..<($0 + lines.count)]) == lines }
            }
            #expect(found, "\(file): this doc comment's block is not in Docs/Examples:\n\(block)")
        }
        #expect(blocks.count >= 8, "the doc comments' examples were found")
    }

    @Test func theExamplesRunAndTheirClaimsHold() throws {
        let server = try LoopbackServer.shared.get()
        let result = try BuiltProducts.run("DocExamples", [server.baseURL("ok").absoluteString])
        #expect(result.exited && result.status == 0, "DocExamples failed:\n\(result.stderr)")
        // Every claim of the guides is printed: the whole output is the committed transcript.
        let expected = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/expected-output.txt"),
            encoding: .utf8)
        #expect(result.stdout == expected, "the examples print something else than Docs/Examples/expected-output.txt")
        #expect(result.stdout.contains("Checking the App Store\n"))
        #expect(result.stdout.contains("not found in the default storefront (us): App Store id 414478124;"))
        #expect(result.stdout.contains("All documentation examples ran."))
        #expect(result.stdout.contains("Doc comments\ntrue\n1.2\n8.0.2\n8.0.10\n"))
        // What the release tooling guide says its live examples print.
        let guide = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/StoreReleaseKit.docc/ReleaseTooling.md"),
            encoding: .utf8)
        let markdown = try #require(ReleaseToolingGuideTests.block(after: "prints, for a CI job summary:", in: guide))
        #expect(result.stdout.contains(markdown))
        #expect(result.stdout.contains("inProgress 8.0.10 0.2\n"))
        #expect(result.stdout.contains("8.0.2 reaches 5% of automatic updates (ACTIVE, day 3)\n"))
        #expect(
            result.stdout.contains(
                "minimumSupportedVersion left out: 8.0.2 is in a phased release on the App Store (ACTIVE, day 3, 5% of "
                    + "automatic updates); forcing waits until it is complete\n"))
        // The README's backend example.
        #expect(
            result.stdout.contains(
                "The stores agree.\n\nApp Store\n  cn  8.0.2  2021-02-02T08:15:22Z\nGoogle Play (production)\n"
                    + "  live     8.0.2 (versionCode 80)\n"
                    + "  rollout  8.0.10 (versionCode 81) to 20% of users in us, ca only, priority 3\n"
                    + "Forcing 8.0.2: safe now.\n"))
        #expect(result.stdout.contains("round 1: 8.0.2 live in cn; fully rolled out on Google Play (production)\n"))
        #expect(result.stdout.contains("8.0.2 is live in cn; fully rolled out on Google Play (production)\n"))
        #expect(result.stdout.contains("not yet: not live in storefront cn yet; not fully rolled out on Play"))
    }
}
