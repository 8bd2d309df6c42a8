import Foundation
import StoreReleaseKit

/// The App Store Connect flags that `status`, `parity`, `wait` and `manifest` share.
enum AppStoreConnectOptions {
    /// The environment variable a ready token may come from.
    static let tokenVariable = "STORERELEASE_ASC_TOKEN"

    /// The environment variable that names the `openssl` to sign with (an absolute path), else
    /// the first of `OpenSSLSigner.knownLocations` that exists; `PATH` is never searched.
    static let opensslVariable = "STORERELEASE_OPENSSL"

    static let specs: [OptionSpec] = [
        .value(
            "--asc-key-file", "FILE",
            "An App Store Connect API key (AuthKey_XXXX.p8), with --asc-key-id and --asc-issuer-id."),
        .value("--asc-key-id", "KID", "The key's id."),
        .value("--asc-issuer-id", "ISSUER", "The key's issuer id."),
        .value("--asc-token-file", "FILE", "A ready App Store Connect token instead (else $\(tokenVariable))."),
        .value("--asc-base-url", "URL", "The API's base URL instead of https://api.appstoreconnect.apple.com."),
        .value("--asc-platform", "ios|macos|tvos|visionos", "The App Store Connect platform (default ios)."),
    ]

    /// `--platform`, the older name of `--asc-platform`, on the commands whose `--platform` is free
    /// for it (`status`, `parity`, `wait`; `manifest`'s `--platform` names the store).
    static let platformAlias = OptionSpec.value("--platform", "ios|macos|tvos|visionos", "The same as --asc-platform.")

    /// How to give credentials, for help texts.
    static let help = """
        App Store Connect: --asc-key-file AuthKey_XXXX.p8 --asc-key-id KID --asc-issuer-id ISSUER (an \
        ES256 token is made with openssl: $\(opensslVariable), else /usr/bin/openssl or Homebrew's; \
        never found through PATH), or a ready token from --asc-token-file FILE or $\(tokenVariable). \
        Keys and tokens are never printed.
        """

    /// Whether any App Store Connect credential flag (or the token variable) was given.
    static func isRequested(_ arguments: ParsedArguments) -> Bool {
        ["--asc-key-file", "--asc-key-id", "--asc-issuer-id", "--asc-token-file"].contains {
            arguments.value($0) != nil
        }
            || !(ProcessInfo.processInfo.environment[tokenVariable] ?? "").isEmpty
    }

    /// The platform given with `--asc-platform` (or its alias `--platform`, where `aliased`),
    /// iOS by default.
    static func platform(_ arguments: ParsedArguments, command: String, aliased: Bool = true) throws(CLIError)
        -> AppStoreConnectPlatform
    {
        let flags = aliased ? ["--asc-platform", platformAlias.name] : ["--asc-platform"]
        let given = flags.compactMap { flag in arguments.value(flag).map { (flag, $0) } }
        guard let (flag, name) = given.first else { return .iOS }
        if given.count > 1, given[1].1 != name {
            throw .usage("\(command): --asc-platform \(name) and --platform \(given[1].1) disagree; give one")
        }
        guard let platform = AppStoreConnectPlatform(name: name) else {
            throw .usage("\(command): \(flag) \(name.debugDescription) is not ios, macos, tvos or visionos")
        }
        return platform
    }

    /// App Store Connect as the flags describe it (client and platform), or `nil` when no
    /// credential was given.
    static func source(_ arguments: ParsedArguments, command: String, aliased: Bool = true) throws(CLIError)
        -> AppStoreConnectSource?
    {
        let platform = try platform(arguments, command: command, aliased: aliased)
        return try client(arguments, command: command).map { AppStoreConnectSource(client: $0, platform: platform) }
    }

    /// The client the flags describe, or `nil` when no credential was given.
    static func client(_ arguments: ParsedArguments, command: String) throws(CLIError) -> AppStoreConnectClient? {
        var configuration = HTTPClientConfiguration.appStoreConnect
        if let url = try arguments.url("--asc-base-url", command: command) { configuration.baseURL = url }
        guard let credentials = try credentials(arguments, command: command) else {
            for flag in ["--asc-base-url"] where arguments.value(flag) != nil {
                throw .usage("\(command): \(flag) needs App Store Connect credentials (\(help))")
            }
            return nil
        }
        do throws(AppStoreConnectError) {
            return try AppStoreConnectClient(credentials: credentials, configuration: configuration)
        } catch {
            throw .usage("\(command): --asc-base-url: \(error)")
        }
    }

    private static func credentials(_ arguments: ParsedArguments, command: String) throws(CLIError)
        -> AppStoreConnectClient.Credentials?
    {
        let keyFlags = ["--asc-key-file", "--asc-key-id", "--asc-issuer-id"]
        let given = keyFlags.filter { arguments.value($0) != nil }
        if !given.isEmpty {
            guard arguments.value("--asc-token-file") == nil else {
                throw .usage("\(command): give an API key (--asc-key-file …) or --asc-token-file, not both")
            }
            let missing = keyFlags.filter { arguments.value($0) == nil }
            guard missing.isEmpty else {
                throw .usage(
                    "\(command): \(given.joined(separator: ", ")) needs \(missing.joined(separator: " and ")) too")
            }
            let path = arguments.value("--asc-key-file") ?? ""
            let openssl = ProcessInfo.processInfo.environment[opensslVariable] ?? ""
            guard openssl.isEmpty || openssl.hasPrefix("/") else {
                throw .usage("\(command): \(opensslVariable) \(openssl.debugDescription) is not an absolute path")
            }
            // A regular file, checked before openssl reads it: a FIFO is refused, not waited on.
            if path != "-" { _ = try InputFile.text(path, command: command, maximumSize: 16 << 10) }
            do throws(KeyFileError) {
                let signer = try OpenSSLSigner(
                    keyFile: URL(fileURLWithPath: path),
                    executable: openssl.isEmpty ? nil : URL(fileURLWithPath: openssl))
                let key = try AppStoreConnectKey(
                    keyID: arguments.value("--asc-key-id") ?? "", issuerID: arguments.value("--asc-issuer-id") ?? "",
                    signer: signer)
                return .key(key)
            } catch {
                let flag =
                    error.message.hasPrefix("the key id")
                    ? "--asc-key-id" : error.message.hasPrefix("the issuer") ? "--asc-issuer-id" : "--asc-key-file"
                throw .badInput("\(command): \(flag): \(error)")
            }
        }
        let token = try TokenInput.read(
            arguments, flag: "--asc-token-file", variable: tokenVariable, command: command)
        return token.map { .token($0) }
    }

    /// The CLI error for a failed call: bad requests exit 2, everything else 1.
    static func failure(_ error: AppStoreConnectError, command: String) -> CLIError {
        if case .invalidRequest(let message) = error { return .usage("\(command): \(message)") }
        return .failure("\(command): \(error)")
    }

    /// A warning on stderr when less than a tenth of the key's hourly budget is left.
    static func warnIfLow(_ client: AppStoreConnectClient, command: String) {
        if let budget = client.rateLimit, budget.isLow {
            StandardStreams.printError("\(command): warning: \(budget)\n")
        }
    }
}
