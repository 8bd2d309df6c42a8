import Foundation
import StoreReleaseCore
import Testing

/// Every version-comparison bug in the seed articles and the libraries they copied from, each
/// shown to be a bug and shown to be fixed.
@Suite struct SeedBugTests {
    /// Seed 000 compares with `aVersion.compare(lVersion)`: string order, in which "8.0.2" comes
    /// after "8.0.10" because '2' > '1'.
    @Test func seed000StringComparisonCalls8_0_2NewerThan8_0_10() throws {
        #expect("8.0.2" > "8.0.10", "the seed's comparison")
        #expect(try Version(parsing: "8.0.2") < Version(parsing: "8.0.10"))
    }

    /// Seed 003 strips the dots and compares integers: "2.0" → 20 and "1.9.9" → 199, so 1.9.9
    /// looks newer than 2.0.
    @Test func seed003DotStrippingCalls1_9_9NewerThan2_0() throws {
        func stripped(_ text: String) -> Int? { Int(text.replacingOccurrences(of: ".", with: "")) }
        #expect((stripped("2.0") ?? 0) < (stripped("1.9.9") ?? 0), "the seed's comparison")
        #expect(try Version(parsing: "2.0") > Version(parsing: "1.9.9"))
    }

    /// Seed 003 decides "show what's new" by the first three characters, so 1.1.0 → 1.10.0
    /// (a new minor version) shows nothing.
    @Test func seed003FirstThreeCharactersMiss1_10_0() throws {
        #expect("1.10.0".prefix(3) == "1.1.0".prefix(3), "the seed's comparison")
        #expect(try Version(parsing: "1.10.0").change(from: Version(parsing: "1.1.0")) == .minor)
    }

    /// Seed 004 keeps three components, so a fourth that changed is invisible.
    @Test func seed004ThreeComponentsOnlyMissTheFourth() throws {
        #expect(try Version(parsing: "7.13.88.4022") > Version(parsing: "7.13.88.4021"))
    }

    /// Seed 004 turns anything that is not an integer into 0: "abc" is 0.0.0 and "1.4 (18)" is
    /// 1.0.0. Here both are errors that say what is wrong.
    @Test func seed004NonNumbersBecomeZeroHereTheyAreErrors() {
        #expect(throws: VersionError.self) { try Version(parsing: "abc") }
        #expect(throws: VersionError.self) { try Version(parsing: "1.4 (18)") }
        #expect(Version("abc") == nil)
    }

    /// Seeds 001 and 002 use `compare(_:options: .numeric)`, which calls 1.2 older than 1.2.0:
    /// an app on 1.2 is told to update to the same release (Siren's phantom prompts before 7.0).
    @Test func seeds001And002NumericCompareCalls1_2OlderThan1_2_0() throws {
        #expect("1.2".compare("1.2.0", options: .numeric) == .orderedAscending, "the seeds' comparison")
        #expect(try Version(parsing: "1.2") == Version(parsing: "1.2.0"))
    }

    /// Seed 004 first compared with `!=`, so the build under review (newer than the store)
    /// showed an update prompt to the reviewer and was rejected.
    @Test func seed004InequalityPromptsTheReviewer() throws {
        let inReview = try Version(parsing: "1.1")
        let store = try Version(parsing: "1.0")
        #expect(inReview != store, "the seed's test: an update prompt")
        #expect(!(inReview < store), "the right test: no newer release exists")
    }
}
