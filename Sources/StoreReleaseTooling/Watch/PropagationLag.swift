import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// How long a version took to reach each storefront after App Store Connect approved it.
///
/// Measured from a watcher's state, from when App Store Connect first showed it ready for
/// distribution.
///
/// The times are the state's `firstSeen`: when a round first saw App Store Connect call the
/// version `READY_FOR_DISTRIBUTION` (or the older `READY_FOR_SALE`), and when a round first saw
/// each storefront serve it. The resolution is the watch's interval; start watching before the
/// version is approved, since only an approval the watch saw is measured. A storefront already
/// serving the version when App Store Connect was first seen to call it ready counts 0.
public struct PropagationLag: Sendable, Hashable, Encodable, EveryKeyEncodable {
    /// The version (`8.0.10`).
    public let version: Version
    /// When App Store Connect was first seen to show it ready (written ISO 8601).
    public let readyAt: Date
    /// Each storefront that served it, and the seconds it took.
    public let storefronts: [String: Int]
    /// The median of ``storefronts``' seconds, or `nil` when none has served it yet.
    ///
    /// The mean of the middle two for an even count.
    public let medianSeconds: Int?
    /// The longest, or `nil` when none has served it yet.
    public let worstSeconds: Int?
    /// The storefronts of the state still serving an older version (or none), by code.
    public let missing: [String]

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case version, readyAt, storefronts, medianSeconds, worstSeconds, missing
    }

    /// One entry per version the state saw App Store Connect approve, oldest version first.
    ///
    /// A version counts when App Store Connect was seen in another state (waiting for review,
    /// in review, pending release…) no later than it was seen ready. One it never showed ready,
    /// or showed ready from the first round on (approved before the watch began), has no entry:
    /// there is nothing to measure from.
    public static func report(_ state: ReleaseSnapshot) -> [PropagationLag] {
        let served = state.appStore?.storefronts ?? [:]
        var entries: [PropagationLag] = []
        for version in state.firstSeen.appStoreConnect.keys.sorted() {
            guard let ready = state.firstSeen.liveSince(version),
                state.firstSeen.sawApproval(of: version, liveSince: ready)
            else { continue }
            var seconds: [String: Int] = [:]
            for (country, seen) in state.firstSeen.appStore[version] ?? [:] {
                seconds[country.code] = max(0, Int(seen.timeIntervalSince(ready)))
            }
            let missing = served.filter { country, storefront in
                guard seconds[country.code] == nil else { return false }
                guard let current = storefront.version else { return true }
                return current < version
            }.keys.map(\.code).sorted()
            let sorted = seconds.values.sorted()
            let median: Int? =
                sorted.isEmpty
                ? nil
                : sorted.count % 2 == 1
                    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            entries.append(
                PropagationLag(
                    version: version, readyAt: ready, storefronts: seconds,
                    medianSeconds: median, worstSeconds: sorted.last, missing: missing))
        }
        return entries
    }

    /// `31h 0m`: seconds as hours and minutes, as people read a lag.
    public static func duration(_ seconds: Int) -> String { "\(seconds / 3600)h \(seconds % 3600 / 60)m" }

    /// `8.0.10: median 5h 0m, worst 31h 0m over 3 storefronts (cn 5h 0m, jp 31h 0m, us 0h 5m); missing kr`.
    public var line: String {
        let hours = Self.duration
        let each = storefronts.sorted { $0.key < $1.key }.map { "\($0.key) \(hours($0.value))" }
        var text = "\(version): ready \(ISO8601Timestamp.string(from: readyAt)); "
        if let medianSeconds, let worstSeconds {
            text +=
                "median \(hours(medianSeconds)), worst \(hours(worstSeconds)) over \(storefronts.count) "
                + "storefront\(storefronts.count == 1 ? "" : "s") (\(each.joined(separator: ", ")))"
        } else {
            text += "no storefront serves it yet"
        }
        if !missing.isEmpty { text += "; missing \(missing.joined(separator: ", "))" }
        return text
    }
}
