import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// A release's timeline drawn as one self-contained SVG: no script, no web font, nothing fetched.
///
/// Panels share one time axis (UTC): Play's rollout per versionCode as a step line, each halt
/// marked with a square; the phased release on Apple's 1, 2, 5, 10, 20, 50, 100% schedule, each
/// pause marked with a pause sign; the share of storefronts serving each version; each store's
/// crash rate with its 95% interval as a band, when the history recorded health. A panel the
/// history has nothing for is left out. Google Play is green and solid, the App Store blue and
/// dashed, everywhere; a halted or paused stretch is dotted, so the picture reads in black and
/// white too. It is 1280 px wide, its smallest text 12 px.
public struct TimelineChart: Sendable {
    /// The timeline drawn.
    public let timeline: ReleaseTimeline

    /// The picture's width.
    public static let width = 1280
    /// The smallest text size used, in px.
    public static let smallestText = 12
    /// The phased release's percentages, Apple's schedule over its seven days (0 before day 1).
    public static let phasedSchedule: [Double] = [0, 1, 2, 5, 10, 20, 50, 100]

    /// Draws `timeline`.
    public init(_ timeline: ReleaseTimeline) {
        self.timeline = timeline
    }

    // Layout, in px.
    static let plotLeft = 96.0
    static let plotRight = 1088.0
    static let plotHeight = 150.0
    static let panelHeight = 252.0
    static let plotOffset = 50.0
    static let top = 128.0

    static let playColor = "#137333"
    static let appStoreColor = "#1a5fb4"
    static let olderColors = ["#5b7fa8", "#8aa2bf", "#a9b7c8"]
    static let ink = "#1f2328"
    static let muted = "#57606a"
    static let grid = "#d0d7de"
    static let font = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
    static let playDashes = ["", "10 5", "4 3"]
    static let appStoreDash = "9 5"
    static let stoppedDash = "1 5"

    /// The time axis of the picture.
    public var axis: TimelineTimeAxis { TimelineTimeAxis(start: timeline.start, end: timeline.end) }

    /// The panels drawn, top to bottom.
    var panels: [Panel] {
        var panels: [Panel] = []
        if !timeline.play.isEmpty { panels.append(.play) }
        if timeline.phased != nil { panels.append(.phased) }
        if !timeline.storefronts.isEmpty { panels.append(.storefronts) }
        if !timeline.crashRates.isEmpty { panels.append(.crashRate) }
        return panels
    }

    /// A panel of the picture.
    enum Panel: Sendable {
        case play, phased, storefronts, crashRate
    }

    /// The picture's height: the heading, a panel's height each, the footnote.
    public var height: Int { Int(Self.top + Double(max(panels.count, 1)) * Self.panelHeight + 36) }

    /// The SVG document.
    public var svg: String {
        var svg = SVGWriter(width: Double(Self.width), height: Double(height))
        let app = [timeline.app?.appStoreID.map { "App Store \($0)" }, timeline.app?.packageName]
            .compactMap { $0 }.joined(separator: " · ")
        let title = "\(timeline.version) across both stores"
        let range = "\(Self.stamp(timeline.start)) – \(Self.stamp(timeline.end)) UTC, \(timeline.rounds.count) rounds"
        svg.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(Self.width)"), ("height", "\(height)"),
                ("viewBox", "0 0 \(Self.width) \(height)"), ("role", "img"), ("aria-labelledby", "title desc"),
                ("font-family", Self.font),
            ])
        svg.element("title", [("id", "title")], text: title)
        svg.element("desc", [("id", "desc")], text: summary)
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        svg.text(title, x: 32, y: 42, size: 22, weight: "600")
        svg.text(
            [app, range].filter { !$0.isEmpty }.joined(separator: " · "), x: 32, y: 66, size: 14, fill: Self.muted)
        legend(&svg)
        for (index, panel) in panels.enumerated() {
            let top = Self.top + Double(index) * Self.panelHeight
            switch panel {
            case .play: playPanel(&svg, top: top)
            case .phased: phasedPanel(&svg, top: top)
            case .storefronts: storefrontPanel(&svg, top: top)
            case .crashRate: crashPanel(&svg, top: top)
            }
        }
        if panels.isEmpty {
            svg.text(
                "Nothing of \(timeline.version) was live on either store in these rounds.", x: 32, y: Self.top + 40,
                size: 15)
        }
        svg.text(
            "Drawn by storerelease timeline from a watch --history. Times in UTC.", x: 32, y: Double(height) - 14,
            size: 12, fill: Self.muted)
        svg.close("svg")
        return svg.text
    }

    /// One sentence a screen reader says for the picture.
    var summary: String {
        var parts: [String] = []
        for rollout in timeline.play {
            let last = rollout.points.last.map { Self.percent($0.value) } ?? "–"
            parts.append(
                "Google Play versionCode \(rollout.versionCode.rawValue) reached \(last) of users"
                    + (rollout.halts.isEmpty ? "" : ", halted \(rollout.halts.count) time(s)"))
        }
        if let phased = timeline.phased {
            let last = phased.points.last.map { Self.percent($0.value) } ?? "–"
            parts.append(
                "the App Store's phased release reached \(last)"
                    + (phased.pauses.isEmpty ? "" : ", paused \(phased.pauses.count) time(s)"))
        }
        if let share = timeline.storefronts.first, let last = share.serving.last, let read = share.read.last {
            parts.append("\(last) of \(read) storefronts serve \(share.version)")
        }
        return parts.isEmpty ? "No store showed \(timeline.version) live." : parts.joined(separator: "; ") + "."
    }

    // MARK: Legend and panels

    func legend(_ svg: inout SVGWriter) {
        var x = 32.0
        let y = 96.0
        func key(_ label: String, _ draw: (inout SVGWriter, Double) -> Void, width: Double = 34) {
            draw(&svg, x)
            svg.text(label, x: x + width + 8, y: y + 5, size: 13)
            x += width + 8 + SVGWriter.estimatedWidth(label, size: 13) + 28
        }
        key("Google Play") { svg, x in svg.line(x, y, x + 34, y, color: Self.playColor, width: 3, dash: "") }
        key("App Store") { svg, x in
            svg.line(x, y, x + 34, y, color: Self.appStoreColor, width: 3, dash: Self.appStoreDash)
        }
        key("halted or paused stretch") { svg, x in
            svg.line(x, y, x + 34, y, color: Self.ink, width: 3, dash: Self.stoppedDash)
        }
        key("Play halt", { svg, x in Self.haltMark(&svg, x: x + 6, y: y) }, width: 12)
        key("App Store pause", { svg, x in Self.pauseMark(&svg, x: x + 6, y: y) }, width: 12)
        if !timeline.crashRates.isEmpty {
            key("95% interval") { svg, x in
                svg.element(
                    "rect",
                    [
                        ("x", SVGWriter.n(x)), ("y", SVGWriter.n(y - 7)), ("width", "34"), ("height", "14"),
                        ("fill", Self.ink), ("fill-opacity", "0.15"),
                    ])
            }
        }
    }

    func playPanel(_ svg: inout SVGWriter, top: Double) {
        let y = linear(top: top, max: 100)
        frame(
            &svg, top: top, title: "Google Play: share of users offered \(timeline.version)",
            ticks: [0, 25, 50, 75, 100].map { ($0, "\(Int($0))%") }, y: y)
        var keys: [(String, String, String)] = []
        for (index, rollout) in timeline.play.enumerated() {
            let dash = Self.playDashes[index % Self.playDashes.count]
            steps(
                &svg, rollout.points, stopped: rollout.halted, y: y, color: Self.playColor, dash: dash,
                id: "play-\(rollout.versionCode.rawValue)")
            for halt in rollout.halts {
                let x = self.x(halt.at)
                Self.haltMark(&svg, x: x, y: y(halt.value), data: "halt", at: halt.at)
                svg.label("halted at \(Self.percent(halt.value))", x: x, y: y(halt.value) - 12, size: 12)
            }
            let last = rollout.points.last.map { Self.percent($0.value) } ?? ""
            keys.append(("versionCode \(rollout.versionCode.rawValue): \(last) now", Self.playColor, dash))
        }
        self.keys(&svg, keys, top: top)
    }

    func phasedPanel(_ svg: inout SVGWriter, top: Double) {
        guard let phased = timeline.phased else { return }
        let schedule = Self.phasedSchedule
        let step = Self.plotHeight / Double(schedule.count - 1)
        let bottom = top + Self.plotOffset + Self.plotHeight
        let y: (Double) -> Double = { value in
            guard let upper = schedule.firstIndex(where: { $0 >= value }) else { return bottom - Self.plotHeight }
            guard upper > 0 else { return bottom }
            let (low, high) = (schedule[upper - 1], schedule[upper])
            let fraction = (value - low) / (high - low)
            return bottom - (Double(upper - 1) + fraction) * step
        }
        frame(
            &svg, top: top,
            title: "App Store: phased release of \(timeline.version) (automatic updates, Apple's 7-day schedule)",
            ticks: schedule.map { ($0, "\(Int($0))%") }, y: y)
        steps(
            &svg, phased.points, stopped: phased.paused, y: y, color: Self.appStoreColor, dash: Self.appStoreDash,
            id: "phased")
        for pause in phased.pauses {
            let x = self.x(pause.at)
            let day = phased.points.firstIndex(of: pause).flatMap { phased.days[$0] }
            Self.pauseMark(&svg, x: x, y: y(pause.value), data: "pause", at: pause.at)
            svg.label(
                "paused at \(Self.percent(pause.value))" + (day.map { ", day \($0)" } ?? ""), x: x,
                y: y(pause.value) - 12,
                size: 12)
        }
        let last = phased.points.last.map { Self.percent($0.value) } ?? ""
        let day = phased.days.last.flatMap { $0 }.map { ", day \($0) of 7" } ?? ""
        keys(&svg, [("phased release: \(last) now\(day)", Self.appStoreColor, Self.appStoreDash)], top: top)
    }

    func storefrontPanel(_ svg: inout SVGWriter, top: Double) {
        let y = linear(top: top, max: 100)
        frame(
            &svg, top: top, title: "App Store: share of storefronts serving each version",
            ticks: [0, 25, 50, 75, 100].map { ($0, "\(Int($0))%") }, y: y)
        var keys: [(String, String, String)] = []
        for (index, share) in timeline.storefronts.enumerated() {
            let color = index == 0 ? Self.appStoreColor : Self.olderColors[(index - 1) % Self.olderColors.count]
            let dash = index == 0 ? Self.appStoreDash : ["2 4", "6 3 2 3", "12 3"][(index - 1) % 3]
            steps(
                &svg, share.points, stopped: share.points.map { _ in false }, y: y, color: color, dash: dash,
                id: "storefronts-\(share.version)", width: index == 0 ? 3 : 2)
            let now = share.serving.last.map { " (\($0) of \(share.read.last ?? $0) now)" } ?? ""
            keys.append(("\(share.version)\(now)", color, dash))
        }
        self.keys(&svg, keys, top: top)
    }

    func crashPanel(_ svg: inout SVGWriter, top: Double) {
        let highest = timeline.crashRates.flatMap(\.rates).map(\.upper).max() ?? 0.01
        let step = Self.niceStep(highest / 4)
        let maximum = max(step, (highest / step).rounded(.up) * step)
        let y = linear(top: top, max: maximum)
        let count = Int((maximum / step).rounded())
        let digits = step >= 0.01 ? 0 : step >= 0.001 ? 1 : 2
        frame(
            &svg, top: top, title: "Crash rate of \(timeline.version) with its 95% interval",
            ticks: (0...count).map { (Double($0) * step, String(format: "%.\(digits)f%%", Double($0) * step * 100)) },
            y: y)
        var keys: [(String, String, String)] = []
        for rate in timeline.crashRates {
            let isPlay = rate.store == .googlePlay
            let color = isPlay ? Self.playColor : Self.appStoreColor
            let dash = isPlay ? "" : Self.appStoreDash
            let xs = rate.at.map(x)
            let band =
                zip(xs, rate.rates).map { "\(SVGWriter.n($0)),\(SVGWriter.n(y($1.upper)))" }
                + zip(xs, rate.rates).reversed().map { "\(SVGWriter.n($0)),\(SVGWriter.n(y($1.lower)))" }
            svg.element(
                "polygon",
                [
                    ("points", band.joined(separator: " ")), ("fill", color), ("fill-opacity", "0.15"),
                    ("stroke", color), ("stroke-width", "1"), ("stroke-dasharray", "2 3"),
                    ("data-series", "crash-\(rate.store.name)-interval"),
                ])
            svg.element(
                "polyline",
                [
                    (
                        "points",
                        zip(xs, rate.rates).map { "\(SVGWriter.n($0)),\(SVGWriter.n(y($1.value)))" }.joined(
                            separator: " ")
                    ),
                    ("fill", "none"), ("stroke", color), ("stroke-width", "2.5"), ("stroke-dasharray", dash),
                    ("data-series", "crash-\(rate.store.name)"),
                ])
            let name = isPlay ? "Google Play" : "App Store"
            let now = rate.rates.last.map { String(format: " %.2f%% now", $0.value * 100) } ?? ""
            keys.append(("\(name)\(now)", color, dash))
        }
        self.keys(&svg, keys, top: top)
    }

    // MARK: Pieces

    /// Where `date` falls across the plot.
    func x(_ date: Date) -> Double {
        Self.plotLeft + axis.position(date) * (Self.plotRight - Self.plotLeft)
    }

    /// A linear scale from 0 at the plot's bottom to `max` at its top.
    func linear(top: Double, max: Double) -> (Double) -> Double {
        let bottom = top + Self.plotOffset + Self.plotHeight
        return { value in bottom - Swift.min(1, Swift.max(0, value / max)) * Self.plotHeight }
    }

    /// The panel's title, its grid and value ticks, and the time ticks below it.
    func frame(
        _ svg: inout SVGWriter, top: Double, title: String, ticks: [(Double, String)], y: (Double) -> Double
    ) {
        let plotTop = top + Self.plotOffset
        let bottom = plotTop + Self.plotHeight
        svg.text(title, x: 32, y: top + 14, size: 15, weight: "600")
        for (value, label) in ticks {
            svg.line(Self.plotLeft, y(value), Self.plotRight, y(value), color: Self.grid, width: 1, dash: "")
            svg.text(label, x: Self.plotLeft - 10, y: y(value) + 4, size: 12, fill: Self.muted, anchor: "end")
        }
        for tick in axis.ticks {
            let x = self.x(tick.at)
            svg.line(
                x, plotTop, x, bottom + 5, color: tick.isDay ? "#afb8c1" : Self.grid, width: 1,
                dash: tick.isDay ? "" : "2 3")
            svg.label(tick.label, x: x, y: bottom + 20, size: 12, fill: tick.isDay ? Self.ink : Self.muted)
        }
        svg.line(Self.plotLeft, bottom, Self.plotRight, bottom, color: Self.muted, width: 1, dash: "")
    }

    /// The keys of a panel's series, under its title.
    func keys(_ svg: inout SVGWriter, _ keys: [(label: String, color: String, dash: String)], top: Double) {
        var x = 32.0
        let y = top + 34
        for key in keys {
            svg.line(x, y - 4, x + 30, y - 4, color: key.color, width: 3, dash: key.dash)
            svg.text(key.label, x: x + 38, y: y, size: 13)
            x += 38 + SVGWriter.estimatedWidth(key.label, size: 13) + 24
        }
    }

    /// A step line through `points`, dotted where `stopped`, to the last point's time.
    func steps(
        _ svg: inout SVGWriter, _ points: [ReleaseTimeline.Point], stopped: [Bool], y: (Double) -> Double,
        color: String, dash: String, id: String, width: Double = 3
    ) {
        guard let first = points.first else { return }
        var runs: [(stopped: Bool, d: String)] = []
        var current = (
            stopped: stopped.first ?? false, d: "M\(SVGWriter.n(x(first.at))),\(SVGWriter.n(y(first.value)))"
        )
        var value = first.value
        for (index, point) in points.enumerated().dropFirst() {
            let isStopped = stopped.indices.contains(index) ? stopped[index] : false
            let x = SVGWriter.n(self.x(point.at))
            if isStopped != current.stopped {
                current.d += " H\(x)"
                runs.append(current)
                current = (isStopped, "M\(x),\(SVGWriter.n(y(value)))")
            }
            if point.value != value || index == points.count - 1 {
                current.d += " H\(x) V\(SVGWriter.n(y(point.value)))"
                value = point.value
            }
        }
        runs.append(current)
        for run in runs where run.d.contains(" ") || points.count == 1 {
            svg.element(
                "path",
                [
                    ("d", run.d + (points.count == 1 ? " h1" : "")), ("fill", "none"), ("stroke", color),
                    ("stroke-width", SVGWriter.n(width)), ("stroke-dasharray", run.stopped ? Self.stoppedDash : dash),
                    ("stroke-linecap", run.stopped ? "round" : "butt"), ("data-series", id),
                    ("data-stopped", run.stopped ? "true" : "false"),
                ])
        }
    }

    /// A halt: a dark square ringed in white.
    static func haltMark(_ svg: inout SVGWriter, x: Double, y: Double, data: String? = nil, at: Date? = nil) {
        var attributes = [
            ("x", SVGWriter.n(x - 6)), ("y", SVGWriter.n(y - 6)), ("width", "12"), ("height", "12"), ("fill", ink),
            ("stroke", "#ffffff"), ("stroke-width", "2"),
        ]
        if let data, let at { attributes += [("data-mark", data), ("data-at", ISO8601Timestamp.string(from: at))] }
        svg.element("rect", attributes)
    }

    /// A pause: two dark bars on a white disc.
    static func pauseMark(_ svg: inout SVGWriter, x: Double, y: Double, data: String? = nil, at: Date? = nil) {
        var attributes = [
            ("cx", SVGWriter.n(x)), ("cy", SVGWriter.n(y)), ("r", "8"), ("fill", "#ffffff"), ("stroke", ink),
            ("stroke-width", "1.5"),
        ]
        if let data, let at { attributes += [("data-mark", data), ("data-at", ISO8601Timestamp.string(from: at))] }
        svg.element("circle", attributes)
        for dx in [-3.5, 1.0] {
            svg.element(
                "rect",
                [
                    ("x", SVGWriter.n(x + dx)), ("y", SVGWriter.n(y - 4.5)), ("width", "2.5"), ("height", "9"),
                    ("fill", ink),
                ])
        }
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 0.001 }
        let power = pow(10, (log10(raw)).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
    }

    /// `20%`, `2.5%`: a percentage without needless decimals.
    static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))%" : String(format: "%.1f%%", value)
    }

    /// `Wed 10 Feb 08:00`.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        return "\(TimelineTimeAxis.weekdays[((parts.weekday ?? 1) - 1) % 7]) \(parts.day ?? 1) "
            + "\(TimelineTimeAxis.months[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 1970) "
            + String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

extension TimelineChart {
    /// The SVG in an HTML page with the same data as a table, for screen readers and for copying.
    ///
    /// One row a round that changed something drawn; nothing is fetched and nothing runs.
    public var html: String {
        let t = timeline
        let title = SVGWriter.escaped("\(t.version) across both stores")
        var columns = ["Time (UTC)"]
        columns += t.play.map { "Google Play \($0.versionCode.rawValue)" }
        if t.phased != nil { columns.append("App Store phased release") }
        columns += t.storefronts.map { "Storefronts serving \($0.version)" }
        columns += t.crashRates.map {
            "\($0.store == .googlePlay ? "Google Play" : "App Store") crash rate (95% interval)"
        }
        func cell<T>(_ at: [Date], _ values: [T], _ date: Date, _ text: (T) -> String) -> String {
            guard let index = at.lastIndex(where: { $0 <= date }) else { return "–" }
            return text(values[index])
        }
        var rows: [[String]] = []
        for date in t.rounds {
            var row = [Self.stamp(date)]
            for rollout in t.play {
                let states = zip(rollout.points, rollout.halted).map { ($0.value, $1) }
                row.append(
                    cell(rollout.points.map(\.at), states, date) { Self.percent($0.0) + ($0.1 ? " (halted)" : "") })
            }
            if let phased = t.phased {
                let states = phased.points.indices.map { (phased.points[$0].value, phased.days[$0], phased.paused[$0]) }
                row.append(
                    cell(phased.points.map(\.at), states, date) {
                        Self.percent($0.0) + ($0.1.map { ", day \($0)" } ?? "") + ($0.2 ? " (paused)" : "")
                    })
            }
            for share in t.storefronts {
                let counts = zip(share.serving, share.read).map { ($0, $1) }
                row.append(cell(share.points.map(\.at), counts, date) { "\($0.0) of \($0.1)" })
            }
            for rate in t.crashRates {
                row.append(
                    cell(rate.at, rate.rates, date) {
                        String(format: "%.2f%% [%.2f–%.2f]", $0.value * 100, $0.lower * 100, $0.upper * 100)
                    })
            }
            if let last = rows.last, last.dropFirst() == row.dropFirst() { continue }
            rows.append(row)
        }
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            body { font-family: \(Self.font); color: #1f2328; margin: 24px; max-width: 1280px; }
            figure { margin: 0 0 32px; } svg { max-width: 100%; height: auto; }
            table { border-collapse: collapse; font-size: 14px; } caption { text-align: left; font-weight: 600; padding: 8px 0; }
            th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: right; } th:first-child, td:first-child { text-align: left; }
            thead th { background: #f6f8fa; }
            </style>
            </head>
            <body>
            <h1>\(title)</h1>
            <figure>

            """
        html += svg
        html += "<figcaption>\(SVGWriter.escaped(summary))</figcaption>\n</figure>\n"
        html += "<table>\n<caption>The rounds that changed something, \(rows.count) of \(t.rounds.count)</caption>\n"
        html +=
            "<thead><tr>" + columns.map { "<th scope=\"col\">\(SVGWriter.escaped($0))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        for row in rows {
            html +=
                "<tr><th scope=\"row\">\(SVGWriter.escaped(row[0]))</th>"
                + row.dropFirst().map { "<td>\(SVGWriter.escaped($0))</td>" }.joined() + "</tr>\n"
        }
        html += "</tbody>\n</table>\n</body>\n</html>\n"
        return html
    }
}
