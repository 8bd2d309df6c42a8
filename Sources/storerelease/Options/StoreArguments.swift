import Foundation
import StoreReleaseKit

// The library's values that flags carry, and the few of the tool's own, each read from a flag's
// text with the words its error uses.

/// Any text: a path, a bundle id.
extension String: ArgumentValue {
    init(argument: String) {
        self = argument
    }
}

/// `--installed 8.0.1`, `--version 8.0.10`: dot-separated numbers.
extension Version: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.read { () throws(VersionError) in try Version(parsing: argument) }
    }
}

/// `health --version 81`, `--baseline 8.0.9`: a version name, on Google Play a versionCode too.
extension VersionOrCode: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.read { () throws(VersionError) in try VersionOrCode(parsing: argument) }
    }
}

/// `--version-code 81`.
extension VersionCode: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.read { () throws(VersionError) in try VersionCode(parsing: argument) }
    }
}

/// `--now 2021-02-02T08:15:22Z`: an ISO 8601 time.
extension Date: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.parsed(
            argument, { try? Date($0, strategy: .iso8601) }, isNot: "an ISO 8601 time (such as 2021-02-02T08:15:22Z)")
    }
}

/// `--country cn`: one storefront.
extension StorefrontCountry: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.read { () throws(StorefrontCountryError) in try StorefrontCountry(argument) }
    }
}

/// `--countries us,cn,jp`, `all` or `sold`: the storefronts, each once in the order first given
/// (`us,us,US` is one storefront).
extension StorefrontSelection: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        switch argument {
        case "all": self = .all
        case "sold": self = .sold
        default:
            var countries: [StorefrontCountry] = []
            for code in argument.split(separator: ",", omittingEmptySubsequences: false) {
                do throws(StorefrontCountryError) {
                    countries.append(try StorefrontCountry(String(code)))
                } catch {
                    throw .detail("\(error)")
                }
            }
            self = .listed(StorefrontCountry.unique(countries))
        }
    }
}

/// `--id 414478124,1`: App Store ids, positive numbers, comma-separated.
struct AppStoreIDs: ArgumentValue {
    let ids: [Int]

    init(argument: String) throws(ArgumentProblem) {
        var ids: [Int] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let id = Int(part), id > 0
            else {
                throw .detail(
                    "\(String(part).debugDescription) is not an App Store id (a positive number such as 414478124)")
            }
            ids.append(id)
        }
        self.ids = ids
    }
}

/// `--lookup a.json,b.json`: files, comma-separated.
struct FileList: ArgumentValue {
    let paths: [String]

    init(argument: String) {
        paths = argument.split(separator: ",").map(String.init)
    }
}

/// A base URL (`--base-url http://127.0.0.1:8080`): `https`, or `http` on a loopback address.
struct BaseURL: ArgumentValue {
    let url: URL

    init(argument: String) throws(ArgumentProblem) {
        guard let url = URL(string: argument) else { throw .value("\(argument.debugDescription) is not a URL") }
        do throws(HTTPClientError) {
            try AppStoreLookupRequest.validate(baseURL: url)
        } catch {
            throw .detail("\(error)")
        }
        self.url = url
    }
}

/// `--package com.example.app`: an Android package name.
struct PackageName: ArgumentValue {
    let name: String

    init(argument: String) throws(ArgumentProblem) {
        guard PlayDeveloperAPIClient.isPackageName(argument) else {
            throw .value("\(argument.debugDescription) is not an Android package name (such as com.example.app)")
        }
        name = argument
    }
}

/// `--track 'Pre-release testing'`: any text of 1 to 100 characters.
struct TrackName: ArgumentValue {
    let name: String

    /// The track Play's tools read when none is named.
    static let production = "production"

    init(argument: String) throws(ArgumentProblem) {
        if let problem = PlayDeveloperAPIClient.problem(withTrack: argument) { throw .detail(problem) }
        name = argument
    }
}

/// `--entity macSoftware` (or `mac`, in any case).
extension AppStoreEntity: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.parsed(
            argument, AppStoreEntity.init(name:), isNot: "an entity (software, ipadSoftware, macSoftware, tvSoftware)")
    }
}

/// `--scheme semver` (in any case).
extension VersionScheme: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.parsed(
            argument, VersionScheme.init(name:), isNot: "a scheme (use appstore or semver)")
    }
}

/// `--asc-platform macos` (in any case).
extension AppStoreConnectPlatform: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.parsed(
            argument, AppStoreConnectPlatform.init(name:), isNot: "ios, macos, tvos or visionos")
    }
}

/// `--until complete` (or `phased-complete`, its old spelling).
extension ReleaseWaiter.Until: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.parsed(argument, Self.init(argument:), isNot: "live or complete")
    }
}

/// `--type-in-progress flexible` (in any case).
extension AppUpdateType: ArgumentValue {
    init(argument: String) throws(ArgumentProblem) {
        self = try ArgumentProblem.parsed(argument, AppUpdateType.init(name:), isNot: "flexible or immediate")
    }
}

/// `--install-channel testFlight`.
extension InstallChannel: ChoiceArgument {
    static func notAChoice(_ text: String) -> ArgumentProblem {
        .value("\(text.debugDescription) is not one of \(choices.map(\.name).joined(separator: ", "))")
    }
}

/// `--notify-format json`.
extension WebhookNotifier.Format: ChoiceArgument {}

/// `graph --store appStore`: whose update flow.
extension Store: ChoiceArgument {
    static var choices: [(name: String, value: Store)] {
        [Store.googlePlay, .appStore].map { (name: $0.name, value: $0) }
    }
}

/// `manifest --platform googlePlay`: which store a manifest is for.
enum ManifestPlatform: String, CaseIterable, ChoiceArgument {
    case appStore
    case googlePlay
}

/// `--install-id ID`: any text but an empty one, which would put every install in one bucket.
struct InstallID: ArgumentValue {
    let id: String

    init(argument: String) throws(ArgumentProblem) {
        guard !argument.allSatisfy(\.isWhitespace) else {
            throw .value("is empty: give the install's stable id (a UUID kept on the device)")
        }
        id = argument
    }
}

/// `watch --state FILE`: a path, not an empty one.
struct StateFilePath: ArgumentValue {
    let path: String

    init(argument: String) throws(ArgumentProblem) {
        guard !argument.isEmpty else { throw .value("is empty: name the file the snapshot is kept in") }
        path = argument
    }
}

/// `watch --history FILE`, `timeline HISTORY`: a path, not an empty one.
struct HistoryFilePath: ArgumentValue {
    let path: String

    init(argument: String) throws(ArgumentProblem) {
        guard !argument.isEmpty else { throw .value("is empty: name the file the rounds are kept in") }
        path = argument
    }
}

/// `--asc-key-id 2X9R4HXF34`.
struct ConnectKeyID: ArgumentValue {
    let id: String

    init(argument: String) throws(ArgumentProblem) {
        id = try ConnectKeyID.checked(argument, "key id")
    }

    /// `text`, which App Store Connect's key and issuer ids must be: not empty, no white space.
    static func checked(_ text: String, _ name: String) throws(ArgumentProblem) -> String {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
            throw .detail("the \(name) \(text.debugDescription) is empty or has white space")
        }
        return text
    }
}

/// `--asc-issuer-id UUID`.
struct ConnectIssuerID: ArgumentValue {
    let id: String

    init(argument: String) throws(ArgumentProblem) {
        id = try ConnectKeyID.checked(argument, "issuer id")
    }
}

/// The `--format` of a command that prints JSON or lines for people.
enum TextFormat: String, CaseIterable, ChoiceArgument {
    case json
    case text
}

/// The `--format` of a report: JSON, lines for people, or Markdown for a CI job.
enum ReportFormat: String, CaseIterable, ChoiceArgument {
    case json
    case text
    case markdown
}

/// The `--format` of events: JSON lines, or a Markdown list.
enum EventFormat: String, CaseIterable, ChoiceArgument {
    case json
    case markdown
}

/// The `--format` of a drawing of the update flow.
enum GraphFormat: String, CaseIterable, ChoiceArgument {
    case mermaid
    case dot
    case table
}

/// What `watch --halt-on` halts on: a store's health verdict turning `regressed`.
enum HaltTrigger: String, CaseIterable, ChoiceArgument {
    case regressed
}

/// The `--format` of `timeline`: the SVG, or an HTML page with the SVG and a table.
enum TimelineFormat: String, CaseIterable, ChoiceArgument {
    case svg
    case html
}
