import StoreReleaseCore
import StoreReleaseModels

/// One version's first days with users, summed: the window a rate is read over.
///
/// Day 1 is the version's first day with users; a window of age *k* is its days 1…*k*. Days of
/// the same date (several `versionCode`s of one version) count as one day.
public struct HealthWindow: Sendable, Hashable {
    /// The version name.
    public let version: Version
    /// Its `versionCode` when every day of the window has the same one, else `nil`.
    public let versionCode: VersionCode?
    /// The window's number of days with users.
    public let ageDays: Int
    /// Σ users over the window: its user-days.
    public let users: Int
    /// Σ crashed users: a fraction where the store reports rates (``HealthDay/crashedUsers``).
    public let crashedUsers: Double
    /// The window's first day, `nil` when it has none.
    public let firstDay: HealthDate?
    /// Σ users who saw an ANR; `nil` unless every day of the window counted them.
    public let anrUsers: Double?
    /// The window's days on which no ANR was counted, oldest first.
    ///
    /// The source has no ANR rate, or none yet for those days.
    public let daysWithoutANR: [HealthDate]
    /// Σ crashed ÷ Σ users with its interval.
    public let crashRate: HealthRate
    /// Σ ANR users ÷ Σ users with its interval; `nil` when ``anrUsers`` is.
    public let anrRate: HealthRate?

    /// The window over the first `age` days with users of `version` among `days`.
    ///
    /// When the version has fewer days with users, the window holds all of them.
    public init(version: Version, days: [HealthDay], age: Int) {
        let mine = days.filter { $0.version == version && $0.users > 0 }
        let dates = Set(mine.map(\.date)).sorted().prefix(max(0, age))
        let window = mine.filter { dates.contains($0.date) }
        let codes = Set(window.map(\.versionCode))
        let withoutANR = Set(window.filter { $0.anrUsers == nil }.map(\.date)).sorted()
        let anr: Double? = withoutANR.isEmpty ? window.reduce(0) { $0 + ($1.anrUsers ?? 0) } : nil
        // Each day holds at most HealthDay.maximumCount users: only billions of days could pass
        // Int.max, and then the sum stays at it rather than trap.
        let users = window.reduce(0) { sum, day in
            let (total, overflow) = sum.addingReportingOverflow(day.users)
            return overflow ? Int.max : total
        }
        let crashed = min(Double(users), window.reduce(0) { $0 + $1.crashedUsers })
        self.version = version
        self.versionCode = codes.count == 1 ? codes.first ?? nil : nil
        self.ageDays = dates.count
        self.firstDay = dates.first
        let anrUsers = window.isEmpty ? nil : anr.map { min(Double(users), $0) }
        (self.users, self.crashedUsers, self.anrUsers) = (users, crashed, anrUsers)
        self.daysWithoutANR = withoutANR
        self.crashRate = HealthRate(events: crashed, of: users)
        self.anrRate = anrUsers.map { HealthRate(events: $0, of: users) }
    }

    /// The window a history line's counts describe (``HealthCounts``), to judge it again.
    ///
    /// Its days are not known: ``firstDay`` is `nil`, and a missing ANR count is missing on every day.
    public init(_ counts: HealthCounts) {
        version = counts.version
        versionCode = counts.versionCode
        ageDays = max(counts.ageDays, 0)
        users = max(counts.users, 0)
        firstDay = nil
        crashedUsers = min(Double(users), max(counts.crashedUsers, 0))
        anrUsers = counts.anrUsers.map { min(Double(max(counts.users, 0)), max($0, 0)) }
        daysWithoutANR = []
        crashRate = HealthRate(events: crashedUsers, of: users)
        anrRate = anrUsers.map { HealthRate(events: $0, of: max(counts.users, 0)) }
    }

    /// The number of days with users `version` has among `days`.
    static func age(of version: Version, in days: [HealthDay]) -> Int {
        Set(days.filter { $0.version == version && $0.users > 0 }.map(\.date)).count
    }

    /// The rate of `metric`, if counted.
    public func rate(_ metric: HealthMetric) -> HealthRate? {
        switch metric {
        case .crash: crashRate
        case .anr: anrRate
        }
    }

    /// The users counted for `metric` (crashed, or who saw an ANR), if counted.
    func events(_ metric: HealthMetric) -> Double? {
        switch metric {
        case .crash: crashedUsers
        case .anr: anrUsers
        }
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case version, versionCode, ageDays, users, crashRate, anrRate
    }
}

extension HealthWindow: EveryKeyEncodable {}
