import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// The rollout gate's decisions on the timeline (`watch --rollout` histories): each advance and
/// complete marked on the version's Play series with its step, each hold marked when it gives a
/// new reason, every reason readable in the mark's tooltip and in the HTML table; a history
/// without decisions draws as before.
@Suite struct TimelineGateMarkTests {
    typealias Elements = TimelineChartTests.Elements

    /// A round of 82 (8.0.11) at `fraction` beside 81 completed, with the gate's decision.
    static func round(_ at: String, _ fraction: Double, _ decision: String, _ reasons: [String], to: Double? = nil)
        -> String
    {
        let releases =
            #"[{"versionCode":82,"version":"8.0.11","status":"inProgress","userFraction":\#(fraction)},"#
            + #"{"versionCode":81,"version":"8.0.10","status":"completed"}]"#
        let quoted = reasons.map { "\"\($0)\"" }.joined(separator: ",")
        let rollout =
            #"{"decision":"\#(decision)","reasons":[\#(quoted)],"from":\#(fraction),"to":\#(to.map { "\($0)" } ?? "null")}"#
        return
            #"{"takenAt":"\#(at)","googlePlay":{"track":"production","releases":\#(releases)},"rollout":\#(rollout)}"#
    }

    static func young(_ hours: Int) -> String { "the step began \(hours) hours ago; a step lasts 24 hours" }
    static let review = "Play has changes in review: the rollout waits for them"
    static let healthy = ["Google Play: healthy", "App Store: healthy"]

    /// Holds at 1% for a day (the step's age growing, a review for two rounds, then not), an
    /// advance to 2%, holds, then a complete from 50%.
    static let rounds: [String] = [
        round("2021-03-01T08:00:00Z", 0.01, "hold", [young(0)]),
        round("2021-03-01T14:00:00Z", 0.01, "hold", [young(6)]),
        round("2021-03-01T20:00:00Z", 0.01, "hold", [young(12), review]),
        round("2021-03-02T02:00:00Z", 0.01, "hold", [young(18), review]),
        round("2021-03-02T05:00:00Z", 0.01, "hold", [young(21)]),
        round("2021-03-02T08:00:00Z", 0.01, "advance", healthy, to: 0.02),
        round("2021-03-02T14:00:00Z", 0.02, "hold", [young(6)]),
        round("2021-03-02T20:00:00Z", 0.02, "hold", [young(12)]),
        round("2021-03-03T08:00:00Z", 0.5, "complete", healthy, to: 1),
    ]

    static func chart(_ lines: [String]) throws -> TimelineChart {
        let history = try TimelineChartTests.history(lines)
        return try TimelineChart(try ReleaseTimeline(history, version: try Version(parsing: "8.0.11")), width: 480)
    }

    /// Each mark's kind, time and tooltip, in the order drawn.
    static func marks(_ svg: String) throws -> [(kind: String, at: String, title: String)] {
        let elements = try #require(Elements.parse(svg))
        var marks: [(kind: String, at: String, title: String)] = []
        for (index, element) in elements.elements.enumerated() {
            guard let kind = element.attributes["data-mark"], kind == "advance" || kind == "hold" else { continue }
            let title = (elements.texts[index + 1] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            marks.append((kind, element.attributes["data-at"] ?? "", title))
        }
        return marks
    }

    @Test func eachAdvanceAndEachNewReasonToHoldIsMarkedWithItsReasons() throws {
        let chart = try Self.chart(Self.rounds)
        let marks = try Self.marks(chart.svg)
        // The first hold, the hold that adds the review (not the one that drops it), the advance,
        // the hold of the new step (its reasons are the first hold's, but an advance came between),
        // the complete.
        #expect(
            marks.map { "\($0.kind) \($0.at)" } == [
                "hold 2021-03-01T08:00:00Z", "hold 2021-03-01T20:00:00Z", "advance 2021-03-02T08:00:00Z",
                "hold 2021-03-02T14:00:00Z", "advance 2021-03-03T08:00:00Z",
            ])
        #expect(marks[0].title == "Mon 1 Mar 2021 08:00: hold at 1%: the step began 0 hours ago; a step lasts 24 hours")
        #expect(
            marks[1].title.hasSuffix("hold at 1%: the step began 12 hours ago; a step lasts 24 hours; \(Self.review)"))
        #expect(marks[2].title == "Tue 2 Mar 2021 08:00: advance 1% → 2%: Google Play: healthy; App Store: healthy")
        #expect(marks[4].title.contains("complete 50% → 100%"))
        // The step each advance rose to is written beside it, at least 11 px in the docs column.
        #expect(chart.svg.contains(">→ 2%</text>") && chart.svg.contains(">→ 100%</text>"))
        // The legend says what the marks mean.
        #expect(
            chart.svg.contains(">gate advanced Play</text>")
                && chart.svg.contains(">gate held (why: its tooltip)</text>"))
        #expect(chart.summary.contains("the rollout gate advanced Play 2 time(s) and held 3 time(s)"))
    }

    @Test func theHTMLTableListsEachDecisionWithItsReasonsARunOfHoldsOnce() throws {
        let chart = try Self.chart(Self.rounds)
        let html = chart.html
        #expect(html.contains("<th scope=\"col\">Rollout gate</th>"))
        let cells = html.components(separatedBy: "<td>").dropFirst().map { $0.components(separatedBy: "</td>")[0] }
        let gate = cells.filter { $0.hasPrefix("hold") || $0.hasPrefix("advance") || $0.hasPrefix("complete") }
        // A row a change of reasons: the step's age alone makes no row; the review's start and end do.
        #expect(
            gate == [
                "hold at 1%: the step began 0 hours ago; a step lasts 24 hours",
                "hold at 1%: the step began 12 hours ago; a step lasts 24 hours; \(Self.review)",
                "hold at 1%: the step began 21 hours ago; a step lasts 24 hours",
                "advance 1% → 2%: Google Play: healthy; App Store: healthy",
                "hold at 2%: the step began 6 hours ago; a step lasts 24 hours",
                "complete 50% → 100%: Google Play: healthy; App Store: healthy",
            ])
    }

    @Test func aHistoryWithoutDecisionsHasNoGateMarkKeyOrColumn() throws {
        let lines = Self.rounds.map { $0.components(separatedBy: #","rollout":"#)[0] + "}" }
        let chart = try Self.chart(lines)
        #expect(chart.timeline.gate.isEmpty)
        #expect(try Self.marks(chart.svg).isEmpty)
        #expect(!chart.svg.contains("gate") && !chart.html.contains("Rollout gate"))
        // Its Play panel keeps the linear scale (0, 25, 50, 75, 100%); a gated one has the schedule's.
        #expect(chart.svg.contains(">25%</text>") && !chart.svg.contains(">1%</text>"))
        #expect(try Self.chart(Self.rounds).svg.contains(">1%</text>"))
    }

    // MARK: The rollout guide's picture

    static let rolloutHistory = LoopbackServer.packageRoot.appendingPathComponent("Docs/Watch/rollout-history.jsonl")

    @Test func theRolloutGuidesPictureIsWhatTheBundledRolloutDrawsAndReadsInTheColumn() throws {
        let history = try ReleaseHistoryFile(path: Self.rolloutHistory.path).read()
        let chart = try TimelineChart(try ReleaseTimeline(history), width: TimelineChartTests.docsWidth)
        let committed = try TimelineChartTests.committedPicture("timeline-8.0.11.svg")
        #expect(committed == TimelineChartTests.asTheToolDraws(chart), "regenerate it: bash Scripts/diagrams.sh")
        // Every advance the history recorded is marked; its holds are, each time a reason is new.
        let advances = history.rounds.filter { [.advance, .complete].contains($0.rollout?.kind) }
        let marks = try Self.marks(committed)
        #expect(
            marks.filter { $0.kind == "advance" }.map(\.at)
                == advances.map { ISO8601Timestamp.string(from: $0.takenAt) })
        let holds = marks.filter { $0.kind == "hold" }
        #expect(holds.count >= 5 && holds.count < history.rounds.count / 10, "\(holds.count) hold marks")
        // No text under 11 px in the narrowest docs column (449 px at a 1024 px window).
        let elements = try #require(Elements.parse(committed))
        let sizes = elements.elements.filter { $0.name == "text" }.compactMap {
            $0.attributes["font-size"].flatMap(Double.init)
        }
        let narrowest = TimelineChartTests.docsColumns.map(\.column).min() ?? 0
        #expect((sizes.min() ?? 0) * min(1, narrowest / Double(TimelineChartTests.docsWidth)) >= 11)
    }

    @Test func reasonsAreComparedWithoutTheirNumbers() {
        #expect(
            ReleaseTimeline.shape(["the step began 3 hours ago; a step lasts 24 hours"])
                == ReleaseTimeline.shape(["the step began 17.5 hours ago; a step lasts 24 hours"]))
        #expect(
            ReleaseTimeline.shape(["Google Play: insufficientData (420 user-days of 1000)"])
                == ReleaseTimeline.shape(["Google Play: insufficientData (1,020 user-days of 1000)"]))
        #expect(
            ReleaseTimeline.shape(["Google Play: insufficientData (420 user-days of 1000)"])
                != ReleaseTimeline.shape(["App Store: insufficientData (420 user-days of 1000)"]))
    }
}
