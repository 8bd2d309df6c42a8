import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// A release's timeline drawn as one self-contained SVG: no script, no web font, nothing fetched.
///
/// Panels share one time axis (UTC) that fits the rounds' span (seconds when the watch lasted
/// seconds, whole weeks when it lasted months) with at most one tick label per 72 px: Play's
/// rollout of every release the track held as a step line (the version's own in front), each halt
/// marked with a square; the phased release on Apple's 1, 2, 5, 10, 20, 50, 100% schedule, each
/// pause marked with a pause sign; the share of storefronts serving each version; each store's
/// crash rate with its 95% interval as a band, when the history recorded health; the rollout
/// gate's advances (triangles) and new reasons to hold (diamonds) on Play's panel, each with its
/// reasons as a tooltip, when the history recorded its decisions. A panel the
/// history has nothing for is left out. Each round's value holds until the next round, the last
/// round's for the watch's usual interval, ending in a dot: the last value is a stretch of line
/// with a dot where it ends, not a tick.
/// Google Play is green and solid, the App Store blue and dashed, everywhere; a halted or paused
/// stretch, and only that, is dotted, so the picture reads in black and white too. It is 1280 px
/// wide by default (any width in ``widths``: titles and keys wrap to fit), its smallest text 12 px.
public struct TimelineChart: Sendable {
    /// The timeline drawn.
    public let timeline: ReleaseTimeline
    /// The picture's width in px.
    public let width: Int
    /// The time axis of the picture, computed once.
    public let axis: TimelineTimeAxis
    /// Whether the picture carries its own title and subtitle (the HTML page draws its own).
    let heading: Bool

    /// The picture's width by default.
    public static let defaultWidth = 1280
    /// The widths a picture may have, in px.
    public static let widths = 480...4000
    /// The smallest text size used, in px.
    public static let smallestText = 12
    /// The phased release's percentages, Apple's schedule over its seven days (0 before day 1).
    public static let phasedSchedule: [Double] = [0, 1, 2, 5, 10, 20, 50, 100]

    /// Draws `timeline` 1280 px wide.
    public init(_ timeline: ReleaseTimeline) {
        self.init(timeline, checkedWidth: Self.defaultWidth, heading: true)
    }

    /// Draws `timeline` `width` px wide (the docs draw it for their column).
    ///
    /// - Throws: ``TimelineChartError`` when `width` is outside ``widths``.
    public init(_ timeline: ReleaseTimeline, width: Int) throws(TimelineChartError) {
        guard Self.widths.contains(width) else { throw TimelineChartError(width: width) }
        self.init(timeline, checkedWidth: width, heading: true)
    }

    init(_ timeline: ReleaseTimeline, checkedWidth width: Int, heading: Bool) {
        self.timeline = timeline
        self.width = width
        self.heading = heading
        let plot = Double(width) - Self.plotLeft - Self.plotRightMargin
        let (start, end) = (timeline.start, timeline.end.addingTimeInterval(Self.hold(timeline.rounds)))
        let axis = TimelineTimeAxis(start: start, end: end, intervals: plot / Self.pixelsPerTick)
        // Ticks closer than a day's long label (`Wed 10 Feb`, about 80 px as browsers set it) say
        // the day without its month, which the subtitle gives.
        let room = axis.step / axis.end.timeIntervalSince(axis.start) * plot
        self.axis =
            room < Self.longDayLabel
            ? TimelineTimeAxis(start: start, end: end, intervals: plot / Self.pixelsPerTick, compact: true) : axis
    }

    /// The same picture without its title and subtitle, for a page that shows them itself.
    var withoutHeading: TimelineChart {
        TimelineChart(timeline, checkedWidth: width, heading: false)
    }

    // Layout, in px.
    static let plotLeft = 80.0
    static let plotRightMargin = 32.0
    static let plotHeight = 150.0
    /// The least room between two time labels (`Tue 9 Feb` at 12 px is about 65 px wide).
    static let pixelsPerTick = 72.0
    /// The room a day's label with its month needs between ticks.
    static let longDayLabel = 96.0
    static let margin = 32.0

    static let playColor = "#137333"
    static let olderPlayColors = ["#4f8f5c", "#7fae89", "#a3c4aa"]
    static let appStoreColor = "#1a5fb4"
    static let olderColors = ["#5b7fa8", "#8aa2bf", "#a9b7c8"]
    static let ink = "#1f2328"
    static let muted = "#57606a"
    static let grid = "#d0d7de"
    static let font = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
    /// Dashes of the series that are not stopped: none shorter than 4 px, so none reads as dotted.
    static let playDashes = ["", "10 5", "16 4 4 4"]
    static let olderPlayDashes = ["8 4", "14 4 4 4", "20 5"]
    static let appStoreDash = "9 5"
    static let olderStorefrontDashes = ["6 4", "12 4 4 4", "18 5"]
    /// A halted or paused stretch: round dots, used for nothing else.
    static let stoppedDash = "1 5"

    /// The right edge of the plot.
    var plotRight: Double { Double(width) - Self.plotRightMargin }

    /// How long the last round's values hold: the rounds' median interval (a minute for one round).
    static func hold(_ rounds: [Date]) -> TimeInterval {
        let gaps = zip(rounds, rounds.dropFirst()).map { $1.timeIntervalSince($0) }.filter { $0 > 0 }.sorted()
        return gaps.isEmpty ? 60 : gaps[gaps.count / 2]
    }

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

    /// A series' key: its words, colour and dashes.
    struct Key: Sendable {
        var label: String
        var color: String
        var dash: String
    }

    /// Where everything goes down the picture.
    struct Layout: Sendable {
        /// The heading's lines: the title's, then the subtitle's.
        var title: [String] = []
        var subtitle: [String] = []
        /// Each legend key's row and x.
        var legend: [(row: Int, x: Double)] = []
        var legendTop = 0.0
        /// Each panel's top, its title's lines, its keys' rows and x, and its plot's top.
        var panels: [(panel: Panel, top: Double, title: [String], keys: [(row: Int, x: Double)], plotTop: Double)] =
            []
        /// The footnote's lines.
        var footnote: [String] = []
        var height = 0.0
    }

    /// The line at the foot of the picture.
    static var footnote: String { FailureHint.drawnFromHistory.words + " Times in UTC." }

    /// The heading's title.
    var title: String { "\(timeline.version) across both stores" }

    /// The heading's subtitle: the app and the rounds' range.
    var subtitle: String {
        let app = [timeline.app?.appStoreID.map { "App Store \($0)" }, timeline.app?.packageName].compactMap { $0 }
        let range = "\(Self.stamp(timeline.start)) – \(Self.stamp(timeline.end)) UTC, \(timeline.rounds.count) rounds"
        return (app + [range]).joined(separator: " · ")
    }

    /// A key of the legend: what each style and mark means.
    enum LegendKey: CaseIterable, Sendable {
        case googlePlay, appStore, stopped, halt, pause, advance, hold, interval

        /// Its words.
        var label: String {
            switch self {
            case .googlePlay: "Google Play"
            case .appStore: "App Store"
            case .stopped: "halted or paused stretch"
            case .halt: "Play halt"
            case .pause: "App Store pause"
            case .advance: "gate advanced Play"
            case .hold: "gate held (why: its tooltip)"
            case .interval: "95% interval"
            }
        }

        /// The width of what is drawn before the words.
        var markWidth: Double {
            switch self {
            case .googlePlay, .appStore, .stopped, .interval: 34
            case .halt, .pause, .advance, .hold: 12
            }
        }
    }

    /// The legend's keys: the interval's only when a crash rate is drawn, the gate's only when
    /// the picture marks one of its decisions.
    var legendKeys: [LegendKey] {
        let marked = Set(gateMarks.map { $0.decision.kind == .hold ? LegendKey.hold : .advance })
        return LegendKey.allCases.filter { key in
            switch key {
            case .interval: !timeline.crashRates.isEmpty
            case .advance, .hold: marked.contains(key)
            case .googlePlay, .appStore, .stopped, .halt, .pause: true
            }
        }
    }

    /// The gate's decisions the Play panel marks: the marked ones with a percentage to sit at.
    var gateMarks: [ReleaseTimeline.GateRound] {
        timeline.play.isEmpty ? [] : timeline.gate.filter { $0.isMarked && $0.percent != nil }
    }

    /// The layout at this width.
    var layout: Layout {
        var layout = Layout()
        let usable = Double(width) - 2 * Self.margin
        var y = 0.0
        if heading {
            layout.title = Self.wrap(title, size: 22, width: usable)
            layout.subtitle = Self.wrap(subtitle, size: 14, width: usable)
            y = 14 + Double(layout.title.count) * 28 + Double(layout.subtitle.count) * 20
        }
        layout.legendTop = y + 16
        layout.legend = Self.flow(
            legendKeys.map { $0.markWidth + 8 + SVGWriter.estimatedWidth($0.label, size: 13) }, gap: 28,
            width: usable)
        y = layout.legendTop + Double((layout.legend.last?.row ?? 0) + 1) * 24 + 16
        for panel in panels {
            let (title, keys) = header(panel)
            let titleLines = Self.wrap(title, size: 15, width: usable)
            let flowed = Self.flow(
                keys.map { 38 + SVGWriter.estimatedWidth($0.label, size: 13) }, gap: 24, width: usable)
            let rows = keys.isEmpty ? 0 : (flowed.last?.row ?? 0) + 1
            let plotTop = y + Double(titleLines.count) * 20 + Double(rows) * 22 + 16
            layout.panels.append((panel, y, titleLines, flowed, plotTop))
            y = plotTop + Self.plotHeight + 52
        }
        if panels.isEmpty { y += 60 }
        layout.footnote = Self.wrap(Self.footnote, size: 12, width: usable)
        layout.height = (y + 8 + Double(layout.footnote.count) * 16).rounded(.up)
        return layout
    }

    /// The picture's height: the heading, the legend, each panel, the footnote.
    public var height: Int { Int(layout.height) }

    /// The SVG document.
    public var svg: String {
        let layout = layout
        let height = Int(layout.height)
        var svg = SVGWriter(width: Double(width), height: Double(height))
        svg.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"), ("height", "\(height)"),
                ("viewBox", "0 0 \(width) \(height)"), ("role", "img"), ("aria-labelledby", "title desc"),
                ("font-family", Self.font),
            ])
        svg.element("title", [("id", "title")], text: title)
        svg.element("desc", [("id", "desc")], text: summary)
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        var y = 14.0
        for line in layout.title {
            y += 28
            svg.text(line, x: Self.margin, y: y, size: 22, weight: "600")
        }
        for line in layout.subtitle {
            y += 20
            svg.text(line, x: Self.margin, y: y, size: 14, fill: Self.muted)
        }
        legend(&svg, layout)
        for placed in layout.panels {
            let keys = header(placed.panel).keys
            var line = placed.top
            for text in placed.title {
                line += 20
                svg.text(text, x: Self.margin, y: line - 6, size: 15, weight: "600")
            }
            for (key, at) in zip(keys, placed.keys) {
                let (keyX, keyY) = (Self.margin + at.x, line + Double(at.row + 1) * 22 - 6)
                svg.line(keyX, keyY - 4, keyX + 30, keyY - 4, color: key.color, width: 3, dash: key.dash)
                svg.text(key.label, x: keyX + 38, y: keyY, size: 13)
            }
            switch placed.panel {
            case .play: playPanel(&svg, plotTop: placed.plotTop)
            case .phased: phasedPanel(&svg, plotTop: placed.plotTop)
            case .storefronts: storefrontPanel(&svg, plotTop: placed.plotTop)
            case .crashRate: crashPanel(&svg, plotTop: placed.plotTop)
            }
        }
        if panels.isEmpty {
            for (index, line) in Self.wrap(
                "Nothing of \(timeline.version) was live on either store in these rounds.", size: 15,
                width: Double(width) - 2 * Self.margin
            ).enumerated() {
                svg.text(line, x: Self.margin, y: layout.legendTop + 60 + Double(index) * 20, size: 15)
            }
        }
        for (index, line) in layout.footnote.enumerated() {
            let y = Double(height) - 14 - Double(layout.footnote.count - 1 - index) * 16
            svg.text(line, x: Self.margin, y: y, size: 12, fill: Self.muted)
        }
        svg.close("svg")
        return svg.text
    }

    /// One sentence a screen reader says for the picture.
    var summary: String {
        var parts: [String] = []
        for rollout in timeline.play {
            let last = rollout.points.last.map { Self.percent($0.value) } ?? "–"
            parts.append(
                "Google Play \(Self.name(rollout)) reached \(last) of users"
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
        if let gate = gateSummary { parts.append(gate) }
        return parts.isEmpty ? "No store showed \(timeline.version) live." : parts.joined(separator: "; ") + "."
    }

    /// `versionCode 81 (8.0.10)`.
    static func name(_ rollout: ReleaseTimeline.PlayRollout) -> String {
        "versionCode \(rollout.versionCode.rawValue)" + (rollout.version.map { " (\($0))" } ?? "")
    }

    // MARK: Legend and panels

    func legend(_ svg: inout SVGWriter, _ layout: Layout) {
        for (key, at) in zip(legendKeys, layout.legend) {
            let (x, y) = (Self.margin + at.x, layout.legendTop + Double(at.row) * 24)
            switch key {
            case .googlePlay: svg.line(x, y, x + 34, y, color: Self.playColor, width: 3, dash: "")
            case .appStore: svg.line(x, y, x + 34, y, color: Self.appStoreColor, width: 3, dash: Self.appStoreDash)
            case .stopped: svg.line(x, y, x + 34, y, color: Self.ink, width: 3, dash: Self.stoppedDash, cap: "round")
            case .halt: Self.haltMark(&svg, x: x + 6, y: y)
            case .pause: Self.pauseMark(&svg, x: x + 6, y: y)
            case .advance: Self.advanceMark(&svg, x: x + 6, y: y)
            case .hold: Self.holdMark(&svg, x: x + 6, y: y)
            case .interval:
                svg.element(
                    "rect",
                    [
                        ("x", SVGWriter.n(x)), ("y", SVGWriter.n(y - 7)), ("width", "34"), ("height", "14"),
                        ("fill", Self.ink), ("fill-opacity", "0.15"),
                    ])
            }
            svg.text(key.label, x: x + key.markWidth + 8, y: y + 5, size: 13)
        }
    }

    /// A panel's title and its series' keys.
    func header(_ panel: Panel) -> (title: String, keys: [Key]) {
        switch panel {
        case .play:
            let keys = timeline.play.enumerated().map { index, rollout in
                let style = playStyle(index)
                let last = rollout.points.last
                let halted = rollout.halted.last == true ? " halted" : ""
                let when =
                    last.map { $0.at == timeline.end ? " now" : ", last seen \(Self.stamp($0.at, year: false))" } ?? ""
                return Key(
                    label: "\(Self.name(rollout)): \(last.map { Self.percent($0.value) } ?? "–")\(halted)\(when)",
                    color: style.color, dash: style.dash)
            }
            return ("Google Play: each release's share of users (\(timeline.version) first)", keys)
        case .phased:
            let last = timeline.phased?.points.last.map { Self.percent($0.value) } ?? ""
            let day = timeline.phased?.days.last.flatMap { $0 }.map { ", day \($0) of 7" } ?? ""
            return (
                "App Store: phased release of \(timeline.version) (automatic updates, Apple's 7-day schedule)",
                [Key(label: "phased release: \(last) now\(day)", color: Self.appStoreColor, dash: Self.appStoreDash)]
            )
        case .storefronts:
            let keys = timeline.storefronts.enumerated().map { index, share in
                let style = storefrontStyle(index)
                let now = share.serving.last.map { " (\($0) of \(share.read.last ?? $0) now)" } ?? ""
                return Key(label: "\(share.version)\(now)", color: style.color, dash: style.dash)
            }
            return ("App Store: share of storefronts serving each version", keys)
        case .crashRate:
            let keys = timeline.crashRates.map { rate in
                let isPlay = rate.store == .googlePlay
                let now = rate.rates.last.map { String(format: " %.2f%% now", $0.value * 100) } ?? ""
                return Key(
                    label: "\(rate.store.displayName)\(now)",
                    color: isPlay ? Self.playColor : Self.appStoreColor, dash: isPlay ? "" : Self.appStoreDash)
            }
            return ("Crash rate of \(timeline.version) with its 95% interval", keys)
        }
    }

    /// The colour and dashes of the `index`th Play series: the version's own green, others paler.
    func playStyle(_ index: Int) -> (color: String, dash: String) {
        let own = timeline.play.prefix { $0.version == timeline.version }.count
        return index < own
            ? (Self.playColor, Self.playDashes[index % Self.playDashes.count])
            : (
                Self.olderPlayColors[(index - own) % Self.olderPlayColors.count],
                Self.olderPlayDashes[(index - own) % Self.olderPlayDashes.count]
            )
    }

    /// The colour and dashes of the `index`th storefront series.
    func storefrontStyle(_ index: Int) -> (color: String, dash: String) {
        index == 0
            ? (Self.appStoreColor, Self.appStoreDash)
            : (
                Self.olderColors[(index - 1) % Self.olderColors.count],
                Self.olderStorefrontDashes[(index - 1) % Self.olderStorefrontDashes.count]
            )
    }

    func playPanel(_ svg: inout SVGWriter, plotTop: Double) {
        // A rollout the gate ran climbs 1, 2, 5, 10…: its steps are drawn apart on the schedule's scale.
        let y = timeline.gate.isEmpty ? linear(plotTop: plotTop, max: 100) : scheduleScale(plotTop: plotTop)
        let ticks = timeline.gate.isEmpty ? [0, 25, 50, 75, 100] : Self.phasedSchedule
        frame(&svg, plotTop: plotTop, ticks: ticks.map { ($0, "\(Int($0))%") }, y: y)
        // The version's own releases are drawn last, in front.
        for (index, rollout) in timeline.play.enumerated().reversed() {
            let style = playStyle(index)
            steps(
                &svg, rollout.points, stopped: rollout.halted, y: y, color: style.color, dash: style.dash,
                id: "play-\(rollout.versionCode.rawValue)", width: rollout.version == timeline.version ? 3 : 2.5)
            for halt in rollout.halts {
                let x = self.x(halt.at)
                Self.haltMark(&svg, x: x, y: y(halt.value), data: "halt", at: halt.at)
                svg.label(
                    "\(rollout.versionCode.rawValue) halted at \(Self.percent(halt.value))", x: x,
                    y: y(halt.value) - 12, size: 12)
            }
        }
        gateMarks(&svg, y: y)
    }

    func phasedPanel(_ svg: inout SVGWriter, plotTop: Double) {
        guard let phased = timeline.phased else { return }
        let y = scheduleScale(plotTop: plotTop)
        frame(&svg, plotTop: plotTop, ticks: Self.phasedSchedule.map { ($0, "\(Int($0))%") }, y: y)
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
    }

    func storefrontPanel(_ svg: inout SVGWriter, plotTop: Double) {
        let y = linear(plotTop: plotTop, max: 100)
        frame(&svg, plotTop: plotTop, ticks: [0, 25, 50, 75, 100].map { ($0, "\(Int($0))%") }, y: y)
        for (index, share) in timeline.storefronts.enumerated() {
            let style = storefrontStyle(index)
            steps(
                &svg, share.points, stopped: share.points.map { _ in false }, y: y, color: style.color,
                dash: style.dash, id: "storefronts-\(share.version)", width: index == 0 ? 3 : 2.5)
        }
    }

    func crashPanel(_ svg: inout SVGWriter, plotTop: Double) {
        let highest = timeline.crashRates.flatMap(\.rates).map(\.upper).max() ?? 0.01
        let step = Self.niceStep(highest / 4)
        let maximum = max(step, (highest / step).rounded(.up) * step)
        let y = linear(plotTop: plotTop, max: maximum)
        let count = Int((maximum / step).rounded())
        let digits = step >= 0.01 ? 0 : step >= 0.001 ? 1 : 2
        frame(
            &svg, plotTop: plotTop,
            ticks: (0...count).map { (Double($0) * step, String(format: "%.\(digits)f%%", Double($0) * step * 100)) },
            y: y)
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
        }
    }

    // MARK: Pieces

    /// Where `date` falls across the plot.
    func x(_ date: Date) -> Double {
        Self.plotLeft + axis.position(date) * (plotRight - Self.plotLeft)
    }

    /// Apple's schedule (0, 1, 2, 5, 10, 20, 50, 100%) evenly up the plot, linear between its steps.
    func scheduleScale(plotTop: Double) -> (Double) -> Double {
        let schedule = Self.phasedSchedule
        let step = Self.plotHeight / Double(schedule.count - 1)
        let bottom = plotTop + Self.plotHeight
        return { value in
            guard let upper = schedule.firstIndex(where: { $0 >= value }) else { return bottom - Self.plotHeight }
            guard upper > 0 else { return bottom }
            let (low, high) = (schedule[upper - 1], schedule[upper])
            let fraction = (value - low) / (high - low)
            return bottom - (Double(upper - 1) + fraction) * step
        }
    }

    /// A linear scale from 0 at the plot's bottom to `max` at its top.
    func linear(plotTop: Double, max: Double) -> (Double) -> Double {
        let bottom = plotTop + Self.plotHeight
        return { value in bottom - Swift.min(1, Swift.max(0, value / max)) * Self.plotHeight }
    }

    /// The panel's grid and value ticks, and the time ticks below it.
    func frame(_ svg: inout SVGWriter, plotTop: Double, ticks: [(Double, String)], y: (Double) -> Double) {
        let bottom = plotTop + Self.plotHeight
        for (value, label) in ticks {
            svg.line(Self.plotLeft, y(value), plotRight, y(value), color: Self.grid, width: 1, dash: "")
            svg.text(label, x: Self.plotLeft - 10, y: y(value) + 4, size: 12, fill: Self.muted, anchor: "end")
        }
        for tick in axis.ticks {
            let x = self.x(tick.at)
            svg.line(
                x, plotTop, x, bottom + 5, color: tick.isDay ? "#afb8c1" : Self.grid, width: 1,
                dash: tick.isDay ? "" : "2 3")
            svg.label(tick.label, x: x, y: bottom + 20, size: 12, fill: tick.isDay ? Self.ink : Self.muted)
        }
        svg.line(Self.plotLeft, bottom, plotRight, bottom, color: Self.muted, width: 1, dash: "")
    }

    /// When the value of a series' last point stops being drawn: the next round after it, or the
    /// axis's end after the last round.
    func until(_ date: Date) -> Date {
        timeline.rounds.first { $0 > date } ?? axis.end
    }

    /// A step line through `points`, each value held until the next point (the last until the
    /// next round), dotted where `stopped`.
    func steps(
        _ svg: inout SVGWriter, _ points: [ReleaseTimeline.Point], stopped: [Bool], y: (Double) -> Double,
        color: String, dash: String, id: String, width: Double = 3
    ) {
        guard let first = points.first, let last = points.last else { return }
        func isStopped(_ index: Int) -> Bool { stopped.indices.contains(index) ? stopped[index] : false }
        var runs: [(stopped: Bool, d: String)] = []
        var current = (stopped: isStopped(0), d: "M\(SVGWriter.n(x(first.at))),\(SVGWriter.n(y(first.value)))")
        var value = first.value
        for (index, point) in points.enumerated().dropFirst() {
            let x = SVGWriter.n(self.x(point.at))
            if isStopped(index) != current.stopped {
                current.d += " H\(x)"
                runs.append(current)
                current = (isStopped(index), "M\(x),\(SVGWriter.n(y(value)))")
            }
            if point.value != value {
                current.d += " H\(x) V\(SVGWriter.n(y(point.value)))"
                value = point.value
            }
        }
        let end = x(until(last.at))
        current.d += " H\(SVGWriter.n(end))"
        runs.append(current)
        for run in runs {
            svg.element(
                "path",
                [
                    ("d", run.d), ("fill", "none"), ("stroke", color), ("stroke-width", SVGWriter.n(width)),
                    ("stroke-dasharray", run.stopped ? Self.stoppedDash : dash),
                    ("stroke-linecap", run.stopped ? "round" : "butt"), ("data-series", id),
                    ("data-stopped", run.stopped ? "true" : "false"),
                ])
        }
        // The value now, where the line ends: a dot, so a last step up is seen however short.
        if last.at == timeline.end {
            svg.element(
                "circle",
                [
                    ("cx", SVGWriter.n(end)), ("cy", SVGWriter.n(y(last.value))), ("r", "4.5"), ("fill", color),
                    ("stroke", "#ffffff"), ("stroke-width", "1.5"), ("data-now", id),
                ])
        }
    }

    /// `text` in lines no wider than `width` at `size` px, broken between words.
    static func wrap(_ text: String, size: Double, width: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : "\(line) \(word)"
            if !line.isEmpty, SVGWriter.estimatedWidth(candidate, size: size) > width {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    /// Items of these widths laid left to right, `gap` apart, onto as many rows of `width` as needed:
    /// each item's row and x (from 0).
    static func flow(_ widths: [Double], gap: Double, width: Double) -> [(row: Int, x: Double)] {
        var placed: [(row: Int, x: Double)] = []
        var (row, x) = (0, 0.0)
        for item in widths {
            if x > 0, x + item > width {
                (row, x) = (row + 1, 0)
            }
            placed.append((row, x))
            x += item + gap
        }
        return placed
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

    /// An advance or complete of the gate: a dark triangle pointing up, ringed in white.
    static func advanceMark(_ svg: inout SVGWriter, x: Double, y: Double) {
        let corners = [(x, y - 8), (x + 7, y + 5), (x - 7, y + 5)]
        svg.element(
            "polygon",
            [
                ("points", corners.map { "\(SVGWriter.n($0.0)),\(SVGWriter.n($0.1))" }.joined(separator: " ")),
                ("fill", ink), ("stroke", "#ffffff"), ("stroke-width", "1.5"),
            ])
    }

    /// A hold of the gate: a white diamond outlined dark.
    static func holdMark(_ svg: inout SVGWriter, x: Double, y: Double) {
        let corners = [(x, y - 7), (x + 7, y), (x, y + 7), (x - 7, y)]
        svg.element(
            "polygon",
            [
                ("points", corners.map { "\(SVGWriter.n($0.0)),\(SVGWriter.n($0.1))" }.joined(separator: " ")),
                ("fill", "#ffffff"), ("stroke", ink), ("stroke-width", "2"),
            ])
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

    /// `Wed 10 Feb 2021 08:00`, or `Wed 10 Feb 08:00` without the year.
    static func stamp(_ date: Date, year: Bool = true) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        return "\(TimelineTimeAxis.weekdays[((parts.weekday ?? 1) - 1) % 7]) \(parts.day ?? 1) "
            + "\(TimelineTimeAxis.months[((parts.month ?? 1) - 1) % 12]) \(year ? "\(parts.year ?? 1970) " : "")"
            + String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
