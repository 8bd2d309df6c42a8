import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Signs with ECDSA on P-256 and SHA-256 (ES256), as App Store Connect's tokens need.
///
/// StoreReleaseKit has no cryptography of its own: ``OpenSSLSigner``, in the release tooling,
/// runs the system's `openssl`. On Apple platforms, and in an app (`StoreReleaseApp`), a
/// conformance over CryptoKit is a few lines: keep a `P256.Signing.PrivateKey` made from the
/// `.p8` file's PEM (`init(pemRepresentation:)`), and return
/// `try key.signature(for: message).rawRepresentation`, which is already r‖s.
public protocol ES256Signer: Sendable {
    /// Signs `message`.
    ///
    /// - Returns: The raw signature: r and s, 32 bytes each, big-endian (64 bytes).
    /// - Throws: ``SigningError`` when signing fails.
    func sign(_ message: Data) throws(SigningError) -> Data
}

/// Why a message could not be signed; never holds key material.
public struct SigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// Makes an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Why a key file is not an App Store Connect key; never holds key material.
public struct KeyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public let message: String

    /// Makes an error; the signers that read a key file (``OpenSSLSigner``) throw it too.
    package init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
