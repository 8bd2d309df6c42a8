import Foundation
import StoreReleaseCore
import Testing

@Suite struct VersionCodableTests {
    struct Release: Codable, Equatable {
        let version: Version
        let versionCode: VersionCode?
    }

    @Test func encodesAndDecodesAsItsOriginalString() throws {
        let data = Data(#"{"version":"10.11.0","versionCode":88}"#.utf8)
        let release = try JSONDecoder().decode(Release.self, from: data)
        #expect(release.version == (try Version(parsing: "10.11")))
        #expect(release.version.description == "10.11.0")
        #expect(release.versionCode?.rawValue == 88)
        let encoded = try JSONEncoder().encode(release)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""version":"10.11.0""#))
        #expect(try JSONDecoder().decode(Release.self, from: encoded) == release)
    }

    @Test func aBadVersionIsADecodingErrorAtItsPathNamingTheValue() {
        let data = Data(#"{"version":"1.4 (18)"}"#.utf8)
        #expect {
            try JSONDecoder().decode(Release.self, from: data)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["version"]
                && context.debugDescription.contains(#""1.4 (18)": unexpected character " " at offset 3"#)
        }
    }

    @Test func theDecoderChoosesTheScheme() throws {
        let data = Data(#"{"version":"2.0.0-beta.1"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Release.self, from: data) }
        let decoder = JSONDecoder()
        decoder.userInfo[.versionScheme] = VersionScheme.semver
        let release = try decoder.decode(Release.self, from: data)
        #expect(release.version.scheme == .semver)
        #expect(release.version.isPreRelease)
    }

    @Test func versionCodeDecodesIntegersAndDeveloperAPIStrings() throws {
        let decoded = try JSONDecoder().decode([VersionCode].self, from: Data(#"[1, "88", 2100000000]"#.utf8))
        #expect(decoded.map(\.rawValue) == [1, 88, 2_100_000_000])
        for bad in ["[0]", "[2100000001]", #"["-5"]"#, #"["8 8"]"#, #"[""]"#, "[1.5]"] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode([VersionCode].self, from: Data(bad.utf8))
            }
        }
    }

    @Test func versionCodeParsingNamesTheProblem() {
        #expect(VersionCode(rawValue: 0) == nil)
        #expect(VersionCode(rawValue: 2_100_000_001) == nil)
        #expect(VersionCode(rawValue: 42)?.description == "42")
        #expect(VersionCode(rawValue: 3)! > VersionCode(rawValue: 2)!)
        #expect {
            try VersionCode(parsing: "0")
        } throws: { error in
            (error as? VersionError)?.description == #""0": a Play versionCode is a whole number from 1 to 2100000000"#
        }
        #expect {
            try VersionCode(parsing: "12a")
        } throws: { error in
            (error as? VersionError)?.reason == .unexpectedCharacter("a", offset: 2)
                && (error as? VersionError)?.description
                    == #""12a": unexpected character "a" at offset 2 (a Play versionCode is a whole number from 1 to 2100000000)"#
        }
        #expect {
            try VersionCode(parsing: "99999999999999999999999")
        } throws: { error in
            (error as? VersionError)?.reason == .versionCodeOutOfRange
        }
    }

    /// A version written as one number is that versionCode on Play; anything else is not one.
    @Test(
        arguments: [
            ("81", 81), ("2100000000", 2_100_000_000), ("8.0.10", nil), ("81.0", nil), ("0", nil), ("2100000001", nil),
        ] as [(String, Int?)])
    func aVersionWrittenAsOneNumberIsThatVersionCode(_ text: String, _ code: Int?) throws {
        #expect(VersionCode(exactly: try Version(parsing: text))?.rawValue == code)
    }
}
