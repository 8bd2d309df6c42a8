import Foundation
import StoreReleaseCore
import StoreReleaseModels
import Testing

/// A recovery action writes the report's shape: every key, `null` for what Play did not say,
/// versionCodes as numbers and the id under `appRecoveryId`.
@Suite struct PlayRecoveryActionEncodingTests {
    @Test func anActionWritesEveryKeyOfTheReportsShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let codes = [try #require(VersionCode(rawValue: 80)), try #require(VersionCode(rawValue: 81))]
        let draft = PlayRecoveryAction(
            appRecoveryID: "900", status: .draft, versionCodes: codes, regions: nil, recoveredDevices: nil,
            totalDevices: nil)
        #expect(
            String(decoding: try encoder.encode(draft), as: UTF8.self)
                == #"{"appRecoveryId":"900","recoveredDevices":null,"regions":null,"status":"RECOVERY_STATUS_DRAFT","#
                + #""totalDevices":null,"versionCodes":[80,81]}"#)
        let active = PlayRecoveryAction(
            appRecoveryID: "901", status: .active, versionCodes: codes, regions: ["US"], recoveredDevices: 3,
            totalDevices: 10)
        #expect(
            String(decoding: try encoder.encode(active), as: UTF8.self)
                == #"{"appRecoveryId":"901","recoveredDevices":3,"regions":["US"],"status":"RECOVERY_STATUS_ACTIVE","#
                + #""totalDevices":10,"versionCodes":[80,81]}"#)
        #expect(try JSONDecoder().decode(PlayRecoveryAction.self, from: try encoder.encode(active)) == active)
    }
}
