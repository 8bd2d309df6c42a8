import Foundation
import StoreReleaseKit

/// The App Store Connect flags that `status`, `parity`, `wait`, `manifest` and the sources of
/// `snapshot` and `watch` share, read once: the credentials, the base URL and the platform.
struct AppStoreConnectOptions {
    /// The environment variable a ready token may come from.
    static let tokenVariable = "STORERELEASE_ASC_TOKEN"

    /// The environment variable that names the `openssl` to sign with (an absolute path), else
    /// the first of `OpenSSLSigner.knownLocations` that exists; `PATH` is never searched.
    static let opensslVariable = "STORERELEASE_OPENSSL"

    static let keyFile = Option<String>(
        "--asc-key-file", "FILE",
        "An App Store Connect API key (AuthKey_XXXX.p8), with --asc-key-id and --asc-issuer-id.")
    static let keyID = Option<ConnectKeyID>("--asc-key-id", "KID", "The key's id.")
    static let issuerID = Option<ConnectIssuerID>("--asc-issuer-id", "ISSUER", "The key's issuer id.")
    static let tokenFile = Option<String>(
        "--asc-token-file", "FILE", "A ready App Store Connect token instead (else $\(tokenVariable)).")
    static let baseURL = Option<BaseURL>(
        "--asc-base-url", "URL", "The API's base URL instead of https://api.appstoreconnect.apple.com.")
    static let platform = Option<AppStoreConnectPlatform>(
        "--asc-platform", "ios|macos|tvos|visionos", "The App Store Connect platform (default ios).")

    /// `--platform`, the older name of `--asc-platform`, on the commands whose `--platform` is free
    /// for it (`status`, `parity`, `wait`; `manifest`'s `--platform` names the store).
    static let platformAlias = platform.renamed("--platform", help: "The same as --asc-platform.")

    /// Which platform flags a command takes beside the credentials and the base URL.
    enum PlatformFlags: Sendable {
        /// None (`health`: the Analytics Reports are the app's, whatever its platform).
        case none
        /// `--asc-platform` (`manifest`, whose `--platform` names the store).
        case own
        /// `--asc-platform` and its older name `--platform` (`status`, `parity`, `wait`).
        case ownAndAlias
    }

    /// The flags, in the order help lists them: the credentials, the base URL, then `platform`'s.
    static func table(_ platform: PlatformFlags = .own) -> OptionTable {
        let platforms: [any OptionDeclarations] =
            switch platform {
            case .none: []
            case .own: [Self.platform]
            case .ownAndAlias: [Self.platform, platformAlias]
            }
        return OptionTable([keyFile, keyID, issuerID, tokenFile, baseURL] + platforms)
    }

    /// How to give credentials, for help texts.
    static let help = """
        App Store Connect: \(keyFile) AuthKey_XXXX.p8 \(keyID.usage) \(issuerID.usage) (an \
        ES256 token is made with openssl: $\(opensslVariable), else /usr/bin/openssl or Homebrew's; \
        never found through PATH), or a ready token from \(tokenFile.usage) or $\(tokenVariable). \
        Keys and tokens are never printed.
        """

    private let arguments: ParsedArguments
    private let keyFile: String?
    private let keyID: String?
    private let issuerID: String?
    private let tokenFile: String?
    private let baseURL: URL?
    /// The platform `--asc-platform` (or `--platform`) names, iOS by default.
    let platform: AppStoreConnectPlatform

    /// Reads the flags of ``table(_:)`` with `platform`'s (not `--platform` in `manifest`, whose
    /// `--platform` names the store); nothing is opened.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming a flag whose value is bad, or `--asc-platform` and
    ///   `--platform` naming two platforms.
    init(_ arguments: ParsedArguments, platform flags: PlatformFlags = .own) throws(CLIError) {
        let aliased = flags == .ownAndAlias
        self.arguments = arguments
        keyFile = try arguments.value(Self.keyFile)
        keyID = try arguments.value(Self.keyID)?.id
        issuerID = try arguments.value(Self.issuerID)?.id
        tokenFile = try arguments.value(Self.tokenFile)
        baseURL = try arguments.value(Self.baseURL)?.url
        let platform = try arguments.value(Self.platform)
        let alias = aliased ? try arguments.value(Self.platformAlias) : nil
        if let platform, let alias, platform != alias {
            throw .usage(
                "\(arguments.command): \(Self.platform) \(arguments.text(of: Self.platform) ?? "") and "
                    + "\(Self.platformAlias) \(arguments.text(of: Self.platformAlias) ?? "") disagree; give one")
        }
        self.platform = platform ?? alias ?? .iOS
    }

    /// Whether any credential flag (or the token variable) was given.
    var isRequested: Bool {
        keyFile != nil || keyID != nil || issuerID != nil || tokenFile != nil
            || !(ProcessInfo.processInfo.environment[Self.tokenVariable] ?? "").isEmpty
    }

    /// App Store Connect as the flags describe it (client and platform), or `nil` when no
    /// credential was given.
    func source() throws(CLIError) -> AppStoreConnectSource? {
        try client().map { AppStoreConnectSource(client: $0, platform: platform) }
    }

    /// App Store Connect, which the command cannot do without.
    ///
    /// - Throws: ``CLIError/usage(_:)`` saying how to give credentials when none was given.
    func requiredSource() throws(CLIError) -> AppStoreConnectSource {
        guard let source = try source() else {
            throw .usage("\(arguments.command): no App Store Connect credentials: \(Self.help)")
        }
        return source
    }

    /// The client the flags describe, or `nil` when no credential was given.
    func client() throws(CLIError) -> AppStoreConnectClient? {
        var configuration = HTTPClientConfiguration.appStoreConnect
        if let baseURL { configuration.baseURL = baseURL }
        guard let credentials = try credentials() else {
            if baseURL != nil {
                throw .usage("\(arguments.command): \(Self.baseURL) needs App Store Connect credentials (\(Self.help))")
            }
            return nil
        }
        do throws(HTTPClientError) {
            return try AppStoreConnectClient(credentials: credentials, configuration: configuration)
        } catch {
            throw arguments.error(Self.baseURL, .detail("\(error)"))
        }
    }

    private func credentials() throws(CLIError) -> AppStoreConnectClient.Credentials? {
        let key = [
            (Self.keyFile.name, keyFile != nil), (Self.keyID.name, keyID != nil), (Self.issuerID.name, issuerID != nil),
        ]
        let given = key.filter(\.1).map(\.0)
        guard !given.isEmpty else {
            return try TokenInput.read(
                tokenFile, flag: Self.tokenFile.name, variable: Self.tokenVariable, command: arguments.command
            )
            .map { .token($0) }
        }
        let command = arguments.command
        guard tokenFile == nil else {
            throw .usage("\(command): give an API key (\(Self.keyFile) …) or \(Self.tokenFile), not both")
        }
        guard let path = keyFile, let keyID, let issuerID else {
            let missing = key.filter { !$0.1 }.map(\.0)
            throw .usage("\(command): \(given.joined(separator: ", ")) needs \(missing.joined(separator: " and ")) too")
        }
        let openssl = ProcessInfo.processInfo.environment[Self.opensslVariable] ?? ""
        guard openssl.isEmpty || openssl.hasPrefix("/") else {
            throw .usage("\(command): \(Self.opensslVariable) \(openssl.debugDescription) is not an absolute path")
        }
        // A regular file, checked before openssl reads it: a FIFO is refused, not waited on.
        if path != "-" { _ = try InputFile.text(path, command: command, maximumSize: 16 << 10) }
        let signer: OpenSSLSigner
        do throws(KeyFileError) {
            signer = try OpenSSLSigner(
                keyFile: URL(fileURLWithPath: path), executable: openssl.isEmpty ? nil : URL(fileURLWithPath: openssl))
        } catch {
            throw arguments.error(Self.keyFile, .detail("\(error)"))
        }
        do throws(KeyFileError) {
            // The ids were checked as the flags were read (ConnectKeyID); the key checks them again.
            return .key(try AppStoreConnectKey(keyID: keyID, issuerID: issuerID, signer: signer))
        } catch {
            throw .badInput("\(command): \(error)")
        }
    }

    /// A warning on stderr when less than a tenth of the key's hourly budget is left.
    static func warnIfLow(_ client: AppStoreConnectClient, command: String) {
        if let budget = client.rateLimit, budget.isLow {
            StandardStreams.printError("\(command): warning: \(budget)\n")
        }
    }
}
