import Foundation
import StoreReleaseClients

/// ``ES256Signer`` over the system's `openssl` (OpenSSL on Linux, LibreSSL on macOS).
///
/// It runs a process, so it lives with the release tooling (macOS and Linux), not in the app's
/// product: an app gives ``AppStoreConnectKey`` a signer over CryptoKit instead.
///
/// It runs `openssl dgst -sha256 -sign KEYFILE` with the message on standard input and turns the
/// DER signature it prints into r‖s. The key stays in its file; nothing of it is read into an
/// error or printed.
///
/// The child is found at a fixed place, never through `PATH`: the `executable` given, else the
/// first of ``knownLocations`` that exists (`/usr/bin/openssl`, then Homebrew's and MacPorts'
/// places). It runs with an empty environment, so nothing of the caller's (a Play token in
/// `STORERELEASE_PLAY_TOKEN`, any other secret) reaches it.
public struct OpenSSLSigner: ES256Signer {
    /// The `AuthKey_XXXX.p8` file.
    public let keyFile: URL
    /// The `openssl` executable: an absolute path, run as it is.
    public let executable: URL

    /// Where `openssl` is looked for when no executable is given, in this order.
    ///
    /// The system's, Homebrew's on Apple silicon and on Intel, then MacPorts'.
    public static let knownLocations = [
        "/usr/bin/openssl", "/opt/homebrew/bin/openssl", "/usr/local/bin/openssl", "/opt/local/bin/openssl",
    ]

    /// Makes a signer for a PKCS#8 P-256 key file, as App Store Connect hands it out.
    ///
    /// The file is PEM (`-----BEGIN PRIVATE KEY-----`).
    ///
    /// - Parameters:
    ///   - keyFile: The `.p8` file.
    ///   - executable: The `openssl` to run; `nil` takes the first of ``knownLocations`` that
    ///     exists (`PATH` is never searched).
    /// - Throws: ``KeyFileError`` naming the file when it cannot be read, is not PEM PKCS#8, or its
    ///   key is not on P-256.
    public init(keyFile: URL, executable: URL? = nil) throws(KeyFileError) {
        try Self.check(keyFile)
        self.keyFile = keyFile
        self.executable = executable ?? Self.located()
    }

    /// The first of ``knownLocations`` that is an executable file, else the first of them (so that
    /// signing fails naming where it looked).
    static func located() -> URL {
        let path =
            knownLocations.first { FileManager.default.isExecutableFile(atPath: $0) } ?? knownLocations[0]
        return URL(fileURLWithPath: path)
    }

    /// Signs `message` with `openssl`; see ``ES256Signer/sign(_:)``.
    public func sign(_ message: Data) throws(SigningError) -> Data {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw SigningError(
                "no openssl at \(executable.path.debugDescription) (looked at "
                    + "\(Self.knownLocations.joined(separator: ", "))); install it, or give its path "
                    + "(STORERELEASE_OPENSSL for the command-line tool)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["dgst", "-sha256", "-sign", keyFile.path]
        process.environment = [:]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw SigningError("cannot run \(executable.path): \(error.localizedDescription)")
        }
        input.fileHandleForWriting.write(message)
        try? input.fileHandleForWriting.close()
        let der = output.fileHandleForReading.readDataToEndOfFile()
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw SigningError(
                "\(executable.path) could not sign with \(keyFile.lastPathComponent) (exit \(process.terminationStatus))"
            )
        }
        guard let raw = DERSignature.rawRepresentation(der) else {
            throw SigningError("openssl's signature is not an ECDSA DER signature")
        }
        return raw
    }

    /// The object identifiers a PKCS#8 P-256 key carries: id-ecPublicKey and prime256v1.
    private static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    private static let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// Checks the file's form without using the key: PEM `PRIVATE KEY` whose DER names an EC key on P-256.
    static func check(_ file: URL) throws(KeyFileError) {
        let name = file.path.debugDescription
        guard let data = try? Data(contentsOf: file), data.count <= 16 << 10,
            let text = String(data: data, encoding: .utf8)
        else {
            throw KeyFileError(message: "\(name) cannot be read as a key file (a .p8 is a short text file)")
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(of: "-----BEGIN PRIVATE KEY-----"),
            let end = lines.firstIndex(of: "-----END PRIVATE KEY-----"), begin < end,
            let der = Data(base64Encoded: lines[(begin + 1)..<end].joined())
        else {
            throw KeyFileError(
                message: "\(name) is not a PKCS#8 private key (App Store Connect's AuthKey_XXXX.p8 starts with "
                    + "-----BEGIN PRIVATE KEY-----)")
        }
        let bytes = [UInt8](der)
        guard contains(bytes, ecPublicKey), contains(bytes, prime256v1) else {
            throw KeyFileError(message: "\(name) is a private key, but not an elliptic-curve key on P-256 (ES256)")
        }
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// Converting an ECDSA signature from DER (`SEQUENCE { INTEGER r, INTEGER s }`) to r‖s.
enum DERSignature {
    /// r‖s, each left-padded to 32 bytes, or `nil` when `der` is not such a signature.
    static func rawRepresentation(_ der: Data) -> Data? {
        var bytes = [UInt8](der)[...]
        guard bytes.popFirst() == 0x30, let length = bytes.popFirst(), Int(length) == bytes.count else { return nil }
        var raw = Data()
        for _ in 0..<2 {
            guard bytes.popFirst() == 0x02, let count = bytes.popFirst().map(Int.init), count > 0, count <= bytes.count
            else { return nil }
            var integer = bytes.prefix(count)
            bytes = bytes.dropFirst(count)
            while integer.count > 32, integer.first == 0 { integer = integer.dropFirst() }
            guard integer.count <= 32 else { return nil }
            raw.append(Data(repeating: 0, count: 32 - integer.count))
            raw.append(contentsOf: integer)
        }
        return bytes.isEmpty ? raw : nil
    }
}
