import Foundation
import StoreReleaseKit

/// `watch`'s webhook flags, read once: the URL (given, or read from a file so that it stays out
/// of the process list) and the format of what is posted.
struct NotifyOptions {
    static let url = Option<String>(
        "--notify", "URL", "A webhook to POST each round's events to: https, or http to this machine.")
    static let urlFile = Option<String>(
        "--notify-file", "FILE", "The webhook's URL read from a file, so it is not in the process list.")
    static let format = Option<WebhookNotifier.Format>(
        "--notify-format", "{\"text\": …} for Slack (default), or the JSON array of events.")

    static let table = OptionTable([url, urlFile, format])

    /// Where the webhook's URL is.
    private enum Given {
        case url(String)
        case file(String)
    }

    private let command: String
    private let given: Given?
    private let format: WebhookNotifier.Format

    /// Reads the flags; the file is not opened yet.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a bad flag, both URLs, or the format without a URL.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        command = arguments.command
        format = try arguments.value(Self.format) ?? .slack
        switch (try arguments.value(Self.url), try arguments.value(Self.urlFile)) {
        case (let url?, nil): given = .url(url)
        case (nil, let path?): given = .file(path)
        case (.some, .some): throw .usage("\(command): give \(Self.url) or \(Self.urlFile), not both")
        case (nil, nil):
            try arguments.refuse(Self.format, goesWith: "\(Self.url) or \(Self.urlFile)")
            given = nil
        }
    }

    /// The notifier the flags describe, its file read, or `nil` when none is asked for.
    ///
    /// - Throws: ``CLIError`` naming the flag (never the URL: its path is the webhook's secret).
    func notifier() throws(CLIError) -> WebhookNotifier? {
        let source: String
        let text: String
        switch given {
        case .url(let url)?:
            (source, text) = (Self.url.name, url)
        case .file(let path)?:
            source = "\(Self.urlFile) \(path)"
            text = try InputFile.text(path, command: command, maximumSize: 4 << 10)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, !text.contains(where: \.isNewline) else {
                throw .badInput(
                    "\(command): \(Self.urlFile) \(path.debugDescription) holds no URL, or more than one line")
            }
        case nil:
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
