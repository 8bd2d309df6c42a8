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

    /// The docs site's pictures: each store's flexible and immediate flow, a picture each.
    static let pictures = ["googlePlay", "appStore"].flatMap { store in
        ["flexible", "immediate"].map { (store: store, flow: $0) }
    }

    /// The picture of a store's flow: `update-flow-googlePlay-flexible`.
    static func picture(_ store: String, _ flow: String) -> String { "update-flow-\(store)-\(flow)" }

    @Test(arguments: pictures)
    func theDocsSitesDiagramSourcesAreTheMachines(_ store: String, _ flow: String) throws {
        let dot = try String(
            contentsOf: Self.resources.appendingPathComponent(Self.picture(store, flow) + ".dot"), encoding: .utf8)
        let result = try BuiltProducts.storerelease("graph", "--store", store, "--format", "dot", "--flow", flow)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(dot == result.stdout, "run Scripts/diagrams.sh")
        // The SVG is Graphviz's rendering of that source: every transition's label is in it.
        let svg = try String(
            contentsOf: Self.resources.appendingPathComponent(Self.picture(store, flow) + ".svg"), encoding: .utf8)
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
        for (store, flow) in Self.pictures {
            #expect(guide.contains("](\(Self.picture(store, flow)).svg)"), "the picture of \(store)'s \(flow) flow")
        }
        for store in ["googlePlay", "appStore"] {
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

    @Test func theTwoPanelsOfAStoreDrawWhatTheWholePictureDraws() throws {
        for store in ["googlePlay", "appStore"] {
            let whole = try Self.graph(store, "dot").split(separator: "\n")
            var panels: [String: [Substring]] = [:]
            for flow in ["flexible", "immediate"] {
                let result = try BuiltProducts.storerelease(
                    "graph", "--store", store, "--format", "dot", "--flow", flow)
                #expect(result.status == 0, "\(result.stderr)")
                let other = flow == "flexible" ? "immediate" : "flexible"
                #expect(result.stdout.hasPrefix("digraph \(store)_\(flow) {\n"))
                #expect(result.stdout.contains("subgraph cluster_\(flow) {"))
                #expect(!result.stdout.contains("cluster_\(other)"), "\(store) \(flow): one flow a panel")
                panels[flow] = result.stdout.split(separator: "\n")
            }
            // Every edge of the whole picture is in a panel, word for word, but the one between the
            // idle states (each panel draws it with the state its flow starts from on the left) and
            // the invisible one that stacks the clusters.
            let drawn = Set(panels.values.joined())
            for line in whole where line.contains(" -> ") && !line.contains("dir=both") && !line.contains("style=invis")
            {
                #expect(drawn.contains(line), "\(store): no panel draws \(line)")
            }
            // The flow starts from the offer: it is the left idle state, and the arrows say so.
            for lines in panels.values {
                let idle = lines.first { $0.contains("rank=same") } ?? ""
                #expect(idle.contains("{ rank=same; \"update available\";"), "\(store): \(idle)")
            }
        }
        let mermaid = try BuiltProducts.storerelease("graph", "--flow", "flexible")
        #expect(mermaid.status == 2 && mermaid.stderr.contains("graph: --flow draws one flow in DOT: add --format dot"))
        let bad = try BuiltProducts.storerelease("graph", "--format", "dot", "--flow", "sideways")
        #expect(bad.status == 2 && bad.stderr.contains(#"--flow "sideways" is not flexible or immediate"#))
    }

    /// The width of the docs page's narrowest column: DocC's article column at a 1024 px window,
    /// where the navigator opens (449 px, measured in headless Chromium; 705 px at 1280), and a
    /// wider picture is scaled down to it. Every other window's column is wider, so a picture
    /// that reads here reads at every width.
    static let pageColumn = 449.0

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

    @Test(arguments: pictures)
    func thePictureReadsInTheDocsPagesNarrowestColumn(_ store: String, _ flow: String) throws {
        let svg = try String(
            contentsOf: Self.resources.appendingPathComponent(Self.picture(store, flow) + ".svg"), encoding: .utf8)
        let drawing = Drawing(svg: svg)
        // Graphviz's units are points: a user unit is 4/3 px, and the page shows the picture at its
        // natural size when it fits the column, scaled down to the column when it does not.
        #expect(drawing.width > 0 && abs(drawing.viewBoxWidth - drawing.width) < 1, "width and viewBox agree")
        let natural = drawing.width * 4 / 3
        let scale = min(1, Self.pageColumn / natural)
        #expect(drawing.texts.count > 10)
        for text in drawing.texts {
            let drawn = text.fontSize * 4 / 3 * scale
            #expect(
                drawn >= 11,
                "\(store) \(flow): \(text.string) is \(drawn) px in the \(Self.pageColumn)-px column (\(natural) px wide)"
            )
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
                    Issue.record(
                        "\(store) \(flow): the edge \(edge.title) is drawn through \(text.string.debugDescription)")
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
