import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease timeline HISTORY [--version V] [--width PX] [--format svg|html]`.
    static let timeline = Command(
        name: "timeline",
        synopsis: "timeline HISTORY [--version V] [--width PX] [--format svg|html]",
        summary: "Draws a release over time from a watch --history: both stores in one SVG picture.",
        discussion: """
            HISTORY is what 'storerelease watch --history FILE' appends, a JSON line a round. The
            picture (1280 px wide unless --width says otherwise, text at least 12 px, no script, no
            web font, nothing fetched) shares one time axis in UTC that fits the rounds' span
            (seconds for a watch of a minute, weeks for months), a tick label at most every 72 px:
            Play's rollout of every release the track held as a step line (V's in front, the others
            paler), each halt a square; the phased release on Apple's 1, 2, 5, 10, 20, 50, 100%
            schedule, each pause a pause sign; the share of storefronts serving V and the versions
            before it; each store's crash rate with its 95% interval as a band, when the rounds read
            health. A round's value holds until the next round, the last round's for the watch's
            usual interval, ending in a dot. Google Play is green and solid, the App Store blue and
            dashed; a halted or paused stretch, and nothing else, is dotted, so it prints in black
            and white. Titles and keys wrap to the width: draw it as wide as the page or column that
            shows it (the docs' is 480). V defaults to the highest version the history saw. --format
            html puts the picture under the page's own heading, with the same data as a table (a row
            for every round that changed something drawn). A torn last line (a watch killed mid-
            write) is skipped and named on stderr.
            Exit status: 0 drawn; 1 the history never saw V (the versions it has are named); 2 bad
            flags, or a HISTORY that is not one, is empty, mixes apps (file and line named), or
            spans more than five years (a clock that was wrong: the first and last rounds named).
            """,
        options: [TimelineCommand.version, TimelineCommand.width, TimelineCommand.format],
        examples: [
            "storerelease timeline Docs/Watch/timeline-history.jsonl > /tmp/timeline.svg",
            "storerelease timeline Docs/Watch/timeline-history.jsonl --width 480 > /tmp/timeline-column.svg",
            "storerelease timeline Docs/Watch/timeline-history.jsonl --version 8.0.10 --format html > /tmp/timeline.html",
        ],
        run: { arguments throws(CLIError) in try TimelineCommand.run(arguments) }
    )
}

enum TimelineCommand {
    static let version = Option<Version>(
        "--version", "V", "The version drawn (default: the highest the history saw).")
    static let width = Option<TimelineWidth>(
        "--width", "PX", "The picture's width in px, 480 to 4000 (default 1280); titles and keys wrap to it.")
    static let format: Option<TimelineFormat> = CommonOptions.format(
        "svg (default): the picture; html: a page with the picture and the same data as a table.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let format = try arguments.value(format) ?? .svg
        let wanted = try arguments.value(version)
        let width = try arguments.value(width)?.pixels ?? TimelineChart.defaultWidth
        let (path, history) = try HistoryInput.read(arguments, used: "drawn")
        let timeline: ReleaseTimeline
        do throws(ReleaseTimelineError) {
            timeline = try ReleaseTimeline(history, version: wanted)
        } catch {
            throw CLIError(error, "timeline: \(path)")
        }
        let chart: TimelineChart
        do throws(TimelineChartError) {
            chart = try TimelineChart(timeline, width: width)
        } catch {
            throw .usage("timeline: \(TimelineCommand.width) \(error)")
        }
        switch format {
        case .svg: StandardStreams.print(chart.svg)
        case .html: StandardStreams.print(chart.html)
        }
        return 0
    }
}

/// A picture's width in px, within ``TimelineChart/widths`` (`--width 600`), digits only.
struct TimelineWidth: ArgumentValue {
    let pixels: Int

    init(argument: String) throws(ArgumentProblem) {
        guard argument.allSatisfy({ $0.isASCII && $0.isNumber }), let pixels = Int(argument),
            TimelineChart.widths.contains(pixels)
        else {
            throw .value(
                "\(argument.debugDescription) is not a width in px from \(TimelineChart.widths.lowerBound) "
                    + "to \(TimelineChart.widths.upperBound) (such as 600)")
        }
        self.pixels = pixels
    }
}
