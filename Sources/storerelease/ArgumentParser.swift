import StoreReleaseKit

/// A flag a command accepts: `--name VALUE` (or `--name=VALUE`) when it has a value, `--name` alone
/// when it does not.
struct OptionSpec: Sendable {
    let name: String
    /// What the value is called in help (`S`, `appstore|semver`); `nil` for a switch.
    let valueName: String?
    let help: String
    /// Whether the flag may be given more than once (`--health-file A --health-file B`).
    var repeats = false

    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// A flag with a value that may be given more than once; ``ParsedArguments/values(_:)`` reads them.
    static func repeatable(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeats: true)
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }
}

/// The arguments of one command, checked against its table of options.
struct ParsedArguments {
    /// The command they were given to, which every message starts with.
    let command: String
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// The values of flags that may repeat, in the order given.
    private var repeated: [String: [String]] = [:]
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// Parses `arguments` against `options`.
    ///
    /// `--` ends the flags; everything after it is positional. A token that starts with `-` and
    /// is not a known flag is an error that names it, so a typo never becomes a positional.
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming the flag that is unknown, repeated, or missing
    ///   its value.
    init(_ arguments: ArraySlice<String>, options: [OptionSpec], command: String) throws(CLIError) {
        self.command = command
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals.append(contentsOf: remaining)
                return
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("\(command): unknown flag \(name)" + Self.suggestion(for: name, in: options))
            }
            guard !flags.contains(name), values[name] == nil || spec.repeats else {
                throw .usage("\(command): \(name) is given more than once")
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil { throw .usage("\(command): \(name) takes no value") }
                flags.insert(name)
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw .usage("\(command): \(name) needs a value (\(valueName))")
            }
            values[name] = value
            if spec.repeats { repeated[name, default: []].append(value) }
        }
    }

    /// Splits `--name=value` into its parts.
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// ` (did you mean --scheme?)` for a near miss, else the flags the command has.
    private static func suggestion(for name: String, in options: [OptionSpec]) -> String {
        let names = options.map(\.name)
        if let close = NearMiss.closest(to: name, in: names) { return " (did you mean \(close)?)" }
        return names.isEmpty ? " (it takes no flags)" : " (its flags: \(names.joined(separator: ", ")))"
    }

    /// Every text of a flag that may repeat, in the order given.
    fileprivate func texts(_ name: String) -> [String] { repeated[name] ?? [] }

    /// The text of a flag (the last, for one that repeats), if it was given.
    fileprivate func text(_ name: String) -> String? { values[name] }

    /// Throws when arguments other than flags were given to a command that takes only flags.
    func requireOnlyFlags() throws(CLIError) {
        if let first = positionals.first {
            throw .usage("\(command): takes no arguments, only flags; got \(first.debugDescription)")
        }
    }

    /// Whether a switch was given.
    fileprivate func has(_ name: String) -> Bool { flags.contains(name) }
}

/// Reading the flags a command was given as typed values.
extension ParsedArguments {
    /// The option's value, if it was given (the last, for one that repeats).
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming the flag when its text is not a `Value`.
    func value<Value>(_ option: Option<Value>) throws(CLIError) -> Value? {
        guard let text = text(option.name) else { return nil }
        return try read(text, as: option)
    }

    /// Every value of an option that may repeat, in the order given.
    func values<Value>(_ option: Option<Value>) throws(CLIError) -> [Value] {
        var result: [Value] = []
        for text in texts(option.name) { result.append(try read(text, as: option)) }
        return result
    }

    /// The option's value, which the command cannot do without.
    ///
    /// - Throws: ``CLIError/usage(_:)`` `decide: --installed V is required` (and `why`) when it
    ///   was not given, or naming the flag when its text is not a `Value`.
    func required<Value>(_ option: Option<Value>, _ why: String = "") throws(CLIError) -> Value {
        guard let value = try value(option) else { throw .usage("\(command): \(option.usage) is required\(why)") }
        return value
    }

    /// Whether the option was given, whatever its value.
    func given<Value>(_ option: Option<Value>) -> Bool { text(option.name) != nil }

    /// The text the option was given, as typed (for a message that quotes it).
    func text<Value>(of option: Option<Value>) -> String? { text(option.name) }

    /// The first of `flags` (a group's table, an option) that was given, whatever its value.
    func firstGiven(_ flags: any OptionDeclarations) -> OptionSpec? {
        flags.specs.first { text($0.name) != nil || has($0.name) }
    }

    /// Refuses the first of `flags` that was given: it goes with `what` (`--platform googlePlay`),
    /// which was not.
    func refuse(_ flags: any OptionDeclarations..., goesWith what: String) throws(CLIError) {
        if let flag = firstGiven(OptionTable(flags)) { throw .usage("\(command): \(flag.name) goes with \(what)") }
    }

    /// Whether the switch was given.
    func has(_ flag: Switch) -> Bool { has(flag.name) }

    /// The error for a value of `option` that its type accepts but the command cannot use.
    func error<Value>(_ option: Option<Value>, _ problem: ArgumentProblem) -> CLIError {
        .usage("\(command): \(option.name)\(problem.separator)\(problem.text)")
    }

    private func read<Value>(_ text: String, as option: Option<Value>) throws(CLIError) -> Value {
        do throws(ArgumentProblem) {
            return try Value(argument: text)
        } catch {
            throw self.error(option, error)
        }
    }
}
