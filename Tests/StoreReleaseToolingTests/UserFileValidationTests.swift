import Foundation
import StoreReleaseCore
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// What a person can write into a file the package reads back (a snapshot, a state, a
/// manifest) is checked as it is read: each problem is named by its key path.
@Suite struct UserFileValidationTests {
    static let watchState = LoopbackServer.packageRoot.appendingPathComponent("Docs/Examples/payloads/watch-state.json")

    struct Case: Sendable, CustomTestStringConvertible {
        let replace: String
        let with: String
        let message: String
        var testDescription: String { message }
    }

    static let snapshotCases: [Case] = [
        Case(
            replace: #""takenAt": "2021-02-16T10:00:00Z""#, with: #""takenAt": "yesterday""#,
            message: #"takenAt: "yesterday" is not an ISO 8601 date"#),
        Case(
            replace: #""userFraction": null"#, with: #""userFraction": 5.0"#,
            message: "googlePlay.releases[0].userFraction: userFraction 5.0 is outside (0, 1]"),
        Case(
            replace: #""userFraction": null"#, with: #""userFraction": 0"#,
            message: "googlePlay.releases[0].userFraction: userFraction 0.0 is outside (0, 1]"),
        Case(
            replace: #""versionCode": 81"#, with: #""versionCode": -5"#,
            message: "googlePlay.releases[0].versionCode: versionCode -5 is outside 1–2100000000"),
        Case(
            replace: #""jp": {"#, with: #""zz": {"#,
            message: #"appStore.storefronts.zz: "zz" is not an App Store storefront"#),
        Case(
            replace: #""jp": "2021-02-10T17:00:00Z""#, with: #""JPN": "2021-02-10T17:00:00Z""#,
            message: #"firstSeen.appStore.8.0.10.JPN: "JPN" is not an App Store storefront"#),
        Case(
            replace: #""IN_REVIEW": "2021-02-08T15:00:00Z""#, with: #""IN_REVIEW": "soon""#,
            message: #"firstSeen.appStoreConnect.8.0.10.IN_REVIEW: "soon" is not an ISO 8601 date"#),
        Case(
            replace: #""releaseDate": "2021-02-02T08:15:22Z""#, with: #""releaseDate": "2 Feb""#,
            message: #"appStore.storefronts.cn.releaseDate: "2 Feb" is not an ISO 8601 date"#),
        Case(
            replace: #""day": 7"#, with: #""day": 9"#,
            message: "appStoreConnect.live.phasedRelease.day: day 9 is outside 1–7"),
        Case(
            replace: #""packageName": "com.tencent.mm""#, with: #""packageName": "not a package""#,
            message: #"app.packageName: "not a package" is not an Android package name"#),
        Case(
            replace: #""track": "production""#, with: #""track": """#,
            message: "googlePlay.track: the track name is empty"),
        Case(
            replace: #""takenAt": "2021-02-16T10:00:00Z""#,
            with: #""takenAt": "2021-02-16T10:00:00Z", "takenAt": "2021-02-17T10:00:00Z""#,
            message: #"takenAt: the key "takenAt" is given twice in this object"#),
        Case(
            replace: #""percent": 100,"#, with: #""percent": 100, "percent": 5,"#,
            message: #"appStoreConnect.live.phasedRelease.percent: the key "percent" is given twice"#),
        Case(
            replace: #""userFraction": null"#, with: #""userFraction": 1e-400"#,
            message:
                #"googlePlay.releases[0].userFraction: the number "1e-400" is too small for a number (it underflows to 0)"#
        ),
    ]

    @Test(arguments: snapshotCases)
    func aStateFileIsCheckedAsItIsRead(_ row: Case) throws {
        let text = try String(contentsOf: Self.watchState, encoding: .utf8)
        #expect(text.contains(row.replace), "the example still has \(row.replace)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.json").path
        try Data(text.replacing(row.replace, with: row.with, maxReplacements: 1).utf8).write(
            to: URL(fileURLWithPath: path))
        #expect {
            _ = try WatchStateFile(path: path).read()
        } throws: { error in
            guard case WatchStateFileError.notASnapshot(let named, let reason) = error else { return false }
            return named == path && reason.hasPrefix(row.message)
        }
        #expect(try WatchStateFile(path: Self.watchState.path).read() != nil, "the example itself reads")
    }

    @Test func aRepeatedKeyOrAnUnrepresentableNumberIsNamedWhereverItIs() throws {
        func problem(_ json: String) -> String? {
            do {
                try StrictJSON.check(Data(json.utf8))
                return nil
            } catch let error as DecodingError {
                return error.readableDescription
            } catch {
                return "\(error)"
            }
        }
        #expect(
            problem(#"{"a": 1, "\u0061": 2}"#) == #"a: the key "a" is given twice in this object (give each key once)"#)
        #expect(
            problem(#"{"s": "}\"{,", "b": [{"b": 1}, {"b": 2, "c": {"d": 0, "d": 1}}]}"#)?.hasPrefix("b[1].c.d: ")
                == true)
        #expect(problem(#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#) == nil, "the same key in other objects")
        #expect(
            problem(#"{"rollout": {"percent": 1e400}}"#)?.hasPrefix(
                #"rollout.percent: the number "1e400" is too large"#) == true)
        #expect(problem(#"[0, -0, 0.0, 0e5, 1e-300, 2.5E+3]"#) == nil)
        #expect(problem(#"[1, 2, 1E-999]"#)?.hasPrefix(#"[2]: the number "1E-999" is too small"#) == true)
        #expect(problem(#"{"a": 1, "a""#) != nil && problem(#"{"unterminated"#) == nil, "not JSON: the decoder says")
    }

    @Test func aManifestWithARepeatedKeyOrAnUnderflowIsRefused() throws {
        let repeated = #"{"latestVersion": "8.0.10", "latestVersion": "9.0"}"#
        #expect {
            _ = try StrictJSON.decode(ReleaseManifest.self, from: Data(repeated.utf8))
        } throws: { error in
            (error as? DecodingError)?.readableDescription.hasPrefix(#"latestVersion: the key "latestVersion""#) == true
        }
        let tiny = #"{"schemaVersion": 2, "latestVersion": "8.0.10", "rollout": {"percent": 1e-400}}"#
        #expect {
            _ = try StrictJSON.decode(ReleaseManifest.self, from: Data(tiny.utf8))
        } throws: { error in
            (error as? DecodingError)?.readableDescription.hasPrefix(#"rollout.percent: the number "1e-400""#) == true
        }
    }
}
