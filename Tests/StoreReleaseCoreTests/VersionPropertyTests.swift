import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore

/// Random App Store version strings that hit every storage path: zeros, leading zeros, values
/// around 2³² and 2⁶⁴, more than 20 digits, up to 7 components.
enum VersionStrings {
    static func component(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "0"
        case 1: return "0" + String(Int.random(in: 0..<20, using: &random))
        case 2: return String(UInt64(UInt32.max) + UInt64.random(in: 0...2, using: &random) - 1)
        case 3: return String(UInt64.max - UInt64.random(in: 0...1, using: &random))
        case 4: return "1" + String(repeating: "0", count: Int.random(in: 19...25, using: &random))
        default: return String(Int.random(in: 0..<12, using: &random))
        }
    }

    static func appStore(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...7, using: &random)).map { _ in component(&random) }.joined(separator: ".")
    }

    /// The obvious, slow comparison the fast one must agree with: components as decimal
    /// strings without leading zeros, missing ones as zero.
    static func referenceOrder(_ a: String, _ b: String) -> Int {
        func parts(_ s: String) -> [String] {
            s.split(separator: ".", omittingEmptySubsequences: false).map { part in
                String(part.drop(while: { $0 == "0" }))
            }
        }
        let x = parts(a)
        let y = parts(b)
        for index in 0..<max(x.count, y.count) {
            let p = index < x.count ? x[index] : ""
            let q = index < y.count ? y[index] : ""
            if p.count != q.count { return p.count < q.count ? -1 : 1 }
            if p != q { return p < q ? -1 : 1 }
        }
        return 0
    }
}

@Suite struct VersionPropertyTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func orderAgreesWithTheReferenceAndIsConsistentWithEqualityAndHashing(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let texts = (0..<400).map { _ in VersionStrings.appStore(&random) }
        let versions = try texts.map { try Version(parsing: $0) }
        for (i, a) in versions.enumerated() {
            for (j, b) in versions.enumerated() where j % 7 == i % 7 {
                let expected = VersionStrings.referenceOrder(texts[i], texts[j])
                // Exactly one of <, ==, > holds, and it is the reference's.
                #expect([a < b, a == b, b < a].filter { $0 }.count == 1, "\(texts[i]) vs \(texts[j])")
                #expect((a < b) == (expected < 0), "\(texts[i]) < \(texts[j])")
                #expect((a == b) == (expected == 0), "\(texts[i]) == \(texts[j])")
                if a == b { #expect(a.hashValue == b.hashValue, "\(texts[i]) hashes like \(texts[j])") }
            }
        }
        // Transitivity: the sorted list is ordered pair by pair under the reference.
        let sorted = versions.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            #expect(VersionStrings.referenceOrder(a.description, b.description) <= 0)
        }
        // Hashing agrees with equality over a whole set: as many distinct versions as
        // distinct canonical strings.
        let canonical = Set(texts.map(Self.canonical))
        #expect(Set(versions).count == canonical.count)
    }

    /// Components without leading zeros, trailing zero components dropped.
    static func canonical(_ text: String) -> String {
        var parts = text.split(separator: ".").map { String($0.drop(while: { $0 == "0" })) }
        while parts.last?.isEmpty == true { parts.removeLast() }
        return parts.joined(separator: ".")
    }

    @Test(arguments: [5, 6] as [UInt64])
    func fastPathAgreesWithTheReferenceParser(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        for _ in 0..<2000 {
            let text = VersionStrings.appStore(&random)
            var contiguous = text
            contiguous.withUTF8 { bytes in
                guard let packed = VersionParser.packedAppStore(bytes) else { return }
                let reference = try? Version.Storage(VersionParser.parse(bytes, scheme: .appStore))
                #expect(reference == .packed(high: packed.high, low: packed.low), "\(text)")
            }
        }
    }

    @Test(arguments: [7, 8] as [UInt64])
    func textRoundTripsThroughDescriptionAndCodable(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        for _ in 0..<300 {
            let version = try Version(parsing: VersionStrings.appStore(&random))
            #expect(try Version(parsing: version.description) == version)
            #expect(Version(version.description) == version)
        }
    }
}
