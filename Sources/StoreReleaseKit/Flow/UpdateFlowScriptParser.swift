/// The table of script verbs: what each takes, and the event it makes.
enum UpdateFlowScriptParser {
    static let playVerbs = [
        "setUpdateAvailable", "setUpdateNotAvailable", "setUpdatePriority", "setClientVersionStalenessDays",
        "setInstallErrorCode", "userAcceptsUpdate", "userRejectsUpdate", "downloadStarts", "setTotalBytesToDownload",
        "setBytesDownloaded", "downloadCompletes", "downloadFails", "userCancelsDownload", "installCompletes",
        "installFails", "startUpdateFlow", "completeUpdate", "getAppUpdateInfo",
    ]
    static let appStoreVerbs = [
        "setStoreVersion", "setInstalledVersion", "getAppUpdateInfo", "startUpdateFlow", "userAcceptsUpdate",
        "userRejectsUpdate", "relaunch",
    ]

    static func event(_ verb: String, _ arguments: [String], store: Store, line: Int) throws(UpdateFlowScriptError)
        -> UpdateFlowEvent
    {
        let verbs = store == .appStore ? appStoreVerbs : playVerbs
        guard verbs.contains(verb) else {
            let other = store == .appStore ? playVerbs : appStoreVerbs
            let message: String
            if other.contains(verb) {
                message = "\(verb) is not a verb of the \(store) flow (its verbs: \(verbs.joined(separator: ", ")))"
            } else if let close = verbs.first(where: {
                $0.lowercased() == verb.lowercased() || NearMiss.editDistance($0, verb) <= 2
            }) {
                message = "unknown verb \(verb.debugDescription) (did you mean \(close)?)"
            } else {
                message = "unknown verb \(verb.debugDescription) (the \(store) verbs: \(verbs.joined(separator: ", ")))"
            }
            throw UpdateFlowScriptError(line: line, message: message)
        }
        var reader = ArgumentReader(verb: verb, arguments: arguments, line: line)
        let event: UpdateFlowEvent
        switch verb {
        case "setUpdateAvailable":
            let code = try reader.integer("a versionCode", in: 1...VersionCode.maximum)
            event = .setUpdateAvailable(versionCode: code, type: try reader.optionalUpdateType())
        case "setUpdatePriority": event = .setUpdatePriority(try reader.integer("a priority", in: 0...5))
        case "setClientVersionStalenessDays":
            event = .setClientVersionStalenessDays(try reader.integerOrNull("a number of days", in: 0...100_000))
        case "setInstallErrorCode": event = .setInstallErrorCode(try reader.installErrorCode())
        case "setTotalBytesToDownload":
            event = .setTotalBytesToDownload(Int64(try reader.integer("a byte count", in: 0...Int(Int64.max))))
        case "setBytesDownloaded":
            event = .setBytesDownloaded(Int64(try reader.integer("a byte count", in: 0...Int(Int64.max))))
        case "startUpdateFlow": event = .startUpdateFlow(try reader.updateType())
        case "setStoreVersion": event = .setStoreVersion(try reader.version())
        case "setInstalledVersion": event = .setInstalledVersion(try reader.version())
        case "relaunch": event = .relaunch(try reader.version())
        case "setUpdateNotAvailable": event = .setUpdateNotAvailable
        case "userAcceptsUpdate": event = .userAcceptsUpdate
        case "userRejectsUpdate": event = .userRejectsUpdate
        case "downloadStarts": event = .downloadStarts
        case "downloadCompletes": event = .downloadCompletes
        case "downloadFails": event = .downloadFails
        case "userCancelsDownload": event = .userCancelsDownload
        case "installCompletes": event = .installCompletes
        case "installFails": event = .installFails
        case "completeUpdate": event = .completeUpdate
        default: event = .getAppUpdateInfo
        }
        try reader.finish()
        return event
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

        mutating func installErrorCode() throws(UpdateFlowScriptError) -> InstallErrorCode {
            let text = try next("an install error code (-6 or ERROR_INSTALL_NOT_ALLOWED)")
            do throws(PlayConstantError) {
                return try InstallErrorCode(parsing: text)
            } catch {
                throw fail(error.description)
            }
        }

        mutating func version() throws(UpdateFlowScriptError) -> Version {
            let text = try next("a version")
            do throws(VersionError) {
                return try Version(parsing: text)
            } catch {
                throw fail(error.description)
            }
        }

        func finish() throws(UpdateFlowScriptError) {
            if let extra = arguments.first { throw fail("unexpected argument \(extra.debugDescription)") }
        }
    }
}
