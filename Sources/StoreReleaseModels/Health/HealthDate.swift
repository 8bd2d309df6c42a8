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
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year)
        else { return nil }
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
