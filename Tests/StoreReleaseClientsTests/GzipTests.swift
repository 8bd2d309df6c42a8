import Foundation
import Testing

@testable import StoreReleaseClients

/// App Store Connect's report segments are gzip: the inflater reads every block type, checks each
/// member, and stops at its size limit. The vectors were made by Python's `gzip` module (zlib).
@Suite struct GzipTests {
    static func data(_ base64: String) throws -> Data { try #require(Data(base64Encoded: base64)) }

    /// The text the dynamic-Huffman vector holds: a report-like table of 60 rows.
    static var table: String {
        var lines = ["Date\tApp Name\tApp Apple Identifier\tApp Version\tCrashes"]
        for index in 0..<60 {
            let day = 1 + index % 28
            lines.append(
                "2021-01-\(day < 10 ? "0" : "")\(day)\tWeChat\t414478124\t8.0.\(index % 11)\t\((index * 37) % 101)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let dynamic =
        "H4sIAAAAAAACA4WUy2rDMBBF15OvyA80SCNpJC1Luummy3ZtqEsCfYQk/0/H7UKz0HDBBmOuOaCDz9NyX+nxctm/LF//D3p/rvvn9/X7fv44r9e/l6/r9Xb++abjdbmd1tuOA8eHsF30th5Py51yzLm2yJnaIRwChbHh+SZSqmOU5iOmmscoz0eJosGV+ShTNjiZjwo1g6vzkRAbXJuPKhWD6/NRoz5wMcxHndLARefA9WMZvMieljQ2ydOSDS67WgytuFoMTjwtxeCqq8XgmqvF4LqnRQaOg6tl4Di6WgaO2dVSDS95WmRssqvF4IqnpRmauFoMrrpaDK55WnqAKVAtAlugWhJsQdPfPMAYqBeBMdi8JFiDQB3GQL0IjIF6STAG6qXDGKgXgTFQLwm2QL10GAP1IjAGjRi2QK102ILNisAYBIoMY6BaOoyBahEYg0TMMAaqpcMYqBaBLRBKDGOgWjqMQaMCW9ApM2zBpqXDGKiWAmMQqTCMgWrpMAaqpcAWZBLe/QI14xJb4wgAAA=="

    @Test func everyBlockTypeInflates() throws {
        let cases: [(String, String)] = [
            ("H4sIAAAAAAACA8tIzcnJV8hAkFwAO3yK3xIAAAA=", "hello hello hello\n"),  // fixed codes
            ("H4sIAAAAAAAEAwENAPL/c3RvcmVkIGJ5dGVzCupZBmwNAAAA", "stored bytes\n"),  // a stored block
            ("H4sICAAAAAAC/zAuY3N2AMtLzE1N4QIA3PB6QQYAAAA=", "named\n"),  // a file name in the header
            (Self.dynamic, Self.table),  // dynamic codes with back-references
        ]
        for (base64, text) in cases {
            let data = try Self.data(base64)
            #expect(Gzip.isGzip(data))
            #expect(String(decoding: try Gzip.decompress(data, maximumSize: 1 << 20), as: UTF8.self) == text)
        }
    }

    @Test func membersOneAfterAnotherAreOneFile() throws {
        let two =
            try Self.data("H4sIAAAAAAAEAwENAPL/c3RvcmVkIGJ5dGVzCupZBmwNAAAA")
            + Self.data("H4sICAAAAAAC/zAuY3N2AMtLzE1N4QIA3PB6QQYAAAA=")
        #expect(String(decoding: try Gzip.decompress(two, maximumSize: 100), as: UTF8.self) == "stored bytes\nnamed\n")
    }

    @Test func damageAndSizeAreRefused() throws {
        var data = try Self.data(Self.dynamic)
        #expect(throws: Gzip.Failure.tooLarge(limit: 100)) { try Gzip.decompress(data, maximumSize: 100) }
        #expect(throws: Gzip.Failure.truncated) { try Gzip.decompress(data.prefix(200), maximumSize: 1 << 20) }
        data[data.count - 6] ^= 0xFF  // the CRC-32
        #expect(throws: Gzip.Failure.checksum) { try Gzip.decompress(data, maximumSize: 1 << 20) }
        #expect(throws: Gzip.Failure.notGzip) { try Gzip.decompress(Data("Date\tCrashes\n".utf8), maximumSize: 100) }
        #expect(!Gzip.isGzip(Data("Date\tCrashes\n".utf8)))
    }

    @Test func aTableIsKeyedByItsHeaderWhateverTheDelimiter() {
        let table = AnalyticsReportTable(text: "Date\t\"App Version\"\tCrashes\r\n2021-02-01\t\"8.0.10\"\t3\r\n\n")
        #expect(table.columns == ["Date", "App Version", "Crashes"])
        #expect(table.rows == [["Date": "2021-02-01", "App Version": "8.0.10", "Crashes": "3"]])
        let commas = AnalyticsReportTable(text: "Date,App Version,Count\n2021-02-01,8.0.10,4\n")
        #expect(commas.rows.first?["Count"] == "4")
    }
}
