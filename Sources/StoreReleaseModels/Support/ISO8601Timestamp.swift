import Foundation
import StoreReleaseCore

/// ISO 8601 timestamps as the stores and the command line write them: `2021-02-02T08:15:22Z`,
/// with or without fractional seconds, with `Z` or an offset.
package enum ISO8601Timestamp {
    /// Parses a timestamp; `nil` when the text is not one.
    package static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }

    /// Formats a date as `2021-02-02T08:15:22Z` (UTC, whole seconds).
    package static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }
}
