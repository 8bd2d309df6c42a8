import Foundation
import StoreReleaseKit

/// JSON on stdout as the contract writes it: pretty-printed, keys sorted, slashes unescaped.
enum JSONOutput {
    static func print(_ value: some Encodable) throws(CLIError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(value)
            // Pretty-printed: its own newlines stay, each line escaped as printLine escapes one.
            let text = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            StandardStreams.print(text.map { OutsideText.json(String($0)) }.joined(separator: "\n") + "\n")
        } catch {
            throw .failure("cannot encode the result as JSON: \(error)")
        }
    }

    /// One JSON object on one line (keys sorted), as JSON lines are written; a character a
    /// terminal would act on is escaped (``OutsideText/json(_:)``).
    static func printLine(_ value: some Encodable) throws(CLIError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(value)
            StandardStreams.print(OutsideText.json(String(decoding: data, as: UTF8.self)) + "\n")
        } catch {
            throw .failure("cannot encode the result as JSON: \(error)")
        }
    }

    /// Prints a report as `--format` asks: its JSON, or its text or Markdown.
    static func print(
        _ value: some Encodable, as format: ReportFormat, text: @autoclosure () -> String,
        markdown: @autoclosure () -> String
    ) throws(CLIError) {
        switch format {
        case .json: try print(value)
        // A report's text carries the stores' words (refusals, errors): nothing in them may act
        // on the terminal (OutsideText).
        case .text: StandardStreams.print(OutsideText.lines(text()))
        case .markdown: StandardStreams.print(OutsideText.lines(markdown()))
        }
    }
}
