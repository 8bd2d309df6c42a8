import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Where `advance --state FILE` keeps a ``RolloutState``: the `rollout` key of a JSON object.
///
/// The file may be a watch's state: its other keys are kept as read. It is read with a size
/// limit, never through a FIFO, and replaced whole (atomically, beside itself) under an exclusive lock on
/// `FILE.lock`.
public enum RolloutStateFile {
    /// The most a state file may hold.
    static let limit = 16 << 20

    /// The state kept in `path`; `nil` when there is no file or it keeps none.
    ///
    /// - Throws: ``RolloutStateFileError`` naming the file: not JSON, not an object, or a
    ///   `rollout` key that is not a rollout state.
    public static func read(_ path: String) throws(RolloutStateFileError) -> RolloutState? {
        guard let object = try object(path), let kept = object["rollout"] else { return nil }
        do {
            let decoder = JSONDecoder()
            return try decoder.decode(RolloutState.self, from: kept.data)
        } catch let error as DecodingError {
            throw RolloutStateFileError("\(path): its \"rollout\" is not a rollout state: \(error.readableDescription)")
        } catch {
            throw RolloutStateFileError("\(path): its \"rollout\" is not a rollout state: \(error)")
        }
    }

    /// Keeps `state` as the `rollout` key of `path`, every other key as it is.
    ///
    /// - Parameters:
    ///   - state: The rollout's state.
    ///   - path: The file.
    ///   - held: The lock of `path` (``WatchStateFile/lock()``) the caller took for its whole run;
    ///     without it the file is locked for the write alone.
    /// - Throws: ``RolloutStateFileError`` naming the file; it is as it was.
    public static func write(
        _ state: RolloutState, to path: String, holding held: WatchStateFile.Lock? = nil
    ) throws(RolloutStateFileError) {
        var lock: AtomicFile.Lock?
        if held == nil {
            do throws(AtomicFile.Failure) {
                lock = try AtomicFile.lock(path + ".lock", waiting: false)
            } catch {
                throw RolloutStateFileError("\(path): cannot lock \(error.path): \(error.reason)")
            }
            guard lock != nil else { throw RolloutStateFileError("\(path) is being written by another process") }
        }
        defer { withExtendedLifetime((lock, held)) {} }
        var members: [String: JSONValue] = [:]
        if case .object(let kept)? = try object(path) { members = kept }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            members["rollout"] = try JSONValue(json: try encoder.encode(state))
            var data = try encoder.encode(JSONValue.object(members))
            data.append(UInt8(ascii: "\n"))
            try AtomicFile.replace(path, with: data)
        } catch let failure as AtomicFile.Failure {
            throw RolloutStateFileError("\(path): cannot \(failure.operation) \(failure.path): \(failure.reason)")
        } catch {
            throw RolloutStateFileError("\(path): cannot be written: \(error)")
        }
    }

    /// The file's JSON object; `nil` when there is no file.
    private static func object(_ path: String) throws(RolloutStateFileError) -> JSONValue? {
        let data: Data?
        do throws(RegularFile.Problem) {
            data = try RegularFile.contents(path, limit: limit)
        } catch {
            throw RolloutStateFileError("\(path): \(error)")
        }
        guard let data else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue(json: data)
        } catch {
            throw RolloutStateFileError("\(path) is not JSON: \(error)")
        }
        guard case .object = value else { throw RolloutStateFileError("\(path) is not a JSON object") }
        return value
    }
}

/// Why a rollout state file could not be read or written; the message names the file.
public struct RolloutStateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
