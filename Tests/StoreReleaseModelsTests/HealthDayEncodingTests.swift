import Foundation
import StoreReleaseCore
import StoreReleaseModels
import Testing

/// A health day writes every key: `null` for what the source did not say, a whole count as an
/// integer and a fraction as it is.
@Suite struct HealthDayEncodingTests {
    @Test func aDayWritesEveryKeyWholeCountsAsIntegers() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let date = try #require(HealthDate("2021-02-01"))
        let appStore = try #require(
            HealthDay(
                date: date, version: try Version(parsing: "8.0.10"), versionCode: nil, users: 500, crashedUsers: 3,
                anrUsers: nil))
        #expect(
            String(decoding: try encoder.encode(appStore), as: UTF8.self)
                == #"{"anrUsers":null,"crashedUsers":3,"date":"2021-02-01","users":500,"version":"8.0.10","#
                + #""versionCode":null}"#)
        let play = try #require(
            HealthDay(
                date: date, version: try Version(parsing: "8.0.10"), versionCode: VersionCode(rawValue: 81),
                users: 90, crashedUsers: 2.07, anrUsers: 1))
        #expect(
            String(decoding: try encoder.encode(play), as: UTF8.self)
                == #"{"anrUsers":1,"crashedUsers":2.07,"date":"2021-02-01","users":90,"version":"8.0.10","#
                + #""versionCode":81}"#)
    }
}
