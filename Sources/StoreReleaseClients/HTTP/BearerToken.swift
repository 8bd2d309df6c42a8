import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// An OAuth 2.0 access token or a signed API token, sent as `Authorization: Bearer …`.
///
/// The value never shows: its description, debug description and dump say `<redacted>`, and the
/// clients take it, or any piece of it of 12 characters or more, out of any message a server
/// echoes it in. Only ``authorizationHeader`` holds it.
public struct BearerToken: Sendable, Hashable {

    fileprivate let value: String

    /// Reads a token: white space and line ends around it (a file's last newline) are dropped.
    ///
    /// - Throws: ``BearerTokenError`` when nothing is left, or white space is inside.
    public init(_ text: String) throws(BearerTokenError) {
        let trimmed = text.utf8.drop { $0 <= 0x20 }.reversed().drop { $0 <= 0x20 }.reversed()
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= 16 << 10 else { throw .tooLong }
        guard trimmed.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { throw .whitespaceInside }
        value = String(decoding: trimmed, as: UTF8.self)
    }

    /// `Bearer <token>`: the only place the value is given out.
    public var authorizationHeader: String { "Bearer " + value }
}

extension BearerToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `BearerToken(<redacted>)`.
    public var description: String { "BearerToken(<redacted>)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No children, so `dump` shows only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Redactor {
    /// A redactor of these tokens: what a client that holds them puts server text through.
    init(tokens: [BearerToken]) {
        self.init(secrets: tokens.map(\.value))
    }
}

/// Why a text is not a token.
public enum BearerTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing but white space.
    case empty
    /// White space or a control character inside the token (two tokens pasted together?).
    case whitespaceInside
    /// Longer than any real token (16 KiB).
    case tooLong

    /// What is wrong, without the token.
    public var description: String {
        switch self {
        case .empty: return "the token is empty"
        case .whitespaceInside: return "the token has white space or a control character inside it"
        case .tooLong: return "the token is longer than 16 KiB; an access token is far shorter"
        }
    }
}
