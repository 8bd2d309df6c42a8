import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension PlayDeveloperAPIClient {
    /// The path an edit's track is written to; `edit` is the edit's id (a plan shows `{editId}`).
    ///
    /// - Throws: ``HTTPClientError/Code/invalidRequest`` for a bad package or track name.
    public static func trackPath(_ track: String, packageName: String, edit: String) throws(HTTPClientError)
        -> String
    {
        try applicationPath(packageName) + "/edits/" + editSegment(edit) + "/tracks/" + trackSegment(track)
    }

    /// The `PUT` of `edits.tracks.update` that `change` sends, for `track` as read.
    ///
    /// - Parameters:
    ///   - change: The release and its new status.
    ///   - track: The track as the API answered it (or a ``PlayTrack`` encoded: ``JSONValue/init(encoding:)``).
    ///   - packageName: The app.
    ///   - edit: The edit's id; `{editId}` in a plan, which opens its edit only when applied.
    /// - Returns: The request, its body the whole track.
    /// - Throws: ``HTTPClientError/Code/conflict`` when the track does not hold the release as
    ///   `change` expects; ``HTTPClientError/Code/invalidRequest`` for a bad name.
    public static func trackUpdateRequest(
        _ change: PlayReleaseChange, track: JSONValue, packageName: String, edit: String = "{editId}"
    ) throws(HTTPClientError) -> StoreRequest {
        StoreRequest(
            method: "PUT", path: try trackPath(change.track, packageName: packageName, edit: edit),
            body: try change.applied(to: track))
    }

    /// The `POST` that commits an edit.
    public static func commitRequest(packageName: String, edit: String = "{editId}") throws(HTTPClientError)
        -> StoreRequest
    {
        StoreRequest(
            method: "POST", path: try applicationPath(packageName) + "/edits/" + editSegment(edit) + ":commit",
            body: nil)
    }

    /// An edit id as a path segment; the plan's placeholder `{editId}` as it is.
    static func editSegment(_ edit: String) -> String {
        edit == "{editId}" ? edit : BaseURL.component(edit)
    }

    /// Applies `change` through one edit: opened, the track read, updated, committed.
    ///
    /// Every other release of the track goes back exactly as the edit read it (a completion
    /// replaces the earlier completed release: ``PlayReleaseChange/applied(to:)``). On any
    /// failure (the release is not as `change` expects, Play refuses the update or the commit,
    /// the exchange fails) the edit is deleted: nothing is ever half-committed. The update and
    /// the commit are each sent once: a commit answered with a 5xx, or not answered in time, may
    /// have been applied, so it is never sent again; the caller reads the track back to tell
    /// (``ReleaseActor`` does). A commit Play holds for review ("set the query parameter
    /// changesNotSentForReview to true", a 400: nothing applied) is sent again once with
    /// `?changesNotSentForReview=true`, as Play Console's own tools do.
    ///
    /// - Returns: The track as committed.
    /// - Throws: ``HTTPClientError``; Play's 500 for a track left with nothing serving is
    ///   ``HTTPClientError/Code/httpStatus``.
    public func apply(_ change: PlayReleaseChange, packageName: String) async throws(HTTPClientError) -> PlayTrack {
        let application = try Self.applicationPath(packageName)
        _ = try Self.trackSegment(change.track)
        guard let opened = try await send("POST", application + "/edits", packageName: packageName) else {
            throw .play(.exchange(.invalidPayload("the new edit came without an id")))
        }
        let edit = try decode(Edit.self, from: opened).id
        let editPath = application + "/edits/" + BaseURL.component(edit)
        do throws(HTTPClientError) {
            let path = try Self.trackPath(change.track, packageName: packageName, edit: edit)
            guard let read = try await send("GET", path, packageName: packageName, track: change.track) else {
                throw .play(.releaseChanged("the Play track \(change.track) has no releases now"))
            }
            let track = try decode(JSONValue.self, from: read)
            let update = try Self.trackUpdateRequest(change, track: track, packageName: packageName, edit: edit)
            guard
                let written = try await send(
                    update.method, update.path, body: update.body?.data, packageName: packageName, track: change.track,
                    retrying: false)
            else { throw .play(.exchange(.invalidPayload("the track update came back empty"))) }
            let committed = try decode(PlayTrack.self, from: written)
            try await commit(editPath, packageName: packageName)
            return committed
        } catch {
            await deleteEdit(editPath, packageName: packageName)
            throw error
        }
    }

    /// Commits an edit, once more with `?changesNotSentForReview=true` when Play asks for it.
    private func commit(_ editPath: String, packageName: String) async throws(HTTPClientError) {
        do throws(HTTPClientError) {
            _ = try await send("POST", editPath + ":commit", packageName: packageName, retrying: false)
        } catch {
            guard case .play(.httpStatus(400, let message?)) = error.reason,
                message.contains("changesNotSentForReview to true")
            else { throw error }
            _ = try await send(
                "POST", editPath + ":commit?changesNotSentForReview=true", packageName: packageName, retrying: false)
        }
    }
}
