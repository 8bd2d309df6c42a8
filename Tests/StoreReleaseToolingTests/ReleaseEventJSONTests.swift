import Foundation
import Testing

@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// Each kind of change's own keys, as the contract's event JSON writes them: a row a kind, so a
/// `from` written as `to` (or a key left out) fails the row that names it.
@Suite struct ReleaseEventJSONTests {
    static let at = Date(timeIntervalSince1970: 1_733_472_000)  // 2024-12-06T08:00:00Z

    static func version(_ text: String) -> Version? { Version(text) }
    static func code(_ value: Int) -> VersionCode? { VersionCode(rawValue: value) }

    static let rows: [(ReleaseEvent.Change, String)] = [
        (
            .storefrontUpdated(
                country: .unitedStates, from: version("8.0.2"), to: version("8.0.10"), lagSeconds: 3600),
            #"{"country":"us","from":"8.0.2","lagSeconds":3600,"to":"8.0.10"}"#
        ),
        (
            .playStatusChanged(versionCode: code(81), from: .inProgress, to: .halted),
            #"{"from":"inProgress","to":"halted","versionCode":81}"#
        ),
        (
            .playRolloutChanged(versionCode: code(81), from: 0.02, to: 0.05),
            #"{"from":0.02,"to":0.05,"versionCode":81}"#
        ),
        (
            .playReviewChanged(versionCode: code(81), from: .inReview, to: nil),
            #"{"from":"RELEASE_LIFECYCLE_STATE_IN_REVIEW","to":null,"versionCode":81}"#
        ),
        (
            .ascStateChanged(version: "8.0.10", from: .pendingDeveloperRelease, to: .readyForDistribution),
            #"{"from":"PENDING_DEVELOPER_RELEASE","to":"READY_FOR_DISTRIBUTION","version":"8.0.10"}"#
        ),
        (
            .phasedReleaseChanged(
                version: "8.0.10", from: AppStoreConnectStatus.Phase(state: .active, day: 2, percent: 2),
                to: AppStoreConnectStatus.Phase(state: .paused, day: 2, percent: 2)),
            #"{"from":{"day":2,"state":"ACTIVE"},"to":{"day":2,"state":"PAUSED"},"version":"8.0.10"}"#
        ),
        (
            .healthChanged(store: .googlePlay, version: version("8.0.10"), from: .healthy, to: .regressed),
            #"{"from":"healthy","to":"regressed","version":"8.0.10"}"#
        ),
        (
            .playRecoveryChanged(
                appRecoveryID: "42", versionCodes: [code(81)].compactMap { $0 }, from: nil, to: .active),
            #"{"appRecoveryId":"42","from":null,"to":"RECOVERY_STATUS_ACTIVE","versionCodes":[81]}"#
        ),
    ]

    @Test(arguments: rows.indices)
    func eachKindWritesItsOwnKeys(_ row: Int) throws {
        let (change, expected) = Self.rows[row]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(ReleaseEvent(change, at: Self.at))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for common in ["id", "type", "store", "at"] { object[common] = nil }
        let own = String(
            decoding: try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
            as: UTF8.self)
        #expect(own == expected, "\(ReleaseEvent(change, at: Self.at).type)")
    }
}
