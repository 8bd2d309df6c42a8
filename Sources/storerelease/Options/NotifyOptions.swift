import Foundation
import StoreReleaseKit

/// `watch`'s webhook flags, read once: the URL (given, or read from a file so that it stays out
/// of the process list) and the format of what is posted.
enum NotifyOptions {
    static let url = Option<String>(
        "--notify", "URL", "A webhook to POST each round's events to: https, or http to this machine.")
    static let urlFile = Option<String>(
        "--notify-file", "FILE", "The webhook's URL read from a file, so it is not in the process list.")
    static let format = Option<WebhookNotifier.Format>(
        "--notify-format", "{\"text\": …} for Slack (default), or the JSON array of events.")

    static let specs = [url.spec, urlFile.spec, format.spec]

    /// The notifier the flags describe, or `nil` when none is asked for.
    ///
    /// - Throws: ``CLIError`` naming the flag (never the URL: its path is the webhook's secret).
    static func notifier(_ arguments: ParsedArguments) throws(CLIError) -> WebhookNotifier? {
        let command = arguments.command
        let format = try arguments.value(format) ?? .slack
        let source: String
        let text: String
        switch (try arguments.value(url), try arguments.value(urlFile)) {
        case (let url?, nil):
            (source, text) = (Self.url.name, url)
        case (nil, let path?):
            source = "\(urlFile) \(path)"
            text = try InputFile.text(path, command: command, maximumSize: 4 << 10)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, !text.contains(where: \.isNewline) else {
                throw .badInput("\(command): \(urlFile) \(path.debugDescription) holds no URL, or more than one line")
            }
        case (.some, .some):
            throw .usage("\(command): give \(url) or \(urlFile), not both")
        case (nil, nil):
            try arguments.refuse([Self.format.spec], goesWith: "\(url) or \(urlFile)")
            return nil
        }
        // Never the text itself in a message: the URL's path is the webhook's secret.
        guard let url = URL(string: text) else { throw .usage("\(command): \(source) is not a URL") }
        do throws(WebhookURLError) {
            return try WebhookNotifier(url: url, format: format)
        } catch {
            throw .usage("\(command): \(source): \(error)")
        }
    }
}
