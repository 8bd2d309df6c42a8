import Testing

@testable import StoreReleaseCore

/// Two versions and the order between them.
struct OrderCase: Sendable, CustomTestStringConvertible {
    let lhs: String
    let rhs: String
    let expected: String  // "<", "=" or ">"
    let scheme: VersionScheme
    var testDescription: String { "\(lhs) \(expected) \(rhs) (\(scheme))" }

    init(_ lhs: String, _ expected: String, _ rhs: String, _ scheme: VersionScheme = .appStore) {
        self.lhs = lhs
        self.expected = expected
        self.rhs = rhs
        self.scheme = scheme
    }
}

@Suite struct VersionOrderingTests {
    static let cases: [OrderCase] = [
        OrderCase("8.0.2", "<", "8.0.10"), OrderCase("1.2", "=", "1.2.0"), OrderCase("1.2", "=", "1.2.0.0.0.0"),
        OrderCase("01.2", "=", "1.2"), OrderCase("2.0", ">", "1.9.9"), OrderCase("1.10.0", ">", "1.9"),
        OrderCase("1.2.3.4", "<", "1.2.3.5"), OrderCase("1.2.3.4.5", ">", "1.2.3.4"),
        OrderCase("1.2.3.4.0.1", ">", "1.2.3.4"), OrderCase("0", "=", "0.0"), OrderCase("0.0.1", ">", "0"),
        OrderCase("4294967296", ">", "4294967295.9"), OrderCase("1.4294967296", ">", "1.4294967295"),
        OrderCase("10.11.0", ">", "10.9.5"), OrderCase("11.0", "<", "11.0.1"),
        // SemVer 2.0.0 §11's own example chain, and build metadata.
        OrderCase("1.0.0-alpha", "<", "1.0.0-alpha.1", .semver),
        OrderCase("1.0.0-alpha.1", "<", "1.0.0-alpha.beta", .semver),
        OrderCase("1.0.0-alpha.beta", "<", "1.0.0-beta", .semver),
        OrderCase("1.0.0-beta", "<", "1.0.0-beta.2", .semver),
        OrderCase("1.0.0-beta.2", "<", "1.0.0-beta.11", .semver),
        OrderCase("1.0.0-beta.11", "<", "1.0.0-rc.1", .semver),
        OrderCase("1.0.0-rc.1", "<", "1.0.0", .semver),
        OrderCase("1.0.0", "<", "2.0.0", .semver), OrderCase("2.0.0", "<", "2.1.0", .semver),
        OrderCase("2.1.0", "<", "2.1.1", .semver), OrderCase("1.0.0+a", "=", "1.0.0+b", .semver),
        OrderCase("1.0.0-rc.1+a", "=", "1.0.0-rc.1+b", .semver), OrderCase("1.0.0-A", "<", "1.0.0-a", .semver),
        OrderCase("1.0.0-1", "<", "1.0.0-A", .semver),
        OrderCase("1.0.0-99999999999999999999999", ">", "1.0.0-2", .semver),
        OrderCase("99999999999999999999.0.0", ">", "9999999999999999999.0.0", .semver),
    ]

    @Test(arguments: cases)
    func ordersAsReleasesDo(_ example: OrderCase) throws {
        let a = try Version(parsing: example.lhs, scheme: example.scheme)
        let b = try Version(parsing: example.rhs, scheme: example.scheme)
        switch example.expected {
        case "<": #expect(a < b && b > a && a != b)
        case ">": #expect(a > b && b < a && a != b)
        default: #expect(a == b && !(a < b) && !(b < a) && a.hashValue == b.hashValue)
        }
    }

    @Test func schemesShareOneOrder() throws {
        #expect(try Version(parsing: "1.2.3") == Version(parsing: "1.2.3", scheme: .semver))
        #expect(try Version(parsing: "1.2.3") > Version(parsing: "1.2.3-rc.1", scheme: .semver))
        #expect(try Version(parsing: "1.2.2.9") < Version(parsing: "1.2.3-rc.1", scheme: .semver))
    }

    static let changes: [(String, String, VersionChange?)] = [
        ("1.2.3", "2.0", .major), ("1.9.9", "2.0", .major), ("1.2.3", "1.3", .minor),
        ("1.1.0", "1.10.0", .minor), ("1.2.3", "1.2.4", .patch), ("1.2", "1.2.1", .patch),
        ("7.13.88.4021", "7.13.88.4022", .beyondPatch), ("1.2", "1.2.0", nil), ("2.0", "1.0", .major),
    ]

    @Test(arguments: changes)
    func reportsTheFirstChangedComponent(_ from: String, _ to: String, _ expected: VersionChange?) throws {
        #expect(try Version(parsing: to).change(from: Version(parsing: from)) == expected)
    }

    @Test func reportsAPreReleaseOnlyChange() throws {
        let beta = try Version(parsing: "1.0.0-beta", scheme: .semver)
        let release = try Version(parsing: "1.0.0", scheme: .semver)
        #expect(release.change(from: beta) == .preRelease)
        #expect(try Version(parsing: "1.0.0+b", scheme: .semver).change(from: release) == nil)
    }

    @Test func changeLevelsAreOrderedBySignificance() {
        #expect(VersionChange.allCases.sorted() == [.preRelease, .beyondPatch, .patch, .minor, .major])
        #expect(VersionChange.major >= .minor)
        #expect(!(VersionChange.patch >= .minor))
    }
}
