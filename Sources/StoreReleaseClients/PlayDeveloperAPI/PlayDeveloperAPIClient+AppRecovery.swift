import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Play App Recovery: remote in-app update prompts for chosen versionCodes.
///
/// `list` is `GET …/appRecoveries?versionCode=N` (the 2026 discovery document; older ones had a
/// `POST`, which today is a create); `create` makes a `RECOVERY_STATUS_DRAFT` action; `deploy`
/// makes it `RECOVERY_STATUS_ACTIVE`. Field names as Google spells them: `regions.regionCode`
/// (singular), `remoteInAppUpdateData.remoteAppUpdateDataPerBundle`.
extension PlayDeveloperAPIClient {
    /// The App Recovery actions that target `versionCode` (App Recovery's list is not paginated).
    ///
    /// - Throws: ``HTTPClientError``; ``HTTPClientError/Code/notFound`` for an unknown package.
    public func recoveryActions(packageName: String, versionCode: VersionCode) async throws(HTTPClientError)
        -> [PlayRecoveryAction]
    {
        struct List: Decodable { let recoveryActions: [RecoveryWire]? }
        let path = try Self.applicationPath(packageName) + "/appRecoveries?versionCode=\(versionCode.rawValue)"
        guard let body = try await send("GET", path, packageName: packageName) else { return [] }
        return try (decode(List.self, from: body).recoveryActions ?? []).map { wire throws(HTTPClientError) in
            try wire.action(redactor: redactor)
        }
    }

    /// The App Recovery actions that target any of `versionCodes`, each listed once.
    ///
    /// App Recovery lists one versionCode a request: the codes are asked lowest first, and an
    /// action is listed where first seen.
    ///
    /// - Throws: ``HTTPClientError``, as ``recoveryActions(packageName:versionCode:)``.
    public func recoveryActions(packageName: String, versionCodes: some Sequence<VersionCode>)
        async throws(HTTPClientError) -> [PlayRecoveryAction]
    {
        var actions: [PlayRecoveryAction] = []
        var seen: Set<String> = []
        for code in Set(versionCodes).sorted() {
            for action in try await recoveryActions(packageName: packageName, versionCode: code)
            where seen.insert(action.appRecoveryID).inserted {
                actions.append(action)
            }
        }
        return actions
    }

    /// The `POST` that creates a draft recovery action.
    ///
    /// The action is a remote in-app update for `versionCodes`, for all users or (with `regions`) only those.
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` for no versionCodes, an empty `regions`
    ///   or a region that is not two letters.
    public static func createRecoveryRequest(
        packageName: String, versionCodes: [VersionCode], regions: [String]?
    ) throws(HTTPClientError) -> StoreRequest {
        guard !versionCodes.isEmpty else {
            throw .play(.invalidRequest("an App Recovery action needs at least one versionCode"))
        }
        var targeting: [String: JSONValue] = [
            "versionList": .object(["versionCodes": .array(versionCodes.map { .string($0.description) })])
        ]
        if let regions {
            guard !regions.isEmpty, regions.count <= 250 else {
                throw .play(.invalidRequest("the region list is empty (or has more than 250)"))
            }
            if let bad = regions.first(where: { !Self.isRegionCode($0) }) {
                throw .play(
                    .invalidRequest("\(bad.debugDescription) is not a region code (two letters, ISO 3166: US, DE)"))
            }
            targeting["regions"] = .object(["regionCode": .array(regions.map { .string($0.uppercased()) })])
        } else {
            targeting["allUsers"] = .object(["isAllUsersRequested": .bool(true)])
        }
        return StoreRequest(
            method: "POST", path: try applicationPath(packageName) + "/appRecoveries",
            body: .object([
                "targeting": .object(targeting),
                "remoteInAppUpdate": .object(["isRemoteInAppUpdateRequested": .bool(true)]),
            ]))
    }

    /// The `POST` that deploys a draft action.
    ///
    /// `appRecoveryID` is `{appRecoveryId}` in a plan, which learns the id only when the create is applied.
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` for an id that is neither digits nor the placeholder.
    public static func deployRecoveryRequest(packageName: String, appRecoveryID: String = "{appRecoveryId}")
        throws(HTTPClientError) -> StoreRequest
    {
        guard appRecoveryID == "{appRecoveryId}" || isRecoveryID(appRecoveryID) else {
            throw .play(.invalidRequest("\(appRecoveryID.debugDescription) is not an App Recovery id (digits)"))
        }
        return StoreRequest(
            method: "POST",
            path: try applicationPath(packageName) + "/appRecoveries/" + appRecoveryID + ":deploy",
            body: .object([:]))
    }

    /// Creates a draft recovery action (``createRecoveryRequest(packageName:versionCodes:regions:)``).
    ///
    /// Sent once: a 5xx is reported, not retried, since a second create would be a second action.
    ///
    /// - Returns: The action as Play answered it (`RECOVERY_STATUS_DRAFT`).
    public func createRecovery(packageName: String, versionCodes: [VersionCode], regions: [String]?)
        async throws(HTTPClientError) -> PlayRecoveryAction
    {
        let request = try Self.createRecoveryRequest(
            packageName: packageName, versionCodes: versionCodes, regions: regions)
        guard
            let body = try await send(
                request.method, request.path, body: request.body?.data, packageName: packageName, retrying: false)
        else { throw .play(.exchange(.invalidPayload("the new recovery action came back empty"))) }
        return try decode(RecoveryWire.self, from: body).action(redactor: redactor)
    }

    /// Deploys a draft recovery action: the targeted users are prompted to update.
    public func deployRecovery(_ appRecoveryID: String, packageName: String) async throws(HTTPClientError) {
        guard Self.isRecoveryID(appRecoveryID) else {
            throw .play(.invalidRequest("\(appRecoveryID.debugDescription) is not an App Recovery id (digits)"))
        }
        let request = try Self.deployRecoveryRequest(packageName: packageName, appRecoveryID: appRecoveryID)
        _ = try await send(
            request.method, request.path, body: request.body?.data, packageName: packageName, retrying: false)
    }

    /// Whether `code` is an ISO 3166 alpha-2 code's shape: two ASCII letters.
    static func isRegionCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// Whether `id` is an int64's digits.
    static func isRecoveryID(_ id: String) -> Bool {
        (1...19).contains(id.utf8.count) && id.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}

/// An `AppRecoveryAction` as the API sends it.
struct RecoveryWire: Decodable {
    struct Targeting: Decodable {
        struct Regions: Decodable { let regionCode: [String]? }
        struct VersionList: Decodable { let versionCodes: [String]? }
        let regions: Regions?
        let versionList: VersionList?
    }
    struct UpdateData: Decodable {
        struct Bundle: Decodable {
            let versionCode: String?
            let recoveredDeviceCount: String?
            let totalDeviceCount: String?
        }
        let remoteAppUpdateDataPerBundle: [Bundle]?
    }
    let appRecoveryId: String?
    let status: String?
    let targeting: Targeting?
    let remoteInAppUpdateData: UpdateData?

    /// The action in the package's shape; counts summed over the bundles.
    func action(redactor: Redactor) throws(HTTPClientError) -> PlayRecoveryAction {
        guard let id = appRecoveryId, PlayDeveloperAPIClient.isRecoveryID(id) else {
            let shown = redactor(appRecoveryId ?? "none").debugDescription
            throw .play(.exchange(.invalidPayload("a recovery action's appRecoveryId is \(shown), not an int64")))
        }
        let bundles = remoteInAppUpdateData?.remoteAppUpdateDataPerBundle ?? []
        let listed = targeting?.versionList?.versionCodes ?? bundles.compactMap(\.versionCode)
        var codes: [VersionCode] = []
        for text in listed {
            do throws(VersionError) {
                codes.append(try VersionCode(parsing: text))
            } catch {
                throw .play(.exchange(.invalidPayload("recovery action \(id): \(redactor(error.description))")))
            }
        }
        func total(_ count: KeyPath<UpdateData.Bundle, String?>) -> Int? {
            let counts = bundles.compactMap { $0[keyPath: count].flatMap { Int($0) } }
            return counts.isEmpty ? nil : counts.reduce(0, +)
        }
        return PlayRecoveryAction(
            appRecoveryID: id, status: .init(rawValue: status ?? PlayRecoveryAction.Status.unspecified.rawValue),
            versionCodes: codes, regions: targeting?.regions?.regionCode,
            recoveredDevices: total(\.recoveredDeviceCount), totalDevices: total(\.totalDeviceCount))
    }
}
