import Foundation
import Testing

/// The update flow's diagrams in the README and the docs site are what `storerelease graph`
/// prints from the machine now.
@Suite struct DiagramTests {
    static let resources = BuiltProducts.packageRoot.appendingPathComponent("Docs/StoreReleaseKit.docc/Resources")

    static func graph(_ store: String, _ format: String) throws -> String {
        let result = try BuiltProducts.storerelease("graph", "--store", store, "--format", format)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func theREADMEsMermaidBlocksAreTheMachines() throws {
        let readme = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```mermaid\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        #expect(blocks == [try Self.graph("googlePlay", "mermaid"), try Self.graph("appStore", "mermaid")])
    }

    @Test(arguments: ["googlePlay", "appStore"])
    func theDocsSitesDiagramSourcesAreTheMachines(_ store: String) throws {
        let dot = try String(
            contentsOf: Self.resources.appendingPathComponent("update-flow-\(store).dot"), encoding: .utf8)
        #expect(dot == (try Self.graph(store, "dot")), "run Scripts/diagrams.sh")
        // The SVG is Graphviz's rendering of that source: every transition's label is in it.
        let svg = try String(
            contentsOf: Self.resources.appendingPathComponent("update-flow-\(store).svg"), encoding: .utf8)
        for line in dot.split(separator: "\n") where line.contains("[label=") {
            let label = line.components(separatedBy: "[label=\"").last?.components(separatedBy: "\"]").first ?? ""
            #expect(svg.contains(label), "the SVG lacks \(label): run Scripts/diagrams.sh")
        }
    }

    @Test func theGraphNamesEveryStateAndRefusesBadFlags() throws {
        let play = try Self.graph("googlePlay", "mermaid")
        for state in [
            "no update", "update available", "confirmation dialog", "immediate screen", "pending (flexible)",
            "downloading (flexible)", "downloaded (flexible)", "installing (flexible)", "downloaded (immediate)",
        ] {
            #expect(play.contains(": \(state)\n"), "\(state)")
        }
        #expect(play.contains("confirmation_dialog --> pending__flexible_: userAcceptsUpdate / PENDING\n"))
        #expect(
            play.contains("immediate_screen --> pending__immediate_: userAcceptsUpdate\n"),
            "immediate flows tell no one")
        #expect(play.contains("downloading__immediate_ --> update_available: userRejectsUpdate\n"))
        let bad = try BuiltProducts.storerelease("graph", "--store", "windows")
        #expect(bad.status == 2 && bad.stderr.contains(#"--store "windows" is not googlePlay or appStore"#))
        let format = try BuiltProducts.storerelease("graph", "--format", "png")
        #expect(format.status == 2 && format.stderr.contains(#"--format "png" is not mermaid or dot"#))
    }
}
