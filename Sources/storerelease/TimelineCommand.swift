import Foundation
import StoreReleaseKit

extension Command {
    /// `storerelease timeline HISTORY [--version V] [--format svg|html]`.
    static let timeline = Command(
        name: "timeline",
        synopsis: "timeline HISTORY [--version V] [--format svg|html]",
        summary: "Draws a release over time from a watch --history: both stores in one SVG picture.",
        discussion: """
            HISTORY is what 'storerelease watch --history FILE' appends, a JSON line a round. The
            picture (1280 px wide, text at least 12 px, no script, no web font, nothing fetched)
            shares one time axis in UTC: Play's rollout of each versionCode of V as a step line,
            each halt a square; the phased release on Apple's 1, 2, 5, 10, 20, 50, 100% schedule,
            each pause a pause sign; the share of storefronts serving V and the versions before
            it; each store's crash rate with its 95% interval as a band, when the rounds read
            health. Google Play is green and solid, the App Store blue and dashed; a halted or
            paused stretch is dotted, so it prints in black and white. V defaults to the highest
            version the history saw. --format html wraps the SVG in a page with the same data as
            a table (one row a round that changed something). A torn last line (a watch killed
            mid-write) is skipped and named on stderr.
            Exit status: 0 drawn; 1 the history never saw V (the versions it has are named); 2
            bad flags, or a HISTORY that is not one, is empty, or mixes apps (file and line named).
            """,
        options: [TimelineCommand.version.spec, TimelineCommand.format.spec],
        examples: [
            "storerelease timeline Docs/Watch/timeline-history.jsonl > /tmp/timeline.svg",
            "storerelease timeline Docs/Watch/timeline-history.jsonl --version 8.0.10 --format html > /tmp/timeline.html",
        ],
        run: { arguments throws(CLIError) in try TimelineCommand.run(arguments) }
    )
}

enum TimelineCommand {
    static let version = Option<Version>(
        "--version", "V", "The version drawn (default: the highest the history saw).")
    static let format: Option<TimelineFormat> = CommonOptions.format(
        "svg (default): the picture; html: a page with the picture and the same data as a table.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let format = try arguments.value(format) ?? .svg
        let wanted = try arguments.value(version)
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw .usage("timeline: needs one HISTORY (a watch --history file); got \(arguments.positionals.count)")
        }
        let history: ReleaseHistory
        do throws(ReleaseHistoryFileError) {
            history = try ReleaseHistoryFile(path: path).read()
        } catch {
            switch error {
            case .io: throw .failure("timeline: \(error)")
            case .notAHistory, .empty, .otherApp, .notAFile: throw .badInput("timeline: \(error)")
            }
        }
        if let torn = history.tornLine {
            StandardStreams.printError(
                "timeline: \(path):\(torn) is torn (a watch stopped mid-write); skipped, the lines before it are drawn\n"
            )
        }
        let timeline: ReleaseTimeline
        do throws(ReleaseTimelineError) {
            timeline = try ReleaseTimeline(history, version: wanted)
        } catch {
            throw .failure("timeline: \(path): \(error)")
        }
        let chart = TimelineChart(timeline)
        switch format {
        case .svg: StandardStreams.print(chart.svg)
        case .html: StandardStreams.print(chart.html)
        }
        return 0
    }
}
