import Foundation
import StoreReleaseKit

/// Reading typed values out of flags, each error naming the flag and the value.
extension ParsedArguments {
    /// A duration in seconds (`--timeout 2.5`), positive (or zero, when `zeroAllowed`), at most a day.
    func seconds(_ flag: String, command: String, default fallback: Duration, zeroAllowed: Bool = false)
        throws(CLIError) -> Duration
    {
        guard let text = value(flag) else { return fallback }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0 || (zeroAllowed && seconds == 0),
            seconds <= 86_400
        else {
            throw .usage("\(command): \(flag) \(text.debugDescription) is not a number of seconds (such as 10 or 0.5)")
        }
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }

    /// A number of hours, zero or more (`--release-delay-hours 24`).
    func hours(_ flag: String, command: String, default fallback: Double) throws(CLIError) -> Double {
        guard let text = value(flag) else { return fallback }
        guard let hours = Double(text), hours.isFinite, hours >= 0 else {
            throw .usage("\(command): \(flag) \(text.debugDescription) is not a number of hours")
        }
        return hours
    }

    /// A whole number of at least 1 (`--rounds 3`), if given.
    func count(_ flag: String, command: String) throws(CLIError) -> Int? {
        guard let text = value(flag) else { return nil }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(text), count >= 1 else {
            throw .usage("\(command): \(flag) \(text.debugDescription) is not a whole number of at least 1")
        }
        return count
    }

    /// A version (`--installed 8.0.1`), if given.
    func version(_ flag: String, command: String) throws(CLIError) -> Version? {
        guard let text = value(flag) else { return nil }
        do throws(VersionError) {
            return try Version(parsing: text)
        } catch {
            throw .badInput("\(command): \(flag) \(error)")
        }
    }

    /// An ISO 8601 time (`--now 2021-02-02T08:15:22Z`), if given.
    func date(_ flag: String, command: String) throws(CLIError) -> Date? {
        guard let text = value(flag) else { return nil }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw .badInput(
                "\(command): \(flag) \(text.debugDescription) is not an ISO 8601 time (such as 2021-02-02T08:15:22Z)")
        }
        return date
    }

    /// A storefront country (`--country cn`), if given.
    func country(_ flag: String = "--country", command: String) throws(CLIError) -> StorefrontCountry? {
        guard let text = value(flag) else { return nil }
        do throws(StorefrontCountryError) {
            return try StorefrontCountry(text)
        } catch {
            throw .usage("\(command): \(flag) \(error)")
        }
    }

    /// A comma-separated list of storefront countries (`--countries us,cn,jp`), each once in the
    /// order first given (`us,us,US` is one storefront).
    func countries(_ flag: String = "--countries", command: String) throws(CLIError) -> [StorefrontCountry]? {
        guard let text = value(flag) else { return nil }
        var countries: [StorefrontCountry] = []
        for code in text.split(separator: ",", omittingEmptySubsequences: false) {
            do throws(StorefrontCountryError) {
                countries.append(try StorefrontCountry(String(code)))
            } catch {
                throw .usage("\(command): \(flag): \(error)")
            }
        }
        return StorefrontCountry.unique(countries)
    }

    /// A comma-separated list of App Store ids (`--id 414478124,1`).
    func appStoreIDs(_ flag: String = "--id", command: String) throws(CLIError) -> [Int]? {
        guard let text = value(flag) else { return nil }
        var ids: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let id = Int(part), id > 0
            else {
                throw .usage(
                    "\(command): \(flag): \(String(part).debugDescription) is not an App Store id (a positive number such as 414478124)"
                )
            }
            ids.append(id)
        }
        return ids
    }

    /// The base URL of the lookup API (`--base-url http://127.0.0.1:8080`).
    func baseURL(_ flag: String = "--base-url", command: String) throws(CLIError) -> URL {
        try url(flag, command: command) ?? AppStoreLookupRequest.defaultBaseURL
    }

    /// A base URL given with `flag`, if any: `https`, or `http` on a loopback address.
    func url(_ flag: String, command: String) throws(CLIError) -> URL? {
        guard let text = value(flag) else { return nil }
        guard let url = URL(string: text) else {
            throw .usage("\(command): \(flag) \(text.debugDescription) is not a URL")
        }
        do throws(AppStoreLookupError) {
            try AppStoreLookupRequest.validate(baseURL: url)
        } catch {
            throw .usage("\(command): \(flag): \(error)")
        }
        return url
    }
}
