import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// A watch's history read back: its rounds, oldest first, and the torn last line it skipped.
///
/// Read from the JSON lines `watch --history FILE` appends (``ReleaseHistoryFile``). A watcher
/// killed mid-write leaves at most its last line torn; that line is skipped and named in
/// ``tornLine``, and every line before it is read as written. Any other line that is not a round,
/// a history without rounds, and a round of another app than the first are refused, naming the
/// file and the line.
public struct ReleaseHistory: Sendable, Hashable {
    /// The rounds, in the order they were written.
    public var rounds: [ReleaseHistoryRound]
    /// The number (from 1) of a torn last line that was skipped, if there was one.
    public var tornLine: Int?

    /// A history of these rounds.
    public init(rounds: [ReleaseHistoryRound], tornLine: Int? = nil) {
        self.rounds = rounds
        self.tornLine = tornLine
    }

    /// Reads the JSON lines of a history file.
    ///
    /// Blank lines are skipped. A last line without its line feed that is not a round is the
    /// torn end of an interrupted write: skipped, and named in ``tornLine``.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The file, for messages.
    /// - Throws: ``ReleaseHistoryFileError/notAHistory(path:line:reason:)`` for a line that is
    ///   not a round, ``ReleaseHistoryFileError/empty(path:tornLine:)`` when no line is,
    ///   ``ReleaseHistoryFileError/otherApp(path:line:reason:)`` for a round of another app.
    public init(parsing data: Data, path: String) throws(ReleaseHistoryFileError) {
        var rounds: [ReleaseHistoryRound] = []
        var torn: Int?
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let endsWithLineFeed = data.last == UInt8(ascii: "\n")
        var first: (app: ReleaseSnapshot.App, line: Int)?
        for (index, bytes) in lines.enumerated() {
            let number = index + 1
            let isLast = index == lines.count - 1
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) {
                continue
            }
            let round: ReleaseHistoryRound
            do {
                round = try StrictJSON.decode(ReleaseHistoryRound.self, from: Data(bytes))
            } catch {
                if isLast, !endsWithLineFeed {
                    torn = number
                    continue
                }
                let reason =
                    (rounds.isEmpty ? Self.oneDocument(data) : nil)
                    ?? (error as? DecodingError)?.readableDescription
                    ?? "not JSON"
                throw .notAHistory(path: path, line: number, reason: reason)
            }
            if let app = round.app {
                if let first, let conflict = Self.conflict(app, first.app) {
                    throw .otherApp(path: path, line: number, reason: "\(conflict) (line \(first.line) names the app)")
                }
                if first == nil { first = (app, number) }
            }
            rounds.append(round)
        }
        guard !rounds.isEmpty else { throw .empty(path: path, tornLine: torn) }
        self.init(rounds: rounds, tornLine: torn)
    }

    /// What a file is whose first line is no round, when the whole file is one JSON document over
    /// several lines: a watch's state (a snapshot), or another; `nil` when it is not.
    static func oneDocument(_ data: Data) -> String? {
        let lines = data.split(separator: UInt8(ascii: "\n")).filter {
            StrictJSON.firstByte(of: Data($0)) != nil
        }
        guard lines.count > 1, (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
        else { return nil }
        let history = "a history is one JSON object a line, a round each, as a watch appends it"
        if (try? StrictJSON.decode(ReleaseSnapshot.self, from: data)) != nil {
            return "it looks like a watch's state file or a snapshot, not a history: "
                + "one JSON object over \(lines.count) lines; \(history)"
        }
        return "it is one JSON document over \(lines.count) lines, not a history; \(history)"
    }

    /// `rounds` in time order (rounds taken at the same time as written), or the earliest and the
    /// latest round when they span more than `limit` (a clock that was wrong for one of them).
    package static func inTimeOrder(_ rounds: [ReleaseHistoryRound], within limit: TimeInterval)
        -> Result<[ReleaseHistoryRound], ReleaseHistorySpan>
    {
        let numbered = rounds.enumerated().sorted {
            ($0.element.takenAt, $0.offset) < ($1.element.takenAt, $1.offset)
        }
        if let first = numbered.first, let last = numbered.last,
            last.element.takenAt.timeIntervalSince(first.element.takenAt) > limit
        {
            return .failure(
                ReleaseHistorySpan(
                    first: .init(number: first.offset + 1, takenAt: first.element.takenAt),
                    last: .init(number: last.offset + 1, takenAt: last.element.takenAt)))
        }
        return .success(numbered.map(\.element))
    }

    /// The versions the history saw on either store, lowest first.
    public var versions: [Version] {
        var seen = Set<Version>()
        for round in rounds {
            for release in round.googlePlay?.releases ?? [] {
                if let version = release.version { seen.insert(version) }
            }
            for connect in round.appStoreConnect ?? [] {
                if let version = connect.version.parsed { seen.insert(version) }
            }
            for version in round.storefronts?.keys ?? [:].keys { seen.insert(version) }
        }
        return seen.sorted()
    }

    /// What makes `app` another app than `first`, or `nil`: only what both name is compared.
    static func conflict(_ app: ReleaseSnapshot.App, _ first: ReleaseSnapshot.App) -> String? {
        let pairs: [(String, String?, String?)] = [
            ("App Store id", app.appStoreID, first.appStoreID),
            ("bundle id", app.bundleID, first.bundleID),
            ("package", app.packageName, first.packageName),
        ]
        for case (let what, let mine?, let theirs?) in pairs where mine != theirs {
            return "its \(what) is \(mine.debugDescription), not \(theirs.debugDescription)"
        }
        return nil
    }
}

/// Rounds of a history that span too long: the earliest and the latest.
package struct ReleaseHistorySpan: Error, Sendable, Hashable, CustomStringConvertible {
    /// The earliest round: its number (from 1, in the order written) and its time.
    package let first: ReleaseTimelineError.Round
    /// The latest round.
    package let last: ReleaseTimelineError.Round

    /// `the rounds span 18,000 days, from round 60 (1970-…) to round 121 (2021-…)`.
    package var description: String {
        let days = Int(last.takenAt.timeIntervalSince(first.takenAt) / 86400)
        return "the rounds span \(days) days, from round \(first.number) "
            + "(\(ISO8601Timestamp.string(from: first.takenAt))) to round \(last.number) "
            + "(\(ISO8601Timestamp.string(from: last.takenAt)))"
    }
}
