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
        let lines = dot.split(separator: "\n")
        // Each cluster's way back: a dashed edge into the cluster from a text naming the events,
        // and one from that text to the idle state.
        let folded = lines.filter { $0.contains("lhead=cluster_") && $0.contains("style=dashed") }
        #expect(folded.count == 2, "one way back a cluster: \(folded)")
        let texts = lines.filter { $0.contains("[shape=plaintext") }
        #expect(texts.count == 2 && texts.allSatisfy { $0.contains("\"ways back (") })
        let table = try Self.graph("googlePlay", "table")
        let rows = table.split(separator: "\n").dropFirst(2)
        let drawn = lines.filter { $0.contains(" -> ") && !$0.contains("start ->") }
        #expect(rows.count > drawn.count, "the table lists every transition, the picture folds them")
        for verb in ["userRejectsUpdate", "downloadFails", "userCancelsDownload", "installFails"] {
            #expect(texts.allSatisfy { $0.contains(verb) }, "\(verb) is on each way back")
        }
    }

    /// The width of the docs page's column at a 1280 px window: what Chromium lays out for the
    /// simulator guide (DocC's article column, 705 px), where wider pictures are scaled down.
    static let pageColumn = 705.0

    /// What Graphviz drew: the picture's size, and each text and edge with where it is.
    struct Drawing {
        struct Text {
            /// `edge` or `node`, and the title of the edge or node it belongs to.
            let group: String
            let title: String
            let string: String
            let x: Double
            let y: Double
            let fontSize: Double
        }
        var width = 0.0
        var viewBoxWidth = 0.0
        var texts: [Text] = []
        /// Each edge's title and points along its path (every curve sampled).
        var edges: [(title: String, points: [(x: Double, y: Double)])] = []

        init(svg: String) {
            func attribute(_ name: String, in tag: String) -> String? {
                tag.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first
            }
            let head =
                " " + (svg.components(separatedBy: "<svg ").dropFirst().first?.components(separatedBy: ">").first ?? "")
            width = Double(attribute("width", in: head)?.replacingOccurrences(of: "pt", with: "") ?? "") ?? 0
            viewBoxWidth = Double(attribute("viewBox", in: head)?.split(separator: " ").dropFirst(2).first ?? "") ?? 0
            for group in svg.components(separatedBy: "<g id=\"").dropFirst() {
                let kind = attribute("class", in: " " + (group.components(separatedBy: ">").first ?? "")) ?? ""
                let title =
                    (group.components(separatedBy: "<title>").dropFirst().first?
                    .components(separatedBy: "</title>").first ?? "")
                    .replacingOccurrences(of: "&#45;", with: "-").replacingOccurrences(of: "&gt;", with: ">")
                for text in group.components(separatedBy: "<text ").dropFirst() {
                    let tag = " " + (text.components(separatedBy: ">").first ?? "")
                    let string =
                        text.components(separatedBy: ">").dropFirst().first?
                        .components(separatedBy: "</text").first ?? ""
                    texts.append(
                        Text(
                            group: kind, title: title,
                            string: string.replacingOccurrences(
                                of: "&[^;]+;", with: "x", options: .regularExpression),
                            x: Double(attribute("x", in: tag) ?? "") ?? 0,
                            y: Double(attribute("y", in: tag) ?? "") ?? 0,
                            fontSize: Double(attribute("font-size", in: tag) ?? "") ?? 0))
                }
                guard kind == "edge" else { continue }
                for path in group.components(separatedBy: "<path ").dropFirst() {
                    let numbers = (attribute("d", in: " " + path) ?? "")
                        .split(whereSeparator: { !"-.0123456789".contains($0) }).compactMap { Double($0) }
                    let corners = stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
                    var points: [(x: Double, y: Double)] = []
                    for start in stride(from: 0, to: corners.count - 3, by: 3) {
                        let (p0, p1, p2, p3) = (
                            corners[start], corners[start + 1], corners[start + 2], corners[start + 3]
                        )
                        for step in 0...20 {
                            let t = Double(step) / 20
                            let (a, b, c, d) = (
                                (1 - t) * (1 - t) * (1 - t), 3 * (1 - t) * (1 - t) * t, 3 * (1 - t) * t * t, t * t * t
                            )
                            points.append(
                                (a * p0.0 + b * p1.0 + c * p2.0 + d * p3.0, a * p0.1 + b * p1.1 + c * p2.1 + d * p3.1))
                        }
                    }
                    edges.append((title, points))
                }
            }
        }
    }

    /// A character's advance in Helvetica, in ems (its metrics, grouped; the browser's Helvetica,
    /// Arial or Liberation Sans, sets the same).
    static func helveticaWidth(_ character: Character) -> Double {
        switch character {
        case "i", "j", "l": 0.222
        case "f", "t", "I", " ", ".", ",", "/", ":", ";", "!", "'": 0.278
        case "r", "(", ")", "-": 0.333
        case "c", "k", "s", "v", "x", "y", "z", "J": 0.5
        case "F", "T", "Z": 0.611
        case "A", "B", "E", "K", "P", "S", "V", "X", "Y": 0.667
        case "C", "D", "H", "N", "R", "U", "w": 0.722
        case "G", "O", "Q": 0.778
        case "m", "M": 0.833
        case "W": 0.944
        case "→", "←": 1
        default: 0.556
        }
    }

    @Test(arguments: ["googlePlay", "appStore"])
    func thePictureReadsInTheDocsPageAt1280Pixels(_ store: String) throws {
        let svg = try String(
            contentsOf: Self.resources.appendingPathComponent("update-flow-\(store).svg"), encoding: .utf8)
        let drawing = Drawing(svg: svg)
        // Graphviz's units are points: a user unit is 4/3 px, and the page shows the picture at its
        // natural size when it fits the column, scaled down to the column when it does not.
        #expect(drawing.width > 0 && abs(drawing.viewBoxWidth - drawing.width) < 1, "width and viewBox agree")
        let natural = drawing.width * 4 / 3
        #expect(natural <= Self.pageColumn, "\(store): \(natural) px wide, the column is \(Self.pageColumn)")
        let scale = min(1, Self.pageColumn / natural)
        #expect(drawing.texts.count > 10)
        for text in drawing.texts {
            #expect(text.fontSize * 4 / 3 * scale >= 11, "\(text.string) is \(text.fontSize * 4 / 3 * scale) px")
        }
        // No edge is drawn through a text: a text's box is as wide as Helvetica sets it (the thin
        // spaces around a label's lines left out) around its anchor (the middle), from 0.75 em
        // above its baseline to 0.2 below.
        #expect(drawing.edges.count > 5)
        for text in drawing.texts where text.group == "edge" || text.group == "node" {
            let visible = text.string.trimmingCharacters(in: CharacterSet(charactersIn: "\u{2009} "))
            let half = visible.reduce(0) { $0 + Self.helveticaWidth($1) } * text.fontSize / 2
            for edge in drawing.edges {
                let through = edge.points.contains {
                    $0.x > text.x - half && $0.x < text.x + half
                        && $0.y > text.y - 0.75 * text.fontSize && $0.y < text.y + 0.2 * text.fontSize
                }
                if through {
                    Issue.record("\(store): the edge \(edge.title) is drawn through \(text.string.debugDescription)")
                }
            }
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
