import StoreReleaseCore

/// A script of update-flow events, one a line, as `storerelease simulate` reads it.
///
/// ```
/// # A flexible update, start to finish.
/// setUpdateAvailable 42
/// startUpdateFlow flexible
/// userAcceptsUpdate
/// ```
///
/// The verbs are ``UpdateFlowVerb``'s: `FakeAppUpdateManager`'s method names plus the app's own
/// calls (`startUpdateFlow flexible|immediate`, `completeUpdate`, `getAppUpdateInfo`). A first
/// line `store appStore` switches to the App Store flow, whose verbs are
/// ``UpdateFlowVerb/verbs(of:)`` of ``Store/appStore``. Blank lines and `#` comments are ignored.
public struct UpdateFlowScript: Sendable {
    /// One event line.
    struct Line: Sendable {
        let number: Int
        let text: String
        let event: UpdateFlowEvent
    }

    /// The store whose flow the script drives.
    public let store: Store
    let lines: [Line]

    /// Parses a script.
    ///
    /// - Throws: ``UpdateFlowScriptError`` naming the first malformed line: an unknown verb, a
    ///   verb of the other store, a missing, extra or bad argument, or a misplaced `store` line.
    public init(parsing text: String) throws(UpdateFlowScriptError) {
        var store = Store.googlePlay
        var lines: [Line] = []
        var sawEvent = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = Self.stripComment(raw)
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let verb = words.first else { continue }
            if verb == "store" {
                guard !sawEvent else {
                    throw UpdateFlowScriptError(line: number, message: "the store line must come before every event")
                }
                guard words.count == 2,
                    let chosen = [Store.appStore, .googlePlay].first(where: { $0.name == words[1] })
                else {
                    throw UpdateFlowScriptError(
                        line: number, message: "expected `store appStore` or `store googlePlay`")
                }
                store = chosen
                sawEvent = true
                continue
            }
            sawEvent = true
            let event = try UpdateFlowScriptParser.event(verb, Array(words.dropFirst()), store: store, line: number)
            lines.append(Line(number: number, text: words.joined(separator: " "), event: event))
        }
        self.store = store
        self.lines = lines
    }

    /// A line without its comment: `#` at the start or after white space begins one.
    private static func stripComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous == " " || previous == "\t" { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    /// Runs the script on a fresh flow and returns one step per event line.
    public func run() -> [UpdateFlowStep] {
        var machine = UpdateFlowMachine(store: store)
        return lines.map { line in
            let outcome: Result<[UpdateFlowAction], UpdateFlowError>
            do throws(UpdateFlowError) {
                outcome = .success(try machine.handle(line.event))
            } catch {
                outcome = .failure(error)
            }
            return UpdateFlowStep(line: line.number, event: line.text, outcome: outcome, machine: machine)
        }
    }
}

/// A malformed script line: its number (from 1) and what is wrong.
public struct UpdateFlowScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, from 1.
    public let line: Int
    /// What is wrong with the line.
    public let message: String

    /// `line 3: unknown verb "dowloadStarts" (did you mean downloadStarts?)`.
    public var description: String { "line \(line): \(message)" }
}
