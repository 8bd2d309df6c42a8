import Foundation
import Testing

@testable import StoreReleaseCore

/// The one way the package's JSON names every key: `null` for what is absent, dates as ISO 8601,
/// and a key that names no stored property is an error, not a silently missing key.
@Suite struct EveryKeyEncodingTests {
    struct Sample: Encodable {
        let name: String?
        let count: Int
        let when: Date?
        let hidden = "not encoded"

        enum CodingKeys: String, CodingKey, CaseIterable {
            case count, name, when
        }

        func encode(to encoder: any Encoder) throws {
            try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
        }
    }

    struct Misnamed: Encodable {
        let name: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case title
        }

        func encode(to encoder: any Encoder) throws {
            try EveryKeyEncoding.encode(self, keys: CodingKeys.self, to: encoder)
        }
    }

    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func absentValuesAreNullAndDatesISO8601() throws {
        #expect(try json(Sample(name: nil, count: 2, when: nil)) == #"{"count":2,"name":null,"when":null}"#)
        let date = Date(timeIntervalSince1970: 1_612_253_722)
        #expect(
            try json(Sample(name: "微信", count: 0, when: date))
                == #"{"count":0,"name":"微信","when":"2021-02-02T08:15:22Z"}"#)
    }

    @Test func aKeyThatNamesNoPropertyIsAnError() {
        #expect {
            try json(Misnamed(name: "x"))
        } throws: { error in
            "\(error)".contains("has no stored property title")
        }
    }
}
