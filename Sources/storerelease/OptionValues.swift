import Foundation
import StoreReleaseKit

/// Reading typed values out of flags named by text, for the commands not yet reading their
/// options' types (``Option``).
extension ParsedArguments {
    private func typed<Value: ArgumentValue>(_ flag: String, as type: Value.Type) throws(CLIError) -> Value? {
        try value(Option<Value>(flag, "", ""))
    }

    /// A duration in seconds (`--timeout 2.5`), positive (or zero, when `zeroAllowed`), at most a day.
    func seconds(_ flag: String, command: String, default fallback: Duration, zeroAllowed: Bool = false)
        throws(CLIError) -> Duration
    {
        let duration =
            zeroAllowed
            ? try typed(flag, as: SecondsOrZero.self)?.duration : try typed(flag, as: Seconds.self)?.duration
        return duration ?? fallback
    }

    /// A number of hours, zero or more (`--release-delay-hours 24`).
    func hours(_ flag: String, command: String, default fallback: Double) throws(CLIError) -> Double {
        try typed(flag, as: Hours.self)?.hours ?? fallback
    }

    /// A whole number of at least 1 (`--rounds 3`), if given.
    func count(_ flag: String, command: String) throws(CLIError) -> Int? {
        try typed(flag, as: Count.self)?.count
    }

    /// A version (`--installed 8.0.1`), if given.
    func version(_ flag: String, command: String) throws(CLIError) -> Version? {
        try typed(flag, as: Version.self)
    }

    /// An ISO 8601 time (`--now 2021-02-02T08:15:22Z`), if given.
    func date(_ flag: String, command: String) throws(CLIError) -> Date? {
        try typed(flag, as: Date.self)
    }

    /// A storefront country (`--country cn`), if given.
    func country(_ flag: String = "--country", command: String) throws(CLIError) -> StorefrontCountry? {
        try typed(flag, as: StorefrontCountry.self)
    }

    /// A comma-separated list of storefront countries (`--countries us,cn,jp`).
    func countries(_ flag: String = "--countries", command: String) throws(CLIError) -> [StorefrontCountry]? {
        guard case .listed(let countries) = try typed(flag, as: StorefrontSelection.self) else { return nil }
        return countries
    }

    /// A comma-separated list of App Store ids (`--id 414478124,1`).
    func appStoreIDs(_ flag: String = "--id", command: String) throws(CLIError) -> [Int]? {
        try typed(flag, as: AppStoreIDs.self)?.ids
    }

    /// The base URL of the lookup API (`--base-url http://127.0.0.1:8080`).
    func baseURL(_ flag: String = "--base-url", command: String) throws(CLIError) -> URL {
        try url(flag, command: command) ?? AppStoreLookupRequest.defaultBaseURL
    }

    /// A base URL given with `flag`, if any: `https`, or `http` on a loopback address.
    func url(_ flag: String, command: String) throws(CLIError) -> URL? {
        try typed(flag, as: BaseURL.self)?.url
    }
}
