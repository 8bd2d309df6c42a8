import Testing

@testable import StoreReleaseCore

/// A string that must parse, and what it must equal.
struct ValidCase: Sendable, CustomTestStringConvertible {
    let text: String
    let scheme: VersionScheme
    let equals: String
    var testDescription: String { "\(text.debugDescription) (\(scheme)) == \(equals)" }

    init(_ text: String, _ scheme: VersionScheme = .appStore, equals: String? = nil) {
        self.text = text
        self.scheme = scheme
        self.equals = equals ?? text
    }
}

/// A string that must not parse, and the exact message it must give.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let scheme: VersionScheme
    let message: String
    var testDescription: String { "\(text.debugDescription) (\(scheme))" }

    init(_ text: String, _ scheme: VersionScheme, _ message: String) {
        self.text = text
        self.scheme = scheme
        self.message = message
    }

    init(_ text: String, _ message: String) {
        self.init(text, .appStore, message)
    }
}

@Suite struct VersionParsingTests {
    static let valid: [ValidCase] = [
        ValidCase("1"), ValidCase("8.0.2"), ValidCase("10.11.0", equals: "10.11"),
        ValidCase("7.13.88.4021"), ValidCase("1.2.3.4.5.6.7.8"),
        ValidCase("1.2.0.0", equals: "1.2"), ValidCase("01.2", equals: "1.2"),
        ValidCase("0", equals: "0.0.0"), ValidCase("4294967295.4294967295"),
        ValidCase("4294967296", equals: "4294967296.0"),
        ValidCase("18446744073709551615"), ValidCase("18446744073709551616.0", equals: "018446744073709551616"),
        ValidCase("1.0.0", .semver), ValidCase("1.0.0-alpha.1", .semver),
        ValidCase("1.0.0+20130313144700", .semver, equals: "1.0.0"),
        ValidCase("1.0.0-beta+exp.sha.5114f85", .semver, equals: "1.0.0-beta+other"),
        ValidCase("1.0.0-x-y-z.--", .semver), ValidCase("1.0.0+0001", .semver, equals: "1.0.0"),
        ValidCase("1.0.0-0A.is.legal", .semver),
    ]

    @Test(arguments: valid)
    func parsesAndEqualsItsCanonicalForm(_ example: ValidCase) throws {
        let version = try Version(parsing: example.text, scheme: example.scheme)
        let other = try Version(parsing: example.equals, scheme: example.scheme)
        #expect(version == other)
        #expect(version.hashValue == other.hashValue)
        #expect(version.description == example.text, "the text is kept for display")
        #expect(version.scheme == example.scheme)
    }

    static let invalid: [ErrorCase] = [
        ErrorCase("", #""": empty version"#),
        ErrorCase("1..2", #""1..2": empty component at offset 2"#),
        ErrorCase(".5", #"".5": empty component at offset 0"#),
        ErrorCase("1.", #""1.": empty component at offset 2"#),
        ErrorCase(
            "abc", #""abc": unexpected character "a" at offset 0 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "1.4 (18)",
            #""1.4 (18)": unexpected character " " at offset 3 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "v1.2", #""v1.2": unexpected character "v" at offset 0 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            " 1.2", #"" 1.2": unexpected character " " at offset 0 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "1.2\n",
            #""1.2\n": unexpected character "\n" at offset 3 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "1.-2", #""1.-2": unexpected character "-" at offset 2 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "1.0.0-beta",
            #""1.0.0-beta": unexpected character "-" at offset 5 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "微信.1", #""微信.1": unexpected character "微" at offset 0 (an App Store version is digits separated by '.')"#),
        ErrorCase(
            "1.２", #""1.２": unexpected character "２" at offset 2 (an App Store version is digits separated by '.')"#),
        ErrorCase("1.2", .semver, #""1.2": SemVer needs exactly 3 core components (major.minor.patch), found 2"#),
        ErrorCase(
            "1.2.3.4", .semver, #""1.2.3.4": SemVer needs exactly 3 core components (major.minor.patch), found 4"#),
        ErrorCase("01.2.3", .semver, #""01.2.3": leading zero at offset 0 (SemVer numbers have none)"#),
        ErrorCase("1.2.3-01", .semver, #""1.2.3-01": leading zero at offset 6 (SemVer numbers have none)"#),
        ErrorCase("1.2.3-", .semver, #""1.2.3-": empty identifier at offset 6"#),
        ErrorCase("1.2.3-a..b", .semver, #""1.2.3-a..b": empty identifier at offset 8"#),
        ErrorCase("1.2.3+", .semver, #""1.2.3+": empty identifier at offset 6"#),
        ErrorCase(
            "1.2.3-a+b+c", .semver,
            #""1.2.3-a+b+c": unexpected character "+" at offset 9 (SemVer allows digits and '.' in the core, then '-' pre-release and '+' build identifiers of [0-9A-Za-z-])"#
        ),
        ErrorCase(
            "1.2.3-ä", .semver,
            #""1.2.3-ä": unexpected character "ä" at offset 6 (SemVer allows digits and '.' in the core, then '-' pre-release and '+' build identifiers of [0-9A-Za-z-])"#
        ),
        ErrorCase("1.2.-3", .semver, #""1.2.-3": empty component at offset 4"#),
        ErrorCase(
            "v1.2.3", .semver,
            #""v1.2.3": unexpected character "v" at offset 0 (SemVer allows digits and '.' in the core, then '-' pre-release and '+' build identifiers of [0-9A-Za-z-])"#
        ),
    ]

    @Test(arguments: invalid)
    func rejectsWithAMessageThatNamesTheInputAndTheProblem(_ example: ErrorCase) {
        #expect {
            try Version(parsing: example.text, scheme: example.scheme)
        } throws: { error in
            (error as? VersionError)?.description == example.message
        }
    }

    @Test func errorCarriesTheInputReasonAndScheme() {
        #expect(throws: VersionError(input: "1..2", reason: .emptyComponent(offset: 2), scheme: .appStore)) {
            try Version(parsing: "1..2")
        }
    }

    @Test func losslessStringConvertibleReturnsNilInsteadOfZero() {
        #expect(Version("abc") == nil)
        #expect(Version("1.4 (18)") == nil)
        #expect(Version("8.0.10")?.description == "8.0.10")
    }

    @Test func hugeComponentsCompareAsNumbersWithoutOverflow() throws {
        let a = try Version(parsing: "99999999999999999999999.1")
        let b = try Version(parsing: "99999999999999999999998.9")
        let c = try Version(parsing: "100000000000000000000000")
        #expect(b < a)
        #expect(a < c)
        #expect(try Version(parsing: "18446744073709551615") < Version(parsing: "18446744073709551616"))
        #expect(try Version(parsing: "0000000000000000000000000001.2") == Version(parsing: "1.2"))
    }

    @Test func schemesAreLookedUpByName() {
        #expect(VersionScheme(name: "appstore") == .appStore)
        #expect(VersionScheme(name: "AppStore") == .appStore)
        #expect(VersionScheme(name: "semver") == .semver)
        #expect(VersionScheme(name: "calver") == nil)
        #expect(VersionScheme.allSchemes.map(\.description) == ["appstore", "semver"])
    }

    @Test func preReleaseIsReported() throws {
        #expect(try Version(parsing: "1.0.0-rc.1", scheme: .semver).isPreRelease)
        #expect(try !Version(parsing: "1.0.0+build", scheme: .semver).isPreRelease)
        #expect(try !Version(parsing: "1.0").isPreRelease)
    }
}
