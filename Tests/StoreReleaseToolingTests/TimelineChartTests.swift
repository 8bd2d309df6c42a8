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
        /// The text inside each element, by its index in ``elements``.
        var texts: [Int: String] = [:]
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append((name, attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            texts[elements.count - 1, default: ""] += string
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

    /// The picture with the tool's footnote (it names `storerelease timeline` and `watch
    /// --history`, where the library names the history's type): what `storerelease timeline` draws.
    static func asTheToolDraws(_ chart: TimelineChart) -> String {
        let toolWords: @Sendable (FailureHint) -> String = { hint in
            hint == .drawnFromHistory ? "Drawn by storerelease timeline from a watch --history." : hint.libraryWords
        }
        return FailureHint.$wording.withValue(toolWords) { chart.svg }
    }

    @Test func theDocsPictureIsWhatTheBundledHistoryDraws() throws {
        let (history, _) = try bundled()
        let chart = try TimelineChart(try ReleaseTimeline(history), width: Self.docsWidth)
        #expect(
            try Self.committedPicture("timeline-8.0.10.svg") == Self.asTheToolDraws(chart),
            "regenerate it: bash Scripts/diagrams.sh (storerelease timeline Docs/Watch/timeline-history.jsonl --width \(Self.docsWidth))"
        )
    }

    /// A guide's timeline as committed in `Docs/Watch`, checked to be the copy the catalog shows.
    static func committedPicture(_ name: String) throws -> String {
        let root = LoopbackServer.packageRoot
        let committed = try String(contentsOf: root.appendingPathComponent("Docs/Watch/\(name)"), encoding: .utf8)
        let catalog = root.appendingPathComponent("Docs/StoreReleaseKit.docc/Resources/\(name)")
        let shown = try String(contentsOf: catalog, encoding: .utf8)
        #expect(shown == committed, "the guide shows Docs/Watch/\(name): copy it to the catalog's Resources")
        return committed
    }

    @Test func theHTMLHoldsThePictureAndTheSameDataAsATable() throws {
        let (_, chart) = try bundled()
        let html = chart.html
        #expect(html.contains(chart.pagePicture))
        #expect(html.contains("<th scope=\"col\">Google Play 81 (8.0.10)</th>") && html.contains("20% (halted)"))
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
            #expect("\(error)" == "the history never saw version 9.0; it has 8.0.2, 8.0.9, 8.0.10")
        }
    }

    // MARK: Every release of the track, every changed round

    /// A round of a Play-only history: `releases` are (versionCode, version, status, fraction).
    static func round(_ at: String, _ releases: [(Int, String, String, Double?)]) -> String {
        let body = releases.map { code, version, status, fraction in
            #"{"versionCode":\#(code),"version":"\#(version)","status":"\#(status)""#
                + (fraction.map { #","userFraction":\#($0)"# } ?? "") + "}"
        }
        return #"{"takenAt":"\#(at)","googlePlay":{"track":"production","releases":[\#(body.joined(separator: ","))]}}"#
    }

    /// 80 (8.0.9) rolled out to 10% and halted, then 81 (8.0.10) rolled out in its place to 100%.
    static let haltedThenReplaced: [String] = [
        round("2021-02-08T08:00:00Z", [(79, "8.0.8", "completed", nil), (80, "8.0.9", "inProgress", 0.05)]),
        round("2021-02-08T09:00:00Z", [(79, "8.0.8", "completed", nil), (80, "8.0.9", "inProgress", 0.05)]),
        round("2021-02-08T10:00:00Z", [(79, "8.0.8", "completed", nil), (80, "8.0.9", "inProgress", 0.1)]),
        round("2021-02-08T11:00:00Z", [(79, "8.0.8", "completed", nil), (80, "8.0.9", "halted", 0.1)]),
        round("2021-02-08T12:00:00Z", [(79, "8.0.8", "completed", nil), (80, "8.0.9", "halted", 0.1)]),
        round("2021-02-08T13:00:00Z", [(79, "8.0.8", "completed", nil), (81, "8.0.10", "inProgress", 0.05)]),
        round("2021-02-08T14:00:00Z", [(79, "8.0.8", "completed", nil), (81, "8.0.10", "inProgress", 0.05)]),
        round("2021-02-08T15:00:00Z", [(79, "8.0.8", "completed", nil), (81, "8.0.10", "inProgress", 0.2)]),
        round("2021-02-08T16:00:00Z", [(79, "8.0.8", "completed", nil), (81, "8.0.10", "inProgress", 0.5)]),
        round("2021-02-08T17:00:00Z", [(81, "8.0.10", "completed", nil)]),
        round("2021-02-08T18:00:00Z", [(81, "8.0.10", "completed", nil)]),
    ]

    static func history(_ lines: [String]) throws -> ReleaseHistory {
        try ReleaseHistory(parsing: Data((lines.joined(separator: "\n") + "\n").utf8), path: "test.jsonl")
    }

    @Test func everyPlayReleaseOfTheTrackIsASeriesAndEveryChangedRoundARow() throws {
        let history = try Self.history(Self.haltedThenReplaced)
        let chart = TimelineChart(try ReleaseTimeline(history, version: try Version(parsing: "8.0.10")))
        // 8.0.10's release in front, then the track's others, newest first.
        #expect(chart.timeline.play.map(\.versionCode.rawValue) == [81, 80, 79])
        let elements = try #require(Elements.parse(chart.svg))
        let series = Set(elements.elements.compactMap { $0.attributes["data-series"] })
        #expect(series.isSuperset(of: ["play-81", "play-80", "play-79"]), "\(series)")
        #expect(
            elements.elements.contains {
                $0.attributes["data-series"] == "play-80" && $0.attributes["data-stopped"] == "true"
            }, "80's halted stretch is drawn")
        let halts = elements.elements.filter { $0.attributes["data-mark"] == "halt" }.compactMap {
            $0.attributes["data-at"]
        }
        #expect(halts == ["2021-02-08T11:00:00Z"], "80's halt is marked")
        // A row for every round whose track differs from the round before (the first included),
        // counted from the history itself.
        var changed = 0
        var before: [ReleaseSnapshot.PlayRelease]?
        for round in history.rounds {
            let releases = round.googlePlay?.releases ?? []
            if releases != before { changed += 1 }
            before = releases
        }
        #expect(changed == 7)
        let rows = chart.html.components(separatedBy: "<tr><th scope=\"row\">").count - 1
        #expect(rows == changed, "\(rows) rows for \(changed) rounds that changed something drawn")
        #expect(chart.html.contains("The rounds that changed something, \(changed) of 11"))
    }

    // MARK: The axis

    @Test(arguments: ["9999-01-01T00:00:00Z", "1970-01-01T00:00:00Z"])
    func aRoundDatedFarFromTheOthersIsRefusedNamingIt(_ date: String) throws {
        var lines = Self.haltedThenReplaced
        lines[5] = lines[5].replacingOccurrences(of: "2021-02-08T13:00:00Z", with: date)
        let history = try Self.history(lines)
        #expect(throws: ReleaseTimelineError.self) { try ReleaseTimeline(history) }
        do {
            _ = try ReleaseTimeline(history)
        } catch {
            guard case .spanTooLong(let first, let last) = error else {
                Issue.record("\(error)")
                return
            }
            let far = date.hasPrefix("9999") ? last : first
            #expect(far.number == 6 && ISO8601Timestamp.string(from: far.takenAt) == date)
            #expect("\(error)".contains("round 6 (\(date))"), "\(error)")
        }
    }

    @Test(arguments: [60, 86400 * 365, 86400 * 1826, 86400 * 365 * 51, 86400 * 365 * 7978] as [Double])
    func theAxisHoldsAtMostItsTicksOverAnySpan(_ span: Double) {
        let start = Date(timeIntervalSince1970: 1_612_771_200)  // Mon 8 Feb 2021 08:00 UTC
        for most in [4, TimelineTimeAxis.maximumTicks] {
            let axis = TimelineTimeAxis(start: start, end: start.addingTimeInterval(span), maximumTicks: most)
            #expect(!axis.ticks.isEmpty && axis.ticks.count <= most, "\(axis.ticks.count) ticks over \(span) s")
            let labels = Set(axis.ticks.map(\.label))
            #expect(labels.count == axis.ticks.count, "every tick says something else: \(axis.ticks.map(\.label))")
        }
    }

    @Test func aOneMinuteWatchIsDrawnOnAnAxisOfAboutAMinute() throws {
        let lines = (0...6).map { second in
            Self.round(
                String(format: "2021-02-08T08:00:%02dZ", second * 10),
                [(79, "8.0.9", "completed", nil), (81, "8.0.10", "inProgress", second < 3 ? 0.01 : 0.05)])
        }
        let chart = TimelineChart(try ReleaseTimeline(try Self.history(lines)))
        #expect(chart.axis.end.timeIntervalSince(chart.axis.start) <= 120, "\(chart.axis)")
        #expect(chart.axis.step < 60 && chart.axis.ticks.count >= 3)
        #expect(chart.axis.ticks.contains { $0.label == "08:00:30" }, "\(chart.axis.ticks.map(\.label))")
        // The rollout's line spans most of the plot, not a sliver of it.
        let elements = try #require(Elements.parse(chart.svg))
        let xs = elements.elements.filter { $0.attributes["data-series"] == "play-81" }.flatMap {
            ($0.attributes["d"] ?? "").split(whereSeparator: { !"0123456789.,MHV ".contains($0) })
                .joined().split(whereSeparator: { "MHV ".contains($0) })
                .compactMap { Double($0.split(separator: ",").first ?? "") }
        }
        let plot = chart.plotRight - TimelineChart.plotLeft
        #expect(((xs.max() ?? 0) - (xs.min() ?? 0)) >= 0.8 * plot, "\(xs)")
    }

    // MARK: What the picture says

    /// Each path's commands: (letter, numbers).
    static func commands(_ d: String) -> [(Character, [Double])] {
        var out: [(Character, [Double])] = []
        var letter: Character?
        var number = ""
        var numbers: [Double] = []
        for character in d + "M" {
            if "MHV".contains(character) {
                if let value = Double(number) { numbers.append(value) }
                if let letter { out.append((letter, numbers)) }
                (letter, number, numbers) = (character, "", [])
            } else if character == "," || character == " " {
                if let value = Double(number) { numbers.append(value) }
                number = ""
            } else {
                number.append(character)
            }
        }
        return out
    }

    @Test func eachSeriesLastValueIsAStretchOfLineNotATick() throws {
        let (_, chart) = try bundled()
        let elements = try #require(Elements.parse(chart.svg))
        let paths = elements.elements.filter { $0.name == "path" && $0.attributes["data-series"] != nil }
        let names = Set(paths.compactMap { $0.attributes["data-series"] })
        #expect(names.contains("phased") && names.contains("play-81"))
        for name in names {
            let last = try #require(paths.last { $0.attributes["data-series"] == name })
            let commands = Self.commands(last.attributes["d"] ?? "")
            // The line ends on a horizontal stretch at the last value, as long as a round lasts.
            guard let end = commands.last, end.0 == "H", commands.count >= 2 else {
                Issue.record("\(name) ends with \(commands.last.map { String($0.0) } ?? "nothing")")
                continue
            }
            let before = commands[commands.count - 2]
            let from = before.0 == "H" ? before.1[0] : before.0 == "M" ? before.1[0] : nil
            let x = try #require(from ?? commands.dropLast().last { $0.0 != "V" }?.1.first)
            #expect(end.1[0] - x >= 4, "\(name)'s last value is drawn \(end.1[0] - x) px long")
        }
        #expect(
            elements.elements.contains { $0.name == "circle" && $0.attributes["data-now"] == "phased" },
            "the phased release's value now is a dot where its line ends")
        let phased = try #require(chart.timeline.phased?.points.last?.value)
        #expect(chart.svg.contains("phased release: \(TimelineChart.percent(phased)) now"))
    }

    @Test func onlyAHaltedOrPausedStretchIsDotted() throws {
        let (_, chart) = try bundled()
        let elements = try #require(Elements.parse(chart.svg))
        let series = elements.elements.filter { $0.attributes["data-series"] != nil && $0.name != "polygon" }
        #expect(series.contains { $0.attributes["data-series"] == "storefronts-8.0.9" })
        for element in series {
            let a = element.attributes
            let dashes = (a["stroke-dasharray"] ?? "").split(separator: " ").compactMap { Double($0) }
            if a["data-stopped"] == "true" {
                #expect(a["stroke-dasharray"] == TimelineChart.stoppedDash)
            } else {
                // A dash shorter than 4 px reads as dots: the halted or paused style.
                let on = stride(from: 0, to: dashes.count, by: 2).map { dashes[$0] }
                #expect(on.allSatisfy { $0 >= 4 }, "\(a["data-series"] ?? "") is dashed \(dashes)")
            }
        }
    }

    @Test func theHTMLPageShowsItsTitleOnce() throws {
        let (_, chart) = try bundled()
        let title = "8.0.10 across both stores"
        let shown =
            chart.html.components(separatedBy: "<h1>\(title)</h1>").count - 1
            + chart.html.components(separatedBy: "\">\(title)</text>").count - 1
        #expect(shown == 1, "the title is shown \(shown) times")
        #expect(chart.svg.contains("\">\(title)</text>"), "the picture alone keeps its title")
    }

    // MARK: As the docs page draws it

    /// The width the guide's picture is drawn at (`--width`), for the docs column.
    static let docsWidth = 480
    /// The docs column's width (DocC's article column, measured in headless Chromium 156 on the
    /// "Watching a release" page) at each window width: up to 1000 px without the navigator, from
    /// 1024 px with it (the narrowest column, 449 px, is at 1024).
    static let docsColumns: [(window: Int, column: Double)] = [
        (600, 545), (700, 645), (800, 625), (1000, 660), (1024, 449), (1050, 475), (1100, 525), (1200, 625),
        (1280, 705), (1440, 820), (1920, 920),
    ]

    @Test func theGuidesPictureReadsAsTheDocsColumnDrawsIt() throws {
        let committed = try String(contentsOf: Self.picturePath, encoding: .utf8)
        let elements = try #require(Elements.parse(committed))
        let root = try #require(elements.elements.first)
        let width = try #require(root.attributes["width"].flatMap(Double.init))
        let texts = elements.elements.filter { $0.name == "text" }
        #expect(texts.count > 20)
        for (window, column) in Self.docsColumns {
            // The column draws a wider picture scaled down to it, a narrower one as it is.
            let scale = min(1, column / width)
            let smallest = texts.compactMap { $0.attributes["font-size"].flatMap(Double.init) }.min() ?? 0
            #expect(
                smallest * scale >= 11,
                "at a \(window)-px window the column is \(column) px: the smallest text is \(smallest * scale) px")
        }
        // Each text fits the picture as a sans-serif face sets it (0.6 em a character, on the wide side).
        for (index, element) in elements.elements.enumerated() where element.name == "text" {
            let a = element.attributes
            let (x, size) = (Double(a["x"] ?? "") ?? 0, Double(a["font-size"] ?? "") ?? 0)
            let text = (elements.texts[index] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let wide = Double(text.count) * size * 0.6
            let shift: Double
            switch a["text-anchor"] {
            case "middle": shift = wide / 2
            case "end": shift = wide
            default: shift = 0
            }
            let (left, right) = (x - shift, x - shift + wide)
            #expect(
                left >= 0 && right <= width, "\(text.debugDescription) runs from \(left) to \(right) px of \(width)")
        }
        // The time labels under a plot do not run into each other (at 0.6 em a character, as SVGWriter reckons).
        var rows: [Double: [(left: Double, right: Double, text: String)]] = [:]
        for (index, element) in elements.elements.enumerated()
        where element.name == "text" && element.attributes["text-anchor"] == "middle" {
            let a = element.attributes
            let (x, y, size) = (Double(a["x"] ?? "") ?? 0, Double(a["y"] ?? "") ?? 0, Double(a["font-size"] ?? "") ?? 0)
            let text = (elements.texts[index] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let half = Double(text.count) * size * 0.6 / 2
            rows[y, default: []].append((x - half, x + half, text))
        }
        for labels in rows.values {
            let sorted = labels.sorted { $0.left < $1.left }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(a.right + 6 <= b.left, "\(a.text.debugDescription) runs into \(b.text.debugDescription)")
            }
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
