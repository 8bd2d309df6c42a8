import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// An App Store Connect API key: its id, the issuer, and a signer holding the private key.
///
/// ``token(now:lifetime:)`` makes the ES256 JWT Apple asks for: header
/// `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`, payload
/// `{"iss":ISSUER_ID,"iat":…,"exp":…,"aud":"appstoreconnect-v1"}`, signature r‖s, base64url.
public struct AppStoreConnectKey: Sendable {
    /// The key's id (`2X9R4HXF34`, from `AuthKey_2X9R4HXF34.p8`).
    public let keyID: String
    /// The issuer id (a UUID, on the Keys page of App Store Connect).
    public let issuerID: String
    /// What signs the tokens.
    public let signer: any ES256Signer

    /// The longest lifetime Apple accepts: 20 minutes.
    public static let maximumLifetime: TimeInterval = 1200

    /// Makes a key.
    ///
    /// - Throws: ``KeyFileError`` when the key id or issuer id is empty or has white space.
    public init(keyID: String, issuerID: String, signer: any ES256Signer) throws(KeyFileError) {
        for (name, value) in [("key id", keyID), ("issuer id", issuerID)] {
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
                throw KeyFileError(message: "the \(name) \(value.debugDescription) is empty or has white space")
            }
        }
        self.keyID = keyID
        self.issuerID = issuerID
        self.signer = signer
    }

    /// A signed token, valid from a minute before `now` (against clock skew) for `lifetime`.
    ///
    /// - Parameters:
    ///   - now: The time the token is made.
    ///   - lifetime: Seconds from `now` until it expires, at most ``maximumLifetime``.
    /// - Returns: The token, ready for `Authorization: Bearer`.
    /// - Throws: ``SigningError`` when signing fails.
    public func token(now: Date = Date(), lifetime: TimeInterval = 1140) throws(SigningError) -> BearerToken {
        let issued = Int(now.timeIntervalSince1970) - 60
        let expires = Int(now.timeIntervalSince1970) + Int(min(lifetime, Self.maximumLifetime - 60))
        let header = #"{"alg":"ES256","kid":\#(Self.json(keyID)),"typ":"JWT"}"#
        let payload = #"{"iss":\#(Self.json(issuerID)),"iat":\#(issued),"exp":\#(expires),"aud":"appstoreconnect-v1"}"#
        let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        let signature = try signer.sign(Data(signingInput.utf8))
        guard signature.count == 64 else { throw SigningError("the signer returned \(signature.count) bytes, not 64") }
        do {
            return try BearerToken(signingInput + "." + Self.base64URL(signature))
        } catch {
            throw SigningError("the token is malformed: \(error)")
        }
    }

    /// Base64url without padding.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A JSON string literal.
    private static func json(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension AppStoreConnectKey: CustomStringConvertible, CustomReflectable {
    /// The key id and issuer, never the key.
    public var description: String { "AppStoreConnectKey(keyID: \(keyID), issuerID: \(issuerID))" }

    /// The key id and issuer only, so `dump` shows nothing a signer holds.
    public var customMirror: Mirror { Mirror(self, children: ["keyID": keyID, "issuerID": issuerID]) }
}
