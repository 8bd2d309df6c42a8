import Foundation
import StoreReleaseClients
import StoreReleaseCore

/// Delivers a watcher's events to a webhook: Slack's incoming webhook or any receiver of JSON.
///
/// A webhook URL is a credential (Slack's carries its secret in the path), so it is handled like
/// a token: only https, or http to this machine; never shown beyond its origin
/// (`https://hooks.slack.com/…`) in an error or a description; and a redirect is not followed,
/// since it would send the events elsewhere.
public struct WebhookNotifier: Sendable, CustomStringConvertible, CustomReflectable {
    /// What the body is.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// `{"text": …}` in Slack's mrkdwn, one line an event.
        case slack
        /// The JSON array of the events, as `diff` prints them.
        case json
    }

    /// Where the events go.
    public let url: URL
    /// What the body is.
    public let format: Format
    /// How the body is sent.
    public var transport: any HTTPTransport
    /// The most a delivery may take in all, the answer read.
    ///
    /// A receiver that answers a byte at a time fails the delivery once it has passed; the events
    /// are kept.
    public var timeout: Duration = .seconds(15)
    /// The most of a receiver's answer read: 64 KiB.
    ///
    /// A 2xx answer is a delivery whatever its body says or however long it is, so reading stops here.
    public static let answerPrefix = 64 << 10
    /// The most lines a Slack message lists; the rest are counted ("…and 12 more").
    public static let slackLines = 50

    /// Makes a notifier.
    ///
    /// - Throws: ``WebhookURLError`` for a URL that is not https (or http on loopback).
    public init(url: URL, format: Format = .slack, transport: any HTTPTransport = URLSessionTransport())
        throws(WebhookURLError)
    {
        let origin = Origin(url)
        guard ["http", "https"].contains(origin.scheme), !origin.host.isEmpty else { throw .notAURL }
        if let problem = origin.hostProblem { throw .unreachableHost(problem) }
        guard origin.isSafeForCredentials else { throw .insecure(origin: origin.description) }
        self.url = Origin.normalized(url)
        self.format = format
        self.transport = transport
    }

    /// `slack webhook at https://hooks.slack.com/…`: never the path, which may be the secret.
    public var description: String { "\(format) webhook at \(Origin(url))/…" }

    /// The format and the origin only, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["format": format, "origin": "\(Origin(url))"])
    }

    /// The body for `events`.
    ///
    /// - Throws: ``WebhookDeliveryError/notEncodable(_:)`` when the events cannot be written as JSON.
    public func body(for events: [ReleaseEvent]) throws(WebhookDeliveryError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            switch format {
            case .json:
                return try encoder.encode(events)
            case .slack:
                let shown = events.prefix(Self.slackLines).map { "• " + Self.escaped($0.sentence) }
                let more = events.count > Self.slackLines ? ["…and \(events.count - Self.slackLines) more"] : []
                let heading = "*StoreRelease*: \(events.count) \(events.count == 1 ? "change" : "changes")"
                return try encoder.encode(["text": ([heading] + shown + more).joined(separator: "\n")])
            }
        } catch {
            throw .notEncodable("\(error)")
        }
    }

    /// Slack's mrkdwn escapes: `&`, `<` and `>`, which would otherwise start an entity or a link;
    /// and a store's control characters written out (`\u{A}`, `\u{1B}`), so an event stays one
    /// line of the message: only ours break it.
    static func escaped(_ text: String) -> String {
        OutsideText.terminal(text).replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// POSTs `events` once, within ``timeout``.
    ///
    /// The status is the answer: 2xx is a delivery, whatever the body (of which at most
    /// ``answerPrefix`` bytes are read). Cancelling the task cuts the delivery short; it then
    /// throws, and the events count as not delivered.
    ///
    /// - Throws: ``WebhookDeliveryError`` when the receiver did not answer 2xx.
    public func deliver(_ events: [ReleaseEvent]) async throws(WebhookDeliveryError) {
        let origin = Origin(url).description
        let limit = Self.answerPrefix
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": "application/json; charset=utf-8"],
            body: try body(for: events), bodyPrefix: limit)
        let response: HTTPResponse
        do throws(HTTPTransportError) {
            response = try await transport.send(request, timeout: timeout, maximumBodySize: limit)
        } catch {
            var failure = ExchangeFailure(error, timeout: timeout, maximumBodySize: limit)
            if case .connection(let message) = failure {  // the system's words may quote the URL
                let secret = Redactor(secrets: [url.path, url.query ?? ""])
                failure = .connection(
                    secret(message.replacingOccurrences(of: url.absoluteString, with: origin + "/…")))
            }
            throw .transport(failure.description(api: "the webhook"), origin: origin)
        }
        switch response.status {
        case 200..<300: return
        case 300..<400: throw .redirected(origin: origin)
        default: throw .status(response.status, origin: origin)
        }
    }
}

/// Why a URL cannot be a webhook.
public enum WebhookURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not https, and not http to this machine.
    case insecure(origin: String)
    /// Not an absolute http(s) URL with a host.
    case notAURL
    /// A host no request could reach as written (`127.000.000.001`; `[::1]` on Linux).
    case unreachableHost(String)

    /// One line saying what is wrong, never the URL's path.
    public var description: String {
        switch self {
        case .insecure(let origin):
            "\(origin)/… is not https (plain http is allowed only to this machine: localhost or 127.0.0.0/8\(Origin.ipv6LoopbackNote))"
        case .notAURL: "not an absolute https URL"
        case .unreachableHost(let problem): problem
        }
    }
}

/// Why a delivery failed; the events are kept and delivered again.
public enum WebhookDeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The receiver answered a status outside 2xx.
    case status(Int, origin: String)
    /// The receiver answered a redirect, which is not followed.
    case redirected(origin: String)
    /// No answer: a timeout, a refused or dropped connection (said without the URL).
    case transport(String, origin: String)
    /// The events could not be written as JSON; nothing was sent.
    case notEncodable(String)

    /// One line naming the receiver by its origin only.
    public var description: String {
        switch self {
        case .status(let status, let origin): "\(origin)/… answered HTTP \(status)"
        case .redirected(let origin): "\(origin)/… answered a redirect, which is not followed"
        case .transport(let reason, let origin): "\(origin)/… could not be reached: \(reason)"
        case .notEncodable(let reason): "the events could not be written as JSON: \(reason)"
        }
    }
}
