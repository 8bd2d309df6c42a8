import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels
@testable import StoreReleaseTooling

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `storerelease timeline`'s picture: well-formed XML, one series per versionCode and version,
/// a mark for each halt and pause in the history, no text below 11 px, nothing outside the view
/// box, and the docs' picture exactly what the bundled history draws.
@Suite struct TimelineChartTests {
    static let historyPath = LoopbackServer.packageRoot.appendingPathComponent("Docs/Watch/timeline-history.jsonl")
    static let picturePath = LoopbackServer.packageRoot.appendingPathComponent("Docs/Watch/timeline-8.0.10.svg")

    /// The elements of an SVG with their attributes, and whether it parsed.
    final class Elements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append((name, attributes))
        }

        static func parse(_ svg: String) -> Elements? {
            let parser = XMLParser(data: Data(svg.utf8))
            let elements = Elements()
            parser.delegate = elements
            return parser.parse() ? elements : nil
        }
    }

    func bundled() throws -> (ReleaseHistory, TimelineChart) {
        let history = try ReleaseHistoryFile(path: Self.historyPath.path).read()
        return (history, TimelineChart(try ReleaseTimeline(history)))
    }

    @Test func thePictureIsWellFormedAndItsMarksAreTheHistorysHaltsAndPauses() throws {
        let (history, chart) = try bundled()
        let elements = try #require(Elements.parse(chart.svg), "the SVG is well-formed XML")
        // Halts and pauses counted from the rounds themselves, not from the timeline.
        var halts: [String] = []
        var pauses: [String] = []
        var wasHalted = false
        var wasPaused = false
        for round in history.rounds {
            let halted =
                round.googlePlay?.releases.contains { $0.version?.description == "8.0.10" && $0.status == .halted }
                ?? false
            let paused =
                round.appStoreConnect?.contains { $0.version == "8.0.10" && $0.phasedRelease?.state == .paused }
                ?? false
            if halted && !wasHalted { halts.append(ISO8601Timestamp.string(from: round.takenAt)) }
            if paused && !wasPaused { pauses.append(ISO8601Timestamp.string(from: round.takenAt)) }
            (wasHalted, wasPaused) = (halted, paused)
        }
        #expect(!halts.isEmpty && !pauses.isEmpty, "the bundled release has a halt and a pause")
        let marks = elements.elements.filter { $0.attributes["data-mark"] != nil }
        #expect(marks.filter { $0.attributes["data-mark"] == "halt" }.compactMap { $0.attributes["data-at"] } == halts)
        #expect(
            marks.filter { $0.attributes["data-mark"] == "pause" }.compactMap { $0.attributes["data-at"] } == pauses)
        let series = Set(elements.elements.compactMap { $0.attributes["data-series"] })
        #expect(
            series.isSuperset(of: [
                "play-81", "phased", "storefronts-8.0.10", "storefronts-8.0.9", "crash-googlePlay", "crash-appStore",
            ]))
        #expect(
            elements.elements.contains {
                $0.attributes["data-series"] == "play-81" && $0.attributes["data-stopped"] == "true"
            },
            "the halted stretch is drawn as such")
        #expect(!chart.svg.contains("<script") && !chart.svg.contains("href") && !chart.svg.contains("@font-face"))
    }

    @Test func noTextIsSmallerThanElevenPixelsAndNothingIsOutsideTheViewBox() throws {
        let (_, chart) = try bundled()
        let elements = try #require(Elements.parse(chart.svg))
        let root = try #require(elements.elements.first)
        let box = (root.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(box == [0, 0, 1280, Double(chart.height)])
        let (width, height) = (box[2], box[3])
        var outside: [String] = []
        for element in elements.elements {
            let a = element.attributes
            if element.name == "text" {
                let size = Double(a["font-size"] ?? "") ?? 0
                #expect(size >= 11, "text \(a) is smaller than 11 px")
            }
            var xs = ["x", "x1", "x2", "cx"].compactMap { a[$0].flatMap(Double.init) }
            var ys = ["y", "y1", "y2", "cy"].compactMap { a[$0].flatMap(Double.init) }
            for key in ["points", "d"] {
                let numbers = (a[key] ?? "").split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap {
                    Double($0)
                }
                if key == "points" {
                    xs += stride(from: 0, to: numbers.count, by: 2).map { numbers[$0] }
                    ys += stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
                } else {
                    // M x,y H x V y: each number is within both sides of the box.
                    xs += numbers.filter { $0 > height }
                    ys += numbers.filter { $0 > width }
                }
            }
            if let w = a["width"].flatMap(Double.init), let x = xs.first, x + w > width { outside.append("\(a)") }
            if xs.contains(where: { $0 < 0 || $0 > width }) || ys.contains(where: { $0 < 0 || $0 > height }) {
                outside.append("\(element.name) \(a)")
            }
        }
        #expect(outside.isEmpty, "\(outside.prefix(3))")
    }

    @Test func theDocsPictureIsWhatTheBundledHistoryDraws() throws {
        let (_, chart) = try bundled()
        let committed = try String(contentsOf: Self.picturePath, encoding: .utf8)
        let shown = try String(
            contentsOf: LoopbackServer.packageRoot.appendingPathComponent(
                "Docs/StoreReleaseKit.docc/Resources/timeline-8.0.10.svg"), encoding: .utf8)
        #expect(
            shown == committed, "the guide shows Docs/Watch/timeline-8.0.10.svg: copy it to the catalog's Resources")
        #expect(
            committed == chart.svg,
            "regenerate it: swift run storerelease timeline Docs/Watch/timeline-history.jsonl > Docs/Watch/timeline-8.0.10.svg"
        )
    }

    @Test func theHTMLHoldsThePictureAndTheSameDataAsATable() throws {
        let (_, chart) = try bundled()
        let html = chart.html
        #expect(html.contains(chart.svg))
        #expect(html.contains("<th scope=\"col\">Google Play 81</th>") && html.contains("20% (halted)"))
        #expect(html.contains("10%, day 4 (paused)"))
        #expect(!html.contains("<script") && !html.contains("<link"))
    }

    @Test func aVersionTheHistoryNeverSawNamesTheOnesItHas() throws {
        let (history, _) = try bundled()
        #expect(throws: ReleaseTimelineError.self) {
            try ReleaseTimeline(history, version: try Version(parsing: "9.0"))
        }
        do {
            _ = try ReleaseTimeline(history, version: try Version(parsing: "9.0"))
        } catch {
            #expect("\(error)" == "the history never saw version 9.0; it has 8.0.9, 8.0.10")
        }
    }

    @Test(
        arguments: [(0, 3600 * 5, 3600), (0, 86400 * 5, 86400), (0, 86400 * 30, 604_800)] as [(Double, Double, Double)])
    func theTimeAxisTicksOnReadableSteps(from: Double, to: Double, step: Double) {
        let start = Date(timeIntervalSince1970: 1_612_771_200 + from)  // Mon 8 Feb 2021 08:00 UTC
        let axis = TimelineTimeAxis(start: start, end: start.addingTimeInterval(to))
        #expect(axis.step == step)
        #expect(axis.ticks.count <= TimelineTimeAxis.maximumTicks && !axis.ticks.isEmpty)
    }
}
