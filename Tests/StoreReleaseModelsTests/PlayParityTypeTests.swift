import Foundation
import StoreReleaseCore
import StoreReleaseModels
import Testing

/// Play's constants with their exact raw values and names (reference §1), and the JSON a backend
/// sends for AppUpdateInfo.
@Suite struct PlayParityTypeTests {
    @Test func everyConstantHasPlaysValueAndName() {
        #expect(
            UpdateAvailability.allValues.map(\.summary) == [
                "UNKNOWN (0)", "UPDATE_NOT_AVAILABLE (1)", "UPDATE_AVAILABLE (2)",
                "DEVELOPER_TRIGGERED_UPDATE_IN_PROGRESS (3)",
            ])
        #expect(
            InstallStatus.allValues.map(\.summary) == [
                "UNKNOWN (0)", "PENDING (1)", "DOWNLOADING (2)", "INSTALLING (3)", "INSTALLED (4)", "FAILED (5)",
                "CANCELED (6)", "REQUIRES_UI_INTENT (10)", "DOWNLOADED (11)",
            ])
        #expect(
            InstallErrorCode.allValues.map(\.summary) == [
                "NO_ERROR (0)", "NO_ERROR_PARTIALLY_ALLOWED (1)", "ERROR_UNKNOWN (-2)", "ERROR_API_NOT_AVAILABLE (-3)",
                "ERROR_INVALID_REQUEST (-4)", "ERROR_INSTALL_UNAVAILABLE (-5)", "ERROR_INSTALL_NOT_ALLOWED (-6)",
                "ERROR_DOWNLOAD_NOT_PRESENT (-7)", "ERROR_INSTALL_IN_PROGRESS (-8)", "ERROR_PLAY_STORE_NOT_FOUND (-9)",
                "ERROR_APP_NOT_OWNED (-10)", "ERROR_INTERNAL_ERROR (-100)",
            ])
        #expect(AppUpdateType.allValues.map(\.summary) == ["FLEXIBLE (0)", "IMMEDIATE (1)"])
        #expect(
            ActivityResult.allValues.map(\.summary) == [
                "RESULT_OK (-1)", "RESULT_CANCELED (0)", "RESULT_IN_APP_UPDATE_FAILED (1)",
            ])
        #expect(
            UpdatePrecondition.allValues.map(\.summary) == [
                "UNKNOWN (0)", "CANNOT_DISPLAY (1)", "NEED_STORE_TO_PROCEED (2)", "INSUFFICIENT_STORAGE (3)",
                "DEVICE_STATUS (4)", "APP_VERSION_FRESH (5)",
            ])
    }

    @Test func constantsDecodeFromIntegersOrNamesAndEncodeAsNames() throws {
        let decoded = try JSONDecoder().decode(
            [InstallStatus].self, from: Data(#"[11, "DOWNLOADED", "downloaded", 10]"#.utf8))
        #expect(decoded == [.downloaded, .downloaded, .downloaded, .requiresUIIntent])
        #expect(
            String(decoding: try JSONEncoder().encode([InstallStatus.downloaded]), as: UTF8.self) == #"["DOWNLOADED"]"#)
        #expect(
            String(decoding: try JSONEncoder().encode([AppUpdateType.immediate]), as: UTF8.self) == #"["immediate"]"#)
        #expect {
            try JSONDecoder().decode([InstallStatus].self, from: Data("[7]".utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.hasPrefix(#""7" is not an InstallStatus (one of UNKNOWN (0), PENDING (1)"#)
        }
        #expect(throws: PlayConstantError.self) { try InstallErrorCode(parsing: "ERROR_EVERYTHING") }
    }

    /// Each type's name in messages is Play's, now that it comes from the Swift type's name.
    @Test func everyTypeNamesItselfAsPlayDoes() {
        let names = [
            AppUpdateType.typeName, InstallStatus.typeName, UpdateAvailability.typeName, UpdatePrecondition.typeName,
            InstallErrorCode.typeName, ActivityResult.typeName,
        ]
        #expect(
            names == [
                "AppUpdateType", "InstallStatus", "UpdateAvailability", "UpdatePrecondition", "InstallErrorCode",
                "ActivityResult",
            ])
        #expect {
            try ActivityResult(parsing: "7")
        } throws: { error in
            (error as? PlayConstantError)?.description
                == #""7" is not an ActivityResult (one of RESULT_OK (-1), RESULT_CANCELED (0), "#
                + "RESULT_IN_APP_UPDATE_FAILED (1))"
        }
    }

    static let backendJSON = #"""
        {"packageName": "com.example.app", "availableVersionCode": 88, "updateAvailability": 2,
         "installStatus": "DOWNLOADING", "updatePriority": 5, "clientVersionStalenessDays": 4,
         "bytesDownloaded": 400, "totalBytesToDownload": 1000, "installErrorCode": "NO_ERROR",
         "allowedUpdateTypes": ["flexible", 1],
         "failedUpdatePreconditions": {"immediate": ["INSUFFICIENT_STORAGE", 4]}}
        """#

    @Test func appUpdateInfoDecodesWhatABackendSends() throws {
        let info = try JSONDecoder().decode(AppUpdateInfo.self, from: Data(Self.backendJSON.utf8))
        #expect(info.updateAvailability == .updateAvailable && info.installStatus == .downloading)
        #expect(info.updatePriority == 5 && info.clientVersionStalenessDays == 4)
        #expect(info.bytesDownloaded == 400 && info.totalBytesToDownload == 1000)
        #expect(info.isUpdateTypeAllowed(.flexible) && info.isUpdateTypeAllowed(.immediate))
        #expect(info.failedUpdatePreconditions(.defaultOptions(.immediate)) == [.insufficientStorage, .deviceStatus])
        #expect(info.failedUpdatePreconditions(.defaultOptions(.flexible)).isEmpty)
        #expect(info.versionCode?.rawValue == 88)
        let again = try JSONDecoder().decode(AppUpdateInfo.self, from: try JSONEncoder().encode(info))
        #expect(again == info)
        let release = StoreRelease(info)
        #expect(release.store == .googlePlay && release.appID == "com.example.app")
        #expect(release.updatePriority == 5 && release.allowedUpdateTypes == [.flexible, .immediate])
        #expect(release.version == nil)
    }

    /// Every contract key, `null` for unknown staleness, the asset-pack types and the failed
    /// preconditions only when there are some: the encoding writes the keys through
    /// EveryKeyEncoding, then the optional two.
    @Test func appUpdateInfoEncodesEveryKeyOfTheContract() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json =
            #"{"packageName":"p","availableVersionCode":0,"updateAvailability":1,"installStatus":0,"allowedUpdateTypes":[]}"#
        let info = try JSONDecoder().decode(AppUpdateInfo.self, from: Data(json.utf8))
        #expect(
            String(decoding: try encoder.encode(info), as: UTF8.self)
                == #"{"allowedUpdateTypes":[],"availableVersionCode":0,"bytesDownloaded":0,"#
                + #""clientVersionStalenessDays":null,"installErrorCode":"NO_ERROR","installStatus":"UNKNOWN","#
                + #""packageName":"p","totalBytesToDownload":0,"updateAvailability":"UPDATE_NOT_AVAILABLE","#
                + #""updatePriority":0}"#)
        let backend = try JSONDecoder().decode(AppUpdateInfo.self, from: Data(Self.backendJSON.utf8))
        let written = String(decoding: try encoder.encode(backend), as: UTF8.self)
        #expect(
            written.hasPrefix(
                #"{"allowedUpdateTypes":["flexible","immediate"],"availableVersionCode":88,"bytesDownloaded":400,"#
                    + #""clientVersionStalenessDays":4,"failedUpdatePreconditions":{"#), "\(written)")
        #expect(
            written.hasSuffix(
                #""installErrorCode":"NO_ERROR","installStatus":"DOWNLOADING","packageName":"com.example.app","#
                    + #""totalBytesToDownload":1000,"updateAvailability":"UPDATE_AVAILABLE","updatePriority":5}"#),
            "\(written)")
    }

    @Test func minimalJSONTakesPlaysDefaults() throws {
        let json =
            #"{"packageName":"p","availableVersionCode":0,"updateAvailability":1,"installStatus":0,"allowedUpdateTypes":[]}"#
        let info = try JSONDecoder().decode(AppUpdateInfo.self, from: Data(json.utf8))
        #expect(info.updatePriority == 0 && info.clientVersionStalenessDays == nil && info.installErrorCode == .noError)
        #expect(info.versionCode == nil)
    }

    @Test(arguments: [
        (#""updatePriority": 5"#, #""updatePriority": 6"#, "updatePriority 6 is outside 0...5"),
        (
            #""clientVersionStalenessDays": 4"#, #""clientVersionStalenessDays": -1"#,
            "clientVersionStalenessDays -1 is negative"
        ),
        (#""bytesDownloaded": 400"#, #""bytesDownloaded": -4"#, "bytesDownloaded -4 is negative"),
        (#""totalBytesToDownload": 1000"#, #""totalBytesToDownload": -1"#, "totalBytesToDownload -1 is negative"),
        (
            #""availableVersionCode": 88"#, #""availableVersionCode": -1"#,
            "availableVersionCode -1 is outside 0...2100000000"
        ),
        (
            #""availableVersionCode": 88"#, #""availableVersionCode": 2100000001"#,
            "availableVersionCode 2100000001 is outside"
        ),
        (#""installStatus": "DOWNLOADING""#, #""installStatus": "BUSY""#, #""BUSY" is not an InstallStatus"#),
        (
            #""allowedUpdateTypes": ["flexible", 1]"#, #""allowedUpdateTypes": ["sometimes"]"#,
            #""sometimes" is not an AppUpdateType"#
        ),
        (#""packageName": "com.example.app", "#, "", "Key 'packageName' not found"),
    ])
    func badRecordsAreErrorsNamingTheFieldAndValue(_ field: String, _ replacement: String, _ message: String) {
        let json = Self.backendJSON.replacingOccurrences(of: field, with: replacement)
        #expect {
            try JSONDecoder().decode(AppUpdateInfo.self, from: Data(json.utf8))
        } throws: { error in
            String(describing: error).contains(message)
        }
    }
}
