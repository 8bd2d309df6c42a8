import Foundation
import StoreReleaseKit

/// `decide`'s flags, read once: the input to decide about (a lookup, a Play record, a manifest),
/// the installed version as that input counts versions, the policy and the context.
struct DecideOptions {
    static let installed = Option<String>(
        "--installed", "V", "The installed version (Play: the installed versionCode).")
    static let lookup = Option<String>(
        "--lookup", "FILE", "An App Store lookup response, or the output of storerelease lookup.")
    static let play = Option<String>("--play", "FILE", "A Play AppUpdateInfo as JSON.")
    static let manifest = Option<String>(
        "--manifest", "FILE", "A self-hosted release manifest (latestVersion, minimumSupportedVersion, inReview, …).")
    static let policy = Option<String>("--policy", "FILE", "The policy JSON; absent keys take their defaults.")
    static let osVersion = Option<Version>(
        "--os-version", "V", "The device's OS version, checked against the release's minimumOSVersion.")
    static let skippedVersion = Option<Version>("--skipped-version", "V", "The version the user chose to skip.")
    static let lastPrompted = Option<Date>("--last-prompted", "ISO8601", "When the user last chose \"later\".")
    static let installID = Option<InstallID>(
        "--install-id", "ID", "A stable id of this install, for a manifest's staged rollout.")
    static let remindedVersion = Option<Version>(
        "--reminded-version", "V", "The version \"later\" was said to; a newer one ends the reminder.")
    static let installChannel = Option<InstallChannel>(
        "--install-channel", "Where the installed build came from (default appStore); the others never prompt.")
    static let typeInProgress = Option<AppUpdateType>(
        "--type-in-progress", "flexible|immediate", "With --play: the update flow the app started, if one is.")

    /// The flags, in the order help lists them.
    static let table = OptionTable([
        installed, lookup, play, manifest, policy, osVersion, CommonOptions.now, skippedVersion, lastPrompted,
        installID, remindedVersion, installChannel, typeInProgress,
    ])

    /// What to decide about.
    enum Input {
        /// A lookup response, or `storerelease lookup`'s output, and the installed version.
        case lookup(path: String, installed: Version)
        /// A Play record and the installed versionCode, with a manifest naming the versionCodes.
        case play(path: String, installed: VersionCode, manifest: String?)
        /// A self-hosted manifest, and the installed version.
        case manifest(path: String, installed: Version)
    }

    let input: Input
    /// The policy file `--policy` names, not read yet.
    let policyPath: String?
    let context: UpdateContext

    /// Reads the flags; no file is opened.
    ///
    /// - Throws: ``CLIError`` naming the flag that is bad, missing, or given with another it
    ///   does not go with.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        let (lookup, play, manifest) = (
            try arguments.value(Self.lookup), try arguments.value(Self.play), try arguments.value(Self.manifest)
        )
        guard
            [lookup, play, manifest].compactMap(\.self).count == 1 || (lookup == nil && play != nil && manifest != nil)
        else {
            throw .usage(
                "decide: give exactly one of \(Self.lookup), \(Self.play) or \(Self.manifest) (or \(Self.play) with "
                    + "\(Self.manifest))")
        }
        let installed = try arguments.required(Self.installed)
        policyPath = try arguments.value(Self.policy)
        if play == nil { try arguments.refuse(Self.typeInProgress, goesWith: "\(Self.play)") }
        context = UpdateContext(
            osVersion: try arguments.value(Self.osVersion), now: try arguments.value(CommonOptions.now) ?? Date(),
            skippedVersion: try arguments.value(Self.skippedVersion),
            lastPrompted: try arguments.value(Self.lastPrompted),
            typeInProgress: try arguments.value(Self.typeInProgress),
            remindedVersion: try arguments.value(Self.remindedVersion),
            installChannel: try arguments.value(Self.installChannel) ?? .appStore,
            installID: try arguments.value(Self.installID)?.id)
        if let play {
            do throws(VersionError) {
                input = .play(path: play, installed: try VersionCode(parsing: installed), manifest: manifest)
            } catch {
                throw arguments.error(
                    Self.installed, .value("(with \(Self.play), the installed versionCode): \(error)"))
            }
            return
        }
        // SemVer too (1.0.0-5.1.pre), read as a [:mav:] tag is.
        let version: Version
        do throws(VersionError) {
            version = try Version(parsingAppStoreOrSemVer: installed)
        } catch {
            throw arguments.error(Self.installed, .value("\(error)"))
        }
        input =
            lookup.map { .lookup(path: $0, installed: version) } ?? .manifest(path: manifest ?? "-", installed: version)
    }

    /// The policy `--policy` names, its file read; the defaults without it.
    func policy() throws(CLIError) -> UpdatePolicy {
        try policyPath.map { path throws(CLIError) in
            try Self.decodeFile(UpdatePolicy.self, path, flag: Self.policy.name)
        } ?? UpdatePolicy()
    }

    /// The JSON file `flag` names, decoded strictly; a failure names the flag and the file.
    static func decodeFile<T: Decodable>(_ type: T.Type, _ path: String, flag: String) throws(CLIError) -> T {
        let data = Data(try InputFile.text(path, command: "decide").utf8)
        return try JSONProblem.decoding("decide: \(flag) \(path == "-" ? "stdin" : path)", in: data) {
            try StrictJSON.decode(T.self, from: data)
        }
    }
}
