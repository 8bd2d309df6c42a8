import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// One row a day per version and store: what a source's repeated rows come to.
///
/// A day is its date, version and `versionCode`. A row repeated exactly is counted once; two rows
/// of one day whose counts differ are a conflict, and which one is right is not known.
enum HealthDuplicates {
    /// Two rows of one day that disagree.
    struct Conflict: Sendable, Hashable {
        let first: HealthDay
        let second: HealthDay
    }

    /// `days` with every exact repeat left out (the first kept, in order), and the conflicts.
    static func fold(_ days: [HealthDay]) -> (days: [HealthDay], conflicts: [Conflict]) {
        struct Key: Hashable {
            let date: HealthDate
            let version: Version
            let code: VersionCode?
        }
        var kept: [Key: HealthDay] = [:]
        var unique: [HealthDay] = []
        var conflicts: [Conflict] = []
        for day in days {
            let key = Key(date: day.date, version: day.version, code: day.versionCode)
            guard let earlier = kept[key] else {
                kept[key] = day
                unique.append(day)
                continue
            }
            if earlier != day { conflicts.append(Conflict(first: earlier, second: day)) }
        }
        return (unique, conflicts)
    }

    /// The sentence for `conflicts` in `source`: the first named with both rows' counts.
    static func reason(_ conflicts: [Conflict], in source: HealthSource) -> String? {
        guard let conflict = conflicts.first else { return nil }
        let day = conflict.first
        let name = day.versionCode.map { "\($0) (\(day.version))" } ?? day.version.description
        let more =
            conflicts.count > 1 ? ", and \(conflicts.count - 1) more day\(conflicts.count == 2 ? "" : "s") alike" : ""
        return "the \(source.noun) has two different rows for \(name) on \(day.date) (\(counts(conflict.first)) vs "
            + "\(counts(conflict.second))\(more)): one row a day per version is counted, and which is right is unknown"
    }

    /// `130 users, 2.07 crashed, 0 ANR` (`ANR not counted` without one).
    private static func counts(_ day: HealthDay) -> String {
        "\(StoreHealth.grouped(day.users)) users, \(number(day.crashedUsers)) crashed, "
            + (day.anrUsers.map { "\(number($0)) ANR" } ?? "ANR not counted")
    }

    /// A count as written: whole (`3`) or to two decimals (`2.07`).
    private static func number(_ value: Double) -> String {
        if let whole = Int(exactly: value) { return String(whole) }
        return String(format: "%.2f", value)
    }
}
