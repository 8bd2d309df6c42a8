import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension RolloutStateFile {
    /// What a state file is, for an error about a file that is not one.
    static let whatItIs =
        "a state file is a JSON object, as advance or a watch writes it, the rollout's step under its \"rollout\" key"

    /// The file's JSON object; `nil` when there is no file yet (in a folder that exists).
    ///
    /// Read as a watch reads its state: never through a link, a FIFO or a folder, with a size limit.
    static func object(_ path: String) throws(RolloutStateFileError) -> JSONValue? {
        let data: Data?
        do throws(WatchStateFileError) {
            data = try WatchStateFile(path: path).contents()
        } catch {
            throw RolloutStateFileError("\(error)")
        }
        guard let data else {
            try requireFolder(of: path)
            return nil
        }
        guard StrictJSON.firstByte(of: data) != nil else { throw notAState(path, "it is empty") }
        let value: JSONValue
        do {
            value = try JSONValue(json: data)
        } catch let error as DecodingError {
            throw notAState(path, "it is not JSON (\(problem(error, in: data)))")
        } catch {
            throw notAState(path, "it is not JSON (\(error))")
        }
        guard case .object = value else { throw notAState(path, "it is JSON, but not an object") }
        return value
    }

    /// What makes `object` (a watch's state) the state of another app or track than `app` and
    /// `track`, or `nil`; only what both name is compared, as a watch compares its state.
    static func conflict(in object: JSONValue, app: ReleaseSnapshot.App?, track: String?) -> String? {
        if let app, let kept = object["app"],
            let theirs = try? JSONDecoder().decode(ReleaseSnapshot.App.self, from: kept.data),
            let conflict = ReleaseHistory.conflict(theirs, app)
        {
            return conflict
        }
        if let track, let theirs = object["googlePlay"]?["track"]?.string, theirs != track {
            return "its Play track is \(theirs.debugDescription), not \(track.debugDescription)"
        }
        return nil
    }

    /// A file not yet there is written later: its folder must be there, or the write fails after
    /// the stores were changed.
    private static func requireFolder(of path: String) throws(RolloutStateFileError) {
        if let folder = RegularFile.missingFolder(of: path) {
            throw RolloutStateFileError(
                "state file \(path.debugDescription) cannot be kept: its folder \(folder.debugDescription) does not exist"
            )
        }
    }

    private static func notAState(_ path: String, _ why: String) -> RolloutStateFileError {
        RolloutStateFileError("\(path.debugDescription) is not a state file: \(why); \(whatItIs)")
    }

    /// Where the text stops being JSON (the decoder says only "not valid JSON"), or the key path
    /// of a repeated key.
    private static func problem(_ error: DecodingError, in data: Data) -> String {
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty else {
            return error.readableDescription
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        return error.readableDescription
    }
}
