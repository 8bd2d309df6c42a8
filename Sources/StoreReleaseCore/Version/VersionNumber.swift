/// One numeric part of a version: a core component or a numeric SemVer pre-release identifier.
///
/// Numbers that fit in 64 bits are stored as integers; larger ones keep their decimal digits
/// (without leading zeros), so `99999999999999999999999.1` parses and compares correctly instead
/// of overflowing.
enum VersionNumber: Sendable, Hashable {
    /// A value that fits in `UInt64`.
    case small(UInt64)
    /// A value above `UInt64.max`, as decimal digits without leading zeros.
    case big(String)

    static let zero = VersionNumber.small(0)

    /// Reads decimal digits (at least one, only `0`–`9`) into a number.
    init(digits: UnsafeBufferPointer<UInt8>) {
        var value: UInt64 = 0
        for byte in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 {
                let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
                self = .big(String(decoding: significant, as: UTF8.self))
                return
            }
            value = sum
        }
        self = .small(value)
    }

    var isZero: Bool { self == .zero }
}

extension VersionNumber: Comparable {
    static func < (lhs: VersionNumber, rhs: VersionNumber) -> Bool {
        switch (lhs, rhs) {
        case (.small(let a), .small(let b)):
            return a < b
        case (.small, .big):
            return true
        case (.big, .small):
            return false
        case (.big(let a), .big(let b)):
            // Same normalisation (no leading zeros): more digits is larger, else digit by digit.
            if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count }
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}

extension VersionNumber: CustomStringConvertible {
    var description: String {
        switch self {
        case .small(let value): String(value)
        case .big(let digits): digits
        }
    }
}

/// One dot-separated SemVer pre-release identifier (`alpha`, `1`, `x-7`).
///
/// Precedence follows SemVer 2.0.0 §11: numeric identifiers compare numerically and sort below
/// alphanumeric ones, which compare in ASCII order.
enum PreReleaseIdentifier: Sendable, Hashable {
    case numeric(VersionNumber)
    case alphanumeric(String)
}

extension PreReleaseIdentifier: Comparable {
    static func < (lhs: PreReleaseIdentifier, rhs: PreReleaseIdentifier) -> Bool {
        switch (lhs, rhs) {
        case (.numeric(let a), .numeric(let b)): a < b
        case (.numeric, .alphanumeric): true
        case (.alphanumeric, .numeric): false
        case (.alphanumeric(let a), .alphanumeric(let b)): a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}
