import Foundation
import Testing

/// The update flow's diagrams on the docs site are what `storerelease graph` prints from the
/// machine now.
@Suite struct DiagramTests {
    static let resources = BuiltProducts.packageRoot.appendingPathComponent("Docs/StoreReleaseKit.docc/Resources")

    static func graph(_ store: String, _ format: String) throws -> String {
        let result = try BuiltProducts.storerelease("graph", "--store", store, "--format", format)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test(arguments: ["googlePlay", "appStore"])
    func theDocsSitesDiagramSourcesAreTheMachines(_ store: String) throws {
        let dot = try String(
            contentsOf: Self.resources.appendingPathComponent("update-flow-\(store).dot"), encoding: .utf8)
        #expect(dot == (try Self.graph(store, "dot")), "run Scripts/diagrams.sh")
        // The SVG is Graphviz's rendering of that source: every transition's label is in it.
        let svg = try String(
            contentsOf: Self.resources.appendingPathComponent("update-flow-\(store).svg"), encoding: .utf8)
        for line in dot.split(separator: "\n") where line.contains("label=\"") {
            let label = line.components(separatedBy: "label=\"").last?.components(separatedBy: "\"").first ?? ""
            for part in label.components(separatedBy: "\\n") {
                #expect(svg.contains(part), "the SVG lacks \(part): run Scripts/diagrams.sh")
            }
        }
    }

    @Test func theSimulatorGuideListsEveryTransitionBesideThePictures() throws {
        let guide = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent(
                "Docs/StoreReleaseKit.docc/TestingWithTheSimulator.md"),
            encoding: .utf8)
        for store in ["googlePlay", "appStore"] {
            #expect(guide.contains("](update-flow-\(store).svg)"), "the picture of \(store)'s flow")
            #expect(
                guide.contains(try Self.graph(store, "table")), "run storerelease graph --store \(store) --format table"
            )
        }
    }

    @Test func thePictureFoldsTheWaysBackIntoOneEdgeACluster() throws {
        let dot = try Self.graph("googlePlay", "dot")
        #expect(dot.contains("subgraph cluster_flexible {") && dot.contains("subgraph cluster_immediate {"))
        let folded = dot.split(separator: "\n").filter { $0.contains("ltail=cluster_") }
        #expect(folded.count == 2, "one edge back a cluster: \(folded)")
        let table = try Self.graph("googlePlay", "table")
        let rows = table.split(separator: "\n").dropFirst(2)
        let drawn = dot.split(separator: "\n").filter { $0.contains(" -> ") && !$0.contains("start ->") }
        #expect(rows.count > drawn.count, "the table lists every transition, the picture folds them")
        for verb in ["userRejectsUpdate", "downloadFails", "userCancelsDownload", "installFails"] {
            #expect(folded.allSatisfy { $0.contains(verb) }, "\(verb) is on each folded edge")
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
        #expect(format.status == 2 && format.stderr.contains(#"--format "png" is not mermaid, dot or table"#))
    }
}
