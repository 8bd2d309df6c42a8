import Foundation
import Testing

/// The documentation site builds with the toolchain's `docc`, warning-free, and covers the
/// whole public surface: every declaration summarized in one line, every type on the landing page.
@Suite struct DocumentationSiteTests {
    /// The parts of a symbol graph these checks read.
    struct SymbolGraph: Decodable {
        struct Symbol: Decodable {
            struct Kind: Decodable { let identifier: String }
            struct DocComment: Decodable {
                struct Line: Decodable { let text: String }
                let lines: [Line]
            }
            struct Location: Decodable {
                struct Position: Decodable { let line: Int }
                let uri: String
                let position: Position
            }
            let kind: Kind
            let pathComponents: [String]
            let docComment: DocComment?
            let location: Location?
        }
        let symbols: [Symbol]
    }

    /// What `Scripts/docs.sh` did: its output, the symbols it extracted, the site's root page and
    /// the paths of the site's files (relative to the site's folder).
    struct Build: Sendable {
        let result: BuiltProducts.Result
        let symbols: [SymbolGraph.Symbol]
        let rootPage: String
        let siteFiles: Set<String>
    }

    /// `Scripts/docs.sh` run once, on the modules this test build made.
    static let build: Result<Build, any Error> = Result {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("storerelease-docs-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/bash"),
            [BuiltProducts.packageRoot.appendingPathComponent("Scripts/docs.sh").path, output.path],
            environment: ["STORERELEASE_MODULES": BuiltProducts.directory.appendingPathComponent("Modules").path])
        let graphs = output.appendingPathComponent("symbol-graphs")
        let files = (try? FileManager.default.contentsOfDirectory(at: graphs, includingPropertiesForKeys: nil)) ?? []
        let symbols = try files.filter { $0.pathExtension == "json" }.flatMap {
            try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: $0)).symbols
        }
        let site = output.appendingPathComponent("site")
        let rootPage = (try? String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)) ?? ""
        let siteFiles = Set(
            (FileManager.default.enumerator(atPath: site.path)?.allObjects as? [String] ?? []).filter {
                !$0.hasSuffix("/")
            })
        return Build(result: result, symbols: symbols, rootPage: rootPage, siteFiles: siteFiles)
    }

    /// The symbols declared in the library's sources (not synthesized, not inherited).
    static func declaredSymbols() throws -> [SymbolGraph.Symbol] {
        let build = try Self.build.get()
        return build.symbols.filter { symbol in
            BuiltProducts.libraryModules.contains { symbol.location?.uri.contains("/Sources/\($0)/") ?? false }
        }
    }

    @Test func theCatalogBuildsWithoutWarnings() throws {
        let result = try Self.build.get().result
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "Scripts/docs.sh failed:\n\(output)")
        #expect(!output.contains("warning:"), "docc warned:\n\(output)")
        #expect(!output.contains("error:"), "docc reported an error:\n\(output)")
    }

    /// The site's root is not docc's "page not found" and not a redirect (a `meta refresh` of 0
    /// keeps `chromium --headless --screenshot` of it from ever ending): a page of its own, with a
    /// link to the documentation and one to each guide, each leading to a page the site has.
    @Test func theSitesRootIsAPageThatLinksToTheDocumentationAndEachGuide() throws {
        let build = try Self.build.get()
        let page = build.rootPage
        #expect(!page.lowercased().contains("http-equiv=\"refresh\""), "no redirect: \(page)")
        let links = page.components(separatedBy: #"<a href=""#).dropFirst().compactMap {
            $0.components(separatedBy: "\"").first
        }
        #expect(links.first == "documentation/storereleasekit/", "the root's first link: \(page)")
        let articles = try FileManager.default.contentsOfDirectory(
            atPath: BuiltProducts.packageRoot.appendingPathComponent("Docs/StoreReleaseKit.docc").path
        ).filter { $0.hasSuffix(".md") && $0 != "StoreReleaseKit.md" }
        #expect(links.count == articles.count + 1, "a link to each guide: \(links)")
        for link in links {
            let target = link.hasSuffix("/") ? link + "index.html" : link + "/index.html"
            #expect(build.siteFiles.contains(target), "\(link) leads to a page of the site")
        }
        #expect(build.siteFiles.contains("data/documentation/storereleasekit.json"), "and the landing page's data")
    }

    /// Every guide and README that names the seeds says what they are where it first names them:
    /// the five articles the package grew from, each described in the migration guide.
    @Test func everyGuideSaysWhatTheSeedsAreWhereItFirstNamesThem() throws {
        let root = BuiltProducts.packageRoot
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix(".md") && !$0.hasPrefix(".build") && !$0.contains("/.build/")
        }
        var naming: [String] = []
        for path in paths.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            // A fuzzer's "seed corpus" is another seed.
            guard let first = text.range(of: #"\b[Ss]eeds?\b(?! corpus)"#, options: .regularExpression) else {
                continue
            }
            naming.append(path)
            let paragraph =
                (text[..<first.lowerBound].components(separatedBy: "\n\n").last ?? "")
                + (text[first.lowerBound...].components(separatedBy: "\n\n").first ?? "")
            if path.hasSuffix("MigratingFromHandWrittenChecks.md") {
                for seed in 0...4 {
                    #expect(text.contains("**Seed 00\(seed)**,"), "\(path) describes seed 00\(seed)")
                }
            } else {
                #expect(
                    paragraph.contains("article")
                        && (paragraph.contains("<doc:MigratingFromHandWrittenChecks>")
                            || paragraph.contains("MigratingFromHandWrittenChecks.md")),
                    "\(path) names the seeds without saying what they are:\n\(paragraph)")
            }
        }
        #expect(naming.count >= 8, "the guides that name the seeds: \(naming)")
    }

    /// The names of the top-level public types in the library's sources, read from the text.
    static func publicTypesInSources() throws -> Set<String> {
        let files = BuiltProducts.libraryModules.flatMap { module in
            let sources = BuiltProducts.packageRoot.appendingPathComponent("Sources/\(module)")
            return
                (FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL]
                ?? [])
                .filter { $0.pathExtension == "swift" }
        }
        var names: Set<String> = []
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            where line.hasPrefix("public ") {
                let words = line.split(separator: " ")
                guard words.first == "public", words.count >= 3 else { continue }
                let kind = words[1] == "final" && words.count >= 4 ? words[2] : words[1]
                let nameIndex = words[1] == "final" ? 3 : 2
                guard ["struct", "enum", "protocol", "actor", "class"].contains(kind), nameIndex < words.count else {
                    continue
                }
                names.insert(String(words[nameIndex].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        return names
    }

    @Test func everyPublicDeclarationHasAOneLineSummary() throws {
        let symbols = try Self.declaredSymbols()
        // The graph holds the library's public API: every public type the sources declare.
        let graphTypes = Set(symbols.filter { $0.pathComponents.count == 1 }.map { $0.pathComponents[0] })
        let declared = try Self.publicTypesInSources()
        #expect(!declared.isEmpty && declared.isSubset(of: graphTypes), "missing: \(declared.subtracting(graphTypes))")
        var missing: [String] = []
        var longSummaries: [String] = []
        for symbol in symbols {
            let place =
                "\(symbol.location.map { "\(($0.uri as NSString).lastPathComponent):\($0.position.line + 1)" } ?? "?") \(symbol.pathComponents.joined(separator: "."))"
            let lines = symbol.docComment?.lines.map { $0.text.trimmingCharacters(in: .whitespaces) } ?? []
            guard let first = lines.first, !first.isEmpty else {
                missing.append(place)
                continue
            }
            // The summary is the first paragraph: it must end with its first line.
            if lines.count > 1, !lines[1].isEmpty {
                longSummaries.append(place)
            }
        }
        #expect(
            missing.isEmpty, "public declarations without a doc comment:\n\(missing.sorted().joined(separator: "\n"))")
        #expect(
            longSummaries.isEmpty,
            "summaries longer than one line:\n\(longSummaries.sorted().joined(separator: "\n"))")
    }

    @Test func theLandingPageGroupsEveryPublicType() throws {
        let topLevel = Set(
            try Self.declaredSymbols()
                .filter { $0.pathComponents.count == 1 && $0.kind.identifier != "swift.extension" }
                .map { $0.pathComponents[0] })
        #expect(topLevel.contains("Version") && topLevel.contains("UpdateFlowSimulator"))
        let landing = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent(
                "Docs/StoreReleaseKit.docc/StoreReleaseKit.md"),
            encoding: .utf8)
        let topics = landing.components(separatedBy: "## Topics").last ?? ""
        let linked = Set(
            topics.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("- ``"), trimmed.hasSuffix("``") else { return nil }
                return String(trimmed.dropFirst(4).dropLast(2))
            })
        #expect(
            topLevel.subtracting(linked).isEmpty,
            "types missing from the landing page's topics: \(topLevel.subtracting(linked).sorted())")
        #expect(
            linked.subtracting(topLevel).isEmpty,
            "topics naming no public type: \(linked.subtracting(topLevel).sorted())")
    }

    @Test func everyArticleIsOnTheLandingPage() throws {
        let catalog = BuiltProducts.packageRoot.appendingPathComponent("Docs/StoreReleaseKit.docc")
        let articles = try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" && $0.lastPathComponent != "StoreReleaseKit.md" }
            .map { $0.deletingPathExtension().lastPathComponent }
        let landing = try String(contentsOf: catalog.appendingPathComponent("StoreReleaseKit.md"), encoding: .utf8)
        #expect(articles.count >= 7)
        for article in articles {
            #expect(landing.contains("<doc:\(article)>"), "\(article) is not linked from the landing page")
        }
    }
}
