import StoreReleaseCore

/// One version's users on one day, as a health source counts them.
///
/// How many used it, how many of those crashed and, where the source has it, how many saw an ANR
/// ("application not responding").
public struct HealthDay: Sendable, Hashable {
    /// The largest count a day may hold.
    ///
    /// Far above any app's daily users, low enough that a window's sums cannot overflow.
    public static let maximumCount = 1_000_000_000_000

    /// The day counted.
    public let date: HealthDate
    /// The version name (`8.0.10`).
    public let version: Version
    /// Play's `versionCode`, `nil` where the store has none (the App Store) or the source did not say.
    public let versionCode: VersionCode?
    /// The users (or, for App Store Connect's reports, the sessions) of the version that day.
    public let users: Int
    /// How many of them crashed: at most ``users``.
    ///
    /// A fraction where the store reports a rate rather than a count: Google Play's is its rate ×
    /// its distinct users (2.3% of 90 users is 2.07), kept unrounded so a day's rate is the store's own.
    public let crashedUsers: Double
    /// How many saw an ANR, `nil` where the source did not count ANRs that day.
    ///
    /// At most ``users``; a fraction, as ``crashedUsers`` may be.
    public let anrUsers: Double?

    /// A day, or `nil` when its counts are impossible.
    ///
    /// Impossible: a count is negative, not finite or more than ``users``, or ``users`` is more
    /// than ``maximumCount``.
    public init?(
        date: HealthDate, version: Version, versionCode: VersionCode?, users: Int, crashedUsers: Double,
        anrUsers: Double?
    ) {
        let possible = { (count: Double) in count.isFinite && count >= 0 && count <= Double(users) }
        guard (0...Self.maximumCount).contains(users), possible(crashedUsers), anrUsers.map(possible) ?? true
        else { return nil }
        (self.date, self.version, self.versionCode) = (date, version, versionCode)
        (self.users, self.crashedUsers, self.anrUsers) = (users, crashedUsers, anrUsers)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case date, version, versionCode, users, crashedUsers, anrUsers
    }
}

extension HealthDay: Codable {
    /// Decodes a day of a health file.
    ///
    /// Every key is required (`versionCode` and `anrUsers` may be `null`), no other key is allowed.
    /// `users` is a whole number; `crashedUsers` and `anrUsers` may be fractions (a store's rate
    /// × its users, as Google Play's are).
    ///
    /// - Throws: `DecodingError` naming the key: an unknown key, a missing one, a date that is not
    ///   `YYYY-MM-DD`, a version that does not parse, a negative count, or crashed or ANR users
    ///   above `users`.
    public init(from decoder: any Decoder) throws {
        try AnyKey.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "a health day")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys, atMost limit: Int? = nil) throws -> Double? {
            guard try !container.decodeNil(forKey: key) else { return nil }
            let value = try container.decode(Double.self, forKey: key)
            let shown = Int(exactly: value).map(String.init) ?? "\(value)"
            guard value.isFinite, value >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(shown) is negative, not a count of users")
            }
            if value > Double(Self.maximumCount) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "\(shown) is more than \(Self.maximumCount), not a count of one day's users")
            }
            if let limit, value > Double(limit) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(shown) is more than the day's \(limit) users")
            }
            return value
        }
        func required(_ key: CodingKeys, atMost limit: Int? = nil) throws -> Double {
            guard let value = try count(key, atMost: limit) else {
                throw DecodingError.valueNotFound(
                    Int.self, .init(codingPath: container.codingPath + [key], debugDescription: "a count, not null"))
            }
            return value
        }
        let counted = try required(.users)
        guard let users = Int(exactly: counted) else {
            throw DecodingError.dataCorruptedError(
                forKey: .users, in: container, debugDescription: "\(counted) is not a whole number of users")
        }
        let crashed = try required(.crashedUsers, atMost: users)
        guard container.contains(.anrUsers) else {
            throw DecodingError.keyNotFound(
                CodingKeys.anrUsers,
                .init(
                    codingPath: container.codingPath, debugDescription: "anrUsers is required (null when not counted)"))
        }
        let anr = try count(.anrUsers, atMost: users)
        guard container.contains(.versionCode) else {
            throw DecodingError.keyNotFound(
                CodingKeys.versionCode,
                .init(codingPath: container.codingPath, debugDescription: "versionCode is required (null when none)"))
        }
        let code = try container.decode(VersionCode?.self, forKey: .versionCode)
        let date = try container.decode(HealthDate.self, forKey: .date)
        let version = try container.decode(Version.self, forKey: .version)
        (self.date, self.version, self.versionCode) = (date, version, code)
        (self.users, self.crashedUsers, self.anrUsers) = (users, crashed, anr)
    }

    /// Encodes every key, `null` for an absent `versionCode` or `anrUsers`.
    ///
    /// A whole count is written as an integer (`3`, not `3.0`), a fraction as it is.
    public func encode(to encoder: any Encoder) throws {
        try EveryKeyEncoding.encode(self, keys: [CodingKeys.date, .version, .versionCode, .users], to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        func encode(_ count: Double?, _ key: CodingKeys) throws {
            guard let count else { return try container.encodeNil(forKey: key) }
            if let whole = Int(exactly: count) {
                try container.encode(whole, forKey: key)
            } else {
                try container.encode(count, forKey: key)
            }
        }
        try encode(crashedUsers, .crashedUsers)
        try encode(anrUsers, .anrUsers)
    }
}
