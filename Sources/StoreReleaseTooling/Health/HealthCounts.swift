import StoreReleaseCore
import StoreReleaseModels

/// A health window's counts, as a history line keeps them: what a rule needs to judge it again.
///
/// `{version, versionCode, ageDays, users, crashedUsers, anrUsers}`: the version's first
/// `ageDays` days with users summed (``HealthWindow``); `crashedUsers` and `anrUsers` may be
/// fractions (Play reports rates), `anrUsers` is `null` where a day did not count them.
public struct HealthCounts: Sendable, Hashable, Codable, EveryKeyEncodable {
    /// The version.
    public var version: Version
    /// Its versionCode, when every day has the same one.
    public var versionCode: VersionCode?
    /// The window's days with users.
    public var ageDays: Int
    /// Its user-days.
    public var users: Int
    /// Its crashed users.
    public var crashedUsers: Double
    /// Its users who saw an ANR, when every day counted them.
    public var anrUsers: Double?

    /// The counts of a window.
    public init(_ window: HealthWindow) {
        self.init(
            version: window.version, versionCode: window.versionCode, ageDays: window.ageDays, users: window.users,
            crashedUsers: window.crashedUsers, anrUsers: window.anrUsers)
    }

    /// Counts as given.
    public init(
        version: Version, versionCode: VersionCode?, ageDays: Int, users: Int, crashedUsers: Double, anrUsers: Double?
    ) {
        self.version = version
        self.versionCode = versionCode
        self.ageDays = ageDays
        self.users = users
        self.crashedUsers = crashedUsers
        self.anrUsers = anrUsers
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case version, versionCode, ageDays, users, crashedUsers, anrUsers
    }

    /// Decodes counts, refusing negative ones, more crashed users than users, or too many users.
    ///
    /// Too many: more than ``HealthDay/maximumCount``, a health file's cap on a day, so sums of
    /// them cannot overflow.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Version.self, forKey: .version)
        versionCode = try c.decodeIfPresent(VersionCode.self, forKey: .versionCode)
        ageDays = try c.decode(Int.self, forKey: .ageDays)
        users = try c.decode(Int.self, forKey: .users)
        guard users <= HealthDay.maximumCount else {
            throw DecodingError.dataCorruptedError(
                forKey: .users, in: c,
                debugDescription: "\(users) is more than \(HealthDay.maximumCount), not a window's user-days")
        }
        crashedUsers = try c.decode(Double.self, forKey: .crashedUsers)
        anrUsers = try c.decodeIfPresent(Double.self, forKey: .anrUsers)
        guard ageDays >= 0, users >= 0, crashedUsers.isFinite, crashedUsers >= 0, crashedUsers <= Double(users),
            anrUsers.map({ $0.isFinite && $0 >= 0 && $0 <= Double(users) }) ?? true
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .users, in: c,
                debugDescription: "counts need 0 ≤ crashedUsers, anrUsers ≤ users and ageDays ≥ 0")
        }
    }

}
