import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels
@testable import StoreReleaseTooling

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A store's words in what the library writes for elsewhere than a terminal: the timeline's SVG
/// and HTML page stay well-formed XML with a hold reason holding control characters (written
/// out), and a Slack message keeps its own line breaks while a store's are written out.
@Suite struct StoreTextEscapingTests {
    /// What a store's text may carry that no picture, page or message may send on: a screen
    /// clear, a C0 control, a line break.
    static let hostile = "\u{1B}[2J\u{1}held\nFORGED"

    /// A history whose hold reason (recorded from a store's text) holds `hostile`.
    static func chart() throws -> TimelineChart {
        // JSON escapes, as `watch --history` writes a reason's control characters.
        let reason = #"the store said: \u001b[2J\u0001held\nFORGED"#
        let lines = [
            TimelineGateMarkTests.round("2021-03-01T08:00:00Z", 0.01, "hold", [reason]),
            TimelineGateMarkTests.round(
                "2021-03-02T08:00:00Z", 0.01, "advance", TimelineGateMarkTests.healthy, to: 0.02),
        ]
        return try TimelineGateMarkTests.chart(lines)
    }

    /// The hold's reason is drawn (its tooltip) and listed (the HTML table) with the ESC, the
    /// C0 control and the line break written out, so both parse as XML (the SVG did not:
    /// a raw 0x1B is no XML character).
    @Test func aHoldReasonWithControlCharactersKeepsTheSVGAndTheTableWellFormed() throws {
        let chart = try Self.chart()
        for (name, text) in [("svg", chart.svg), ("html", chart.html)] {
            #expect(
                !text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{1}" }, "\(name) holds a raw control")
            #expect(text.contains(#"the store said: \u{1B}[2J\u{1}held\u{A}FORGED"#), "\(name)")
        }
        let marks = try TimelineGateMarkTests.marks(chart.svg)
        #expect(marks.first?.title.hasSuffix(#"hold at 1%: the store said: \u{1B}[2J\u{1}held\u{A}FORGED"#) == true)
        // The page's table, between its tags, parses as XML too.
        let table = try #require(chart.html.range(of: "<table").map { chart.html[$0.lowerBound...] })
        let end = try #require(table.range(of: "</table>"))
        #expect(TimelineChartTests.Elements.parse(String(table[..<end.upperBound])) != nil)
    }

    /// Slack's text: the store's `<`, `>` and `&` as entities (as before), its line break and
    /// ESC written out; the message's own line breaks between events stay (they were the
    /// store's too: a raw `\n` started a line of the message, an ESC went through).
    @Test func aSlackMessageKeepsItsLinesAndWritesOutAStoresControls() throws {
        let notifier = try WebhookNotifier(url: try #require(URL(string: "https://hooks.slack.com/x")))
        let events = ["1.0 <b>&", "1.1 " + Self.hostile].map {
            ReleaseEvent(.ascStateChanged(version: VersionText($0), from: nil, to: .readyForDistribution), at: Date())
        }
        let body = try #require(
            try JSONSerialization.jsonObject(with: try notifier.body(for: events)) as? [String: String])
        let text = try #require(body["text"])
        #expect(
            text == "*StoreRelease*: 2 changes\n• App Store Connect: 1.0 &lt;b&gt;&amp; new → READY_FOR_DISTRIBUTION\n"
                + #"• App Store Connect: 1.1 \u{1B}[2J\u{1}held\u{A}FORGED new → READY_FOR_DISTRIBUTION"#,
            "\(text.debugDescription)")
    }
}
