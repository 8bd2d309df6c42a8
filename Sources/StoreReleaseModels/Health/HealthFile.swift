import StoreReleaseCore

/// A health file: one store's users, crashes and ANRs per version per day.
///
/// For teams whose numbers come from Crashlytics, Sentry or their own pipeline:
///
/// ```json
/// {"store": "googlePlay", "app": "com.tencent.mm",
///  "days": [{"date": "2021-02-02", "version": "8.0.10", "versionCode": 81,
///            "users": 7000, "crashedUsers": 147, "anrUsers": 21}]}
/// ```
public struct HealthFile: Sendable, Hashable {
    /// `appStore` or `googlePlay`.
    public let store: Store
    /// The App Store id (`414478124`) or the Play package name (`com.tencent.mm`).
    public let app: String
    /// The days, in the file's order; no two for the same date, version and `versionCode`.
    public let days: [HealthDay]

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case store, app, days
    }
}

extension HealthFile: Codable, EveryKeyEncodable {
    /// Decodes the documented schema and nothing else.
    ///
    /// - Throws: `DecodingError` naming the key: an unknown or missing key, a store other than
    ///   `appStore` or `googlePlay`, an empty `app`, a bad day (see ``HealthDay``), or a date,
    ///   version and `versionCode` counted twice.
    public init(from decoder: any Decoder) throws {
        try AnyKey.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "a health file")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let store = try container.decode(Store.self, forKey: .store)
        guard store == .appStore || store == .googlePlay else {
            throw DecodingError.dataCorruptedError(
                forKey: .store, in: container, debugDescription: "\(store) is not appStore or googlePlay")
        }
        let app = try container.decode(String.self, forKey: .app)
        guard !app.isEmpty, app.count <= 256, !app.contains(where: \.isWhitespace) else {
            throw DecodingError.dataCorruptedError(
                forKey: .app, in: container,
                debugDescription: "\(app.debugDescription) is not an App Store id or a package name")
        }
        var list = try container.nestedUnkeyedContainer(forKey: .days)
        var days: [HealthDay] = []
        var seen: Set<String> = []
        while !list.isAtEnd {
            let day = try list.decode(HealthDay.self)
            let key = "\(day.date) \(day.version) \(day.versionCode.map(String.init(describing:)) ?? "-")"
            guard seen.insert(key).inserted else {
                throw DecodingError.dataCorruptedError(
                    in: list,
                    debugDescription: "\(day.date) is counted twice for \(day.version)"
                        + (day.versionCode.map { " (\($0))" } ?? ""))
            }
            days.append(day)
        }
        (self.store, self.app, self.days) = (store, app, days)
    }

}
