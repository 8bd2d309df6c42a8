import StoreReleaseCore

/// A calendar day as a health source writes it, `YYYY-MM-DD`: the day its users are counted on.
///
/// Only the exact form is accepted (four-digit year, two-digit month and day, a real date of the
/// Gregorian calendar), so `2021-2-30` or `2021-02-30` is an error naming the text, never a
/// day silently moved.
public struct HealthDate: Sendable, Hashable {
    /// The year (`2021`).
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int

    /// Parses `YYYY-MM-DD`; `nil` for anything else or a day the month does not have.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `year`-`month`-`day`; `nil` for a month or a day the calendar does not have.
    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension HealthDate {
    /// The day `days` after this one (before it when negative), by the Gregorian calendar.
    public func adding(days: Int) -> HealthDate {
        HealthDate(dayNumber: dayNumber + days)
    }

    /// Days since 1970-01-01 (negative before it): Howard Hinnant's `days_from_civil`.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `dayNumber` days after 1970-01-01: `civil_from_days`.
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        (self.year, self.month, self.day) = (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension HealthDate: Comparable {
    /// Earlier days first.
    public static func < (lhs: HealthDate, rhs: HealthDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension HealthDate: CustomStringConvertible {
    /// `YYYY-MM-DD`.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

extension HealthDate: Codable {
    /// Decodes `YYYY-MM-DD`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the text when it is not a date of that form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = HealthDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(text.debugDescription) is not a date YYYY-MM-DD")
        }
        self = date
    }

    /// Encodes `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
