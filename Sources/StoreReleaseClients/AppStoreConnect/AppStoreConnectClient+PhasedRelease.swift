import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension AppStoreConnectClient {
    /// The `PATCH` that moves a phased release to `state`.
    ///
    /// Its body is an `AppStoreVersionPhasedReleaseUpdateRequest`.
    /// `PAUSED` pauses, `ACTIVE` resumes, `COMPLETE` releases to every user.
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` for an id that is empty, over 200
    ///   characters or holds a control character.
    public static func phasedReleaseRequest(id: String, state: PhasedRelease.State) throws(HTTPClientError)
        -> StoreRequest
    {
        guard !id.isEmpty, id.count <= 200,
            !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .connect(.invalidRequest("\(id.prefix(40).debugDescription) is not a phased release id"))
        }
        return StoreRequest(
            method: "PATCH", path: "/v1/appStoreVersionPhasedReleases/" + BaseURL.component(id),
            body: .object([
                "data": .object([
                    "type": .string("appStoreVersionPhasedReleases"), "id": .string(id),
                    "attributes": .object(["phasedReleaseState": .string(state.rawValue)]),
                ])
            ]))
    }

    /// Moves a phased release to `state` (``phasedReleaseRequest(id:state:)``).
    ///
    /// - Returns: The phased release as Apple answered it.
    /// - Throws: ``HTTPClientError``: Apple's 409 `STATE_ERROR` (a change it does not allow,
    ///   such as resuming after 30 days paused) is ``HTTPClientError/Code/httpStatus`` with its detail.
    public func setPhasedRelease(id: String, to state: PhasedRelease.State) async throws(HTTPClientError)
        -> PhasedRelease
    {
        struct Answer: Decodable { let data: AppStoreConnectDocuments.Versions.Included }
        let request = try Self.phasedReleaseRequest(id: id, state: state)
        let response = try await send(
            request.method, try url(request.path), body: request.body?.data, app: "phased release \(redactor(id))")
        let answer = try HTTPExchange.decode(
            Answer.self, from: response, failing: AppStoreConnectFailure.self, redactor: redactor)
        guard let phase = answer.data.phasedRelease else {
            throw .connect(.exchange(.invalidPayload("the phased release came back without a phasedReleaseState")))
        }
        return phase
    }
}
