import StoreReleaseCore

/// Reads one script line into an event of the script's store, from the verb table
/// (``UpdateFlowVerb``).
enum UpdateFlowScriptParser {
    static func event(_ word: String, _ arguments: [String], store: Store, line: Int) throws(UpdateFlowScriptError)
        -> UpdateFlowEvent
    {
        let verbs = UpdateFlowVerb.verbs(of: store)
        let names = verbs.map(\.rawValue).joined(separator: ", ")
        guard let verb = UpdateFlowVerb(rawValue: word), verbs.contains(verb) else {
            let message: String
            if UpdateFlowVerb(rawValue: word) != nil {
                message = "\(word) is not a verb of the \(store) flow (its verbs: \(names))"
            } else if let close = verbs.first(where: {
                $0.rawValue.lowercased() == word.lowercased() || NearMiss.editDistance($0.rawValue, word) <= 2
            }) {
                message = "unknown verb \(word.debugDescription) (did you mean \(close.rawValue)?)"
            } else {
                message = "unknown verb \(word.debugDescription) (the \(store) verbs: \(names))"
            }
            throw UpdateFlowScriptError(line: line, message: message)
        }
        var reader = ArgumentReader(verb: word, arguments: arguments, line: line)
        let play: PlayFlowEvent?
        let appStore: AppStoreFlowEvent?
        switch verb {
        case .setUpdateAvailable:
            let code = try reader.integer("a versionCode", in: 1...VersionCode.maximum)
            (play, appStore) = (.setUpdateAvailable(versionCode: code, type: try reader.optionalUpdateType()), nil)
        case .setUpdateNotAvailable: (play, appStore) = (.setUpdateNotAvailable, nil)
        case .setUpdatePriority:
            (play, appStore) = (.setUpdatePriority(try reader.integer("a priority", in: 0...5)), nil)
        case .setClientVersionStalenessDays:
            let days = try reader.integerOrNull("a number of days", in: 0...100_000)
            (play, appStore) = (.setClientVersionStalenessDays(days), nil)
        case .setInstallErrorCode: (play, appStore) = (.setInstallErrorCode(try reader.installErrorCode()), nil)
        case .setTotalBytesToDownload:
            let bytes = Int64(try reader.integer("a byte count", in: 0...Int(Int64.max)))
            (play, appStore) = (.setTotalBytesToDownload(bytes), nil)
        case .setBytesDownloaded:
            let bytes = Int64(try reader.integer("a byte count", in: 0...Int(Int64.max)))
            (play, appStore) = (.setBytesDownloaded(bytes), nil)
        case .downloadStarts: (play, appStore) = (.downloadStarts, nil)
        case .downloadCompletes: (play, appStore) = (.downloadCompletes, nil)
        case .downloadFails: (play, appStore) = (.downloadFails, nil)
        case .userCancelsDownload: (play, appStore) = (.userCancelsDownload, nil)
        case .installCompletes: (play, appStore) = (.installCompletes, nil)
        case .installFails: (play, appStore) = (.installFails, nil)
        case .completeUpdate: (play, appStore) = (.completeUpdate, nil)
        case .startUpdateFlow:
            let type = try reader.updateType()
            let deleting = try reader.optionalWord("allowAssetPackDeletion")
            // The App Store has no asset packs: the flag changes nothing there.
            (play, appStore) = (.startUpdateFlow(type, allowAssetPackDeletion: deleting), .startUpdateFlow(type))
        case .setUpdatePreconditions:
            let type = try reader.updateType()
            let failed = try reader.preconditions()
            let deleting = try reader.optionalWord("allowedWithAssetPackDeletion")
            (play, appStore) = (
                .setUpdatePreconditions(type, failed: failed, allowedWithAssetPackDeletion: deleting), nil
            )
        case .userAcceptsUpdate: (play, appStore) = (.userAcceptsUpdate, .userAcceptsUpdate)
        case .userRejectsUpdate: (play, appStore) = (.userRejectsUpdate, .userRejectsUpdate)
        case .getAppUpdateInfo: (play, appStore) = (.getAppUpdateInfo, .getAppUpdateInfo)
        case .setStoreVersion: (play, appStore) = (nil, .setStoreVersion(try reader.version()))
        case .setInstalledVersion: (play, appStore) = (nil, .setInstalledVersion(try reader.version()))
        case .relaunch: (play, appStore) = (nil, .relaunch(try reader.version()))
        }
        try reader.finish()
        switch (store, play, appStore) {
        case (.appStore, _, let event?): return .appStore(event)
        case (.googlePlay, let event?, _), (.manifest, let event?, _): return .googlePlay(event)
        default: throw UpdateFlowScriptError(line: line, message: "\(word) is not a verb of the \(store) flow")
        }
    }

    /// Reads one line's arguments in order, each error naming the line, the verb and the value.
    struct ArgumentReader {
        let verb: String
        var arguments: ArraySlice<String>
        let line: Int

        init(verb: String, arguments: [String], line: Int) {
            self.verb = verb
            self.arguments = arguments[...]
            self.line = line
        }

        func fail(_ message: String) -> UpdateFlowScriptError {
            UpdateFlowScriptError(line: line, message: "\(verb): \(message)")
        }

        mutating func next(_ what: String) throws(UpdateFlowScriptError) -> String {
            guard let argument = arguments.popFirst() else { throw fail("needs \(what)") }
            return argument
        }

        mutating func integer(_ what: String, in range: ClosedRange<Int>) throws(UpdateFlowScriptError) -> Int {
            let text = try next(what)
            guard let value = Int(text), range.contains(value) else {
                throw fail(
                    "\(text.debugDescription) is not \(what) (a whole number in \(range.lowerBound)...\(range.upperBound))"
                )
            }
            return value
        }

        mutating func integerOrNull(_ what: String, in range: ClosedRange<Int>) throws(UpdateFlowScriptError) -> Int? {
            if arguments.first == "null" {
                arguments.removeFirst()
                return nil
            }
            return try integer(what + " or null", in: range)
        }

        mutating func updateType() throws(UpdateFlowScriptError) -> AppUpdateType {
            let text = try next("an update type (flexible or immediate)")
            guard let type = AppUpdateType(name: text) else {
                throw fail("\(text.debugDescription) is not an update type (flexible or immediate)")
            }
            return type
        }

        mutating func optionalUpdateType() throws(UpdateFlowScriptError) -> AppUpdateType? {
            arguments.isEmpty ? nil : try updateType()
        }

        /// `word` if it is the next argument (then true), nothing (false), or an error naming what came.
        mutating func optionalWord(_ word: String) throws(UpdateFlowScriptError) -> Bool {
            guard !arguments.isEmpty else { return false }
            let text = try next(word)
            guard text == word else { throw fail("\(text.debugDescription) is not \(word)") }
            return true
        }

        /// `none`, or Play's precondition names or numbers, comma-separated.
        mutating func preconditions() throws(UpdateFlowScriptError) -> Set<UpdatePrecondition> {
            let text = try next("preconditions (INSUFFICIENT_STORAGE,…) or none")
            guard text != "none" else { return [] }
            var failed: Set<UpdatePrecondition> = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                failed.insert(try parsed(String(part), UpdatePrecondition.init(parsing:)))
            }
            return failed
        }

        mutating func installErrorCode() throws(UpdateFlowScriptError) -> InstallErrorCode {
            try parsed(
                try next("an install error code (-6 or ERROR_INSTALL_NOT_ALLOWED)"), InstallErrorCode.init(parsing:))
        }

        mutating func version() throws(UpdateFlowScriptError) -> Version {
            try parsed(try next("a version")) { text throws(VersionError) in try Version(parsing: text) }
        }

        /// `text` read by a parser of the core, its error's words the line's message.
        func parsed<Value, Failure: Error & CustomStringConvertible>(
            _ text: String, _ parse: (String) throws(Failure) -> Value
        ) throws(UpdateFlowScriptError) -> Value {
            do throws(Failure) {
                return try parse(text)
            } catch {
                throw fail(error.description)
            }
        }

        func finish() throws(UpdateFlowScriptError) {
            if let extra = arguments.first { throw fail("unexpected argument \(extra.debugDescription)") }
        }
    }
}
