import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension TimelineChart {
    /// The SVG in an HTML page with the same data as a table, for screen readers and for copying.
    ///
    /// The page's heading is the picture's title and subtitle, shown once: the picture in it is
    /// drawn without its own (``pagePicture``). The table has one row a round that changed
    /// something drawn: a value, a halt or pause, a day of the phased release, a series that
    /// starts or ends (`–` where a series is not drawn), the rollout gate's decision and its
    /// reasons (a run of holds for the same reasons one row). Nothing is fetched and nothing runs.
    public var html: String {
        let t = timeline
        var columns = ["Time (UTC)"]
        columns += t.play.map { "Google Play \($0.versionCode.rawValue)" + ($0.version.map { " (\($0))" } ?? "") }
        if t.phased != nil { columns.append("App Store phased release") }
        columns += t.storefronts.map { "Storefronts serving \($0.version)" }
        columns += t.crashRates.map {
            "\($0.store.displayName) crash rate (95% interval)"
        }
        let gate = gateCells
        if !t.gate.isEmpty { columns.append("Rollout gate") }
        var rows: [[String]] = []
        for date in t.rounds {
            var row = [Self.stamp(date)]
            for rollout in t.play {
                let states = zip(rollout.points, rollout.halted).map { ($0.value, $1) }
                row.append(
                    Self.step(rollout.points.map(\.at), states, date) {
                        Self.percent($0.0) + ($0.1 ? " (halted)" : "")
                    })
            }
            if let phased = t.phased {
                let states = phased.points.indices.map { (phased.points[$0].value, phased.days[$0], phased.paused[$0]) }
                row.append(
                    Self.step(phased.points.map(\.at), states, date) {
                        Self.percent($0.0) + ($0.1.map { ", day \($0)" } ?? "") + ($0.2 ? " (paused)" : "")
                    })
            }
            for share in t.storefronts {
                let counts = zip(share.serving, share.read).map { ($0, $1) }
                row.append(Self.step(share.points.map(\.at), counts, date) { "\($0.0) of \($0.1)" })
            }
            for rate in t.crashRates {
                // The line joins the rounds that read health: a round that did not holds the last.
                let index = rate.at.lastIndex { $0 <= date }
                row.append(
                    index.map {
                        let r = rate.rates[$0]
                        return String(format: "%.2f%% [%.2f–%.2f]", r.value * 100, r.lower * 100, r.upper * 100)
                    } ?? "–")
            }
            if !t.gate.isEmpty { row.append(gate[date] ?? "–") }
            if let last = rows.last, last.dropFirst() == row.dropFirst() { continue }
            rows.append(row)
        }
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(SVGWriter.escaped(title))</title>
            <style>
            body { font-family: \(Self.font); color: #1f2328; margin: 24px; max-width: \(width)px; }
            h1 { font-size: 22px; margin: 0 0 4px; } .subtitle { color: #57606a; font-size: 14px; margin: 0 0 8px; }
            figure { margin: 0 0 32px; } svg { max-width: 100%; height: auto; }
            table { border-collapse: collapse; font-size: 14px; } caption { text-align: left; font-weight: 600; padding: 8px 0; }
            th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: right; } th:first-child, td:first-child { text-align: left; }
            thead th { background: #f6f8fa; }
            </style>
            </head>
            <body>
            <h1>\(SVGWriter.escaped(title))</h1>
            <p class="subtitle">\(SVGWriter.escaped(subtitle))</p>
            <figure>

            """
        html += pagePicture
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

    /// The picture as the HTML page draws it: without its title and subtitle, which the page shows.
    public var pagePicture: String { withoutHeading.svg }

    /// A step series' text at `date`: its value at its last point up to `date` while `date` is
    /// within its points; `–` before its first point and after its last (it is not drawn there).
    static func step<Value>(_ at: [Date], _ values: [Value], _ date: Date, _ text: (Value) -> String) -> String {
        guard let first = at.first, let last = at.last, first <= date, date <= last,
            let index = at.lastIndex(where: { $0 <= date })
        else { return "–" }
        return text(values[index])
    }
}
