import StoreReleaseCore
import Testing

@Suite struct VersionOrCodeTests {
    /// A version name is kept as given; written as one number within Play's range it is also that
    /// versionCode, else it is none.
    @Test(
        arguments: [
            ("81", 81), ("8.0.10", nil), ("81.0", nil), ("0", nil), ("2100000000", 2_100_000_000),
            ("2100000001", nil),
        ] as [(String, Int?)])
    func parsesANameThatMayAlsoBeACode(_ text: String, _ code: Int?) throws {
        let named = try VersionOrCode(parsing: text)
        #expect(named.description == text)
        #expect(named.name == (try Version(parsing: text)))
        #expect(named.code?.rawValue == code)
    }

    /// What is not a version is refused as a version is, the text named.
    @Test(arguments: ["", "v81", "8.0.10 ", "8..10"])
    func refusesWhatIsNotAVersion(_ text: String) {
        #expect {
            try VersionOrCode(parsing: text)
        } throws: { error in
            (error as? VersionError)?.input == text
        }
    }

    /// Against a store's codes (81 is 8.0.10, 80 is 8.0.9): a code the store has names its
    /// version; a name, or a code the store has not, names itself.
    @Test(
        arguments: [
            ("81", "8.0.10"), ("80", "8.0.9"), ("82", "82"), ("8.0.10", "8.0.10"), ("8.0.9", "8.0.9"),
            ("81.0", "81.0"),
        ])
    func resolvesAgainstAStoresCodes(_ text: String, _ resolved: String) throws {
        let codes = [81: try Version(parsing: "8.0.10"), 80: try Version(parsing: "8.0.9")]
        let version = try VersionOrCode(parsing: text).resolved { codes[$0.rawValue] }
        #expect(version.description == resolved)
    }

    /// A store without codes (the App Store) knows none: every name names itself.
    @Test(arguments: ["81", "8.0.10"])
    func resolvesToTheNameWhereNoCodeIsKnown(_ text: String) throws {
        #expect(try VersionOrCode(parsing: text).resolved { _ in nil }.description == text)
    }
}
