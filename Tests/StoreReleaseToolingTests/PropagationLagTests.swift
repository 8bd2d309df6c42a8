import Foundation
import Testing

@testable import StoreReleaseTooling

/// `storerelease lag`'s numbers, from a state's `firstSeen`.
@Suite struct PropagationLagTests {
    /// A state whose storefronts serve `served`, with the times given.
    static func state(
        served: [String: String], appStore: [String: [String: String]], connect: [String: [String: String]]
    ) throws -> ReleaseSnapshot {
        let document: [String: Any] = [
            "takenAt": "2021-02-16T00:00:00Z",
            "appStore": ["storefronts": served.mapValues { ["version": $0] }],
            "firstSeen": ["appStore": appStore, "appStoreConnect": connect],
        ]
        return try JSONDecoder().decode(ReleaseSnapshot.self, from: JSONSerialization.data(withJSONObject: document))
    }

    static let approved = [
        "8.0.10": ["IN_REVIEW": "2021-02-09T00:00:00Z", "READY_FOR_DISTRIBUTION": "2021-02-10T00:00:00Z"]
    ]

    @Test func medianWorstAndTheStorefrontsStillMissingIt() throws {
        let state = try Self.state(
            served: ["us": "8.0.10", "jp": "8.0.10", "cn": "8.0.9", "kr": "8.0.11", "de": "8.0.10"],
            appStore: [
                "8.0.10": ["us": "2021-02-10T01:00:00Z", "jp": "2021-02-11T07:00:00Z", "de": "2021-02-10T03:00:00Z"]
            ], connect: Self.approved)
        let lag = try #require(PropagationLag.report(state).first)
        #expect(lag.storefronts == ["us": 3600, "de": 10800, "jp": 111_600])
        #expect(lag.medianSeconds == 10800 && lag.worstSeconds == 111_600)
        #expect(lag.missing == ["cn"], "kr went straight to a newer version: not missing, not measured")
        #expect(lag.line.hasSuffix("(de 3h 0m, jp 31h 0m, us 1h 0m); missing cn"))
    }

    @Test func anEvenCountTakesTheMeanOfTheMiddleTwoAndAnEarlyStorefrontCountsZero() throws {
        let state = try Self.state(
            served: ["us": "8.0.10", "jp": "8.0.10"],
            appStore: ["8.0.10": ["us": "2021-02-09T12:00:00Z", "jp": "2021-02-10T02:00:00Z"]], connect: Self.approved)
        let lag = try #require(PropagationLag.report(state).first)
        #expect(lag.storefronts == ["us": 0, "jp": 7200] && lag.medianSeconds == 3600)
    }

    @Test func anApprovalTheWatchDidNotSeeIsNotMeasured() throws {
        let state = try Self.state(
            served: ["us": "8.0.10"], appStore: ["8.0.10": ["us": "2021-02-10T00:00:00Z"]],
            connect: ["8.0.10": ["READY_FOR_DISTRIBUTION": "2021-02-10T00:00:00Z"]])
        #expect(PropagationLag.report(state).isEmpty, "ready from the first round: no approval time to measure from")
        let none = try Self.state(served: ["us": "8.0.9"], appStore: [:], connect: Self.approved)
        let waiting = try #require(PropagationLag.report(none).first)
        #expect(waiting.medianSeconds == nil && waiting.worstSeconds == nil && waiting.missing == ["us"])
        #expect(waiting.line.contains("no storefront serves it yet; missing us"))
    }
}
