/// A flag of the tool, declared once: its name, what its value is called in help, its help, and
/// (through `Value`) the type its text is read as.
///
/// Commands list the options they take (their ``spec``s make the help and the table the parser
/// checks), read them as typed values from ``ParsedArguments``, and name them in messages by
/// interpolating the option, so the flag's name is written in one place.
struct Option<Value: ArgumentValue>: Sendable, CustomStringConvertible {
    /// The flag as the parser and the help see it.
    let spec: OptionSpec

    /// An option taking a value: `--name VALUE` or `--name=VALUE`; with `repeats`, more than once.
    init(_ name: String, _ valueName: String, _ help: String, repeats: Bool = false) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, repeats: repeats)
    }

    private init(spec: OptionSpec) {
        self.spec = spec
    }

    /// The flag's name, `--timeout`.
    var name: String { spec.name }

    /// The flag's name, for messages: `"\(Self.timeout) goes with …"`.
    var description: String { spec.name }

    /// `--timeout S`, the flag with its value's name.
    var usage: String { spec.valueName.map { "\(name) \($0)" } ?? name }

    /// Another flag of the same type: an alias (`--apple-id` for `--id`).
    func renamed(_ name: String, help: String) -> Option {
        Option(name, spec.valueName ?? "", help, repeats: spec.repeats)
    }

    /// The same flag with the help a command gives it (and the name of its value there).
    func help(_ help: String, valueName: String? = nil) -> Option {
        Option(
            spec: OptionSpec(
                name: spec.name, valueName: valueName ?? spec.valueName, help: help, repeats: spec.repeats))
    }
}

extension Option where Value: ChoiceArgument {
    /// An option whose value is one of the words of `Value`, named `json|text` in help.
    init(_ name: String, _ help: String) {
        self.init(name, Value.valueName, help)
    }
}

/// A flag without a value (`--reverse`), declared once.
struct Switch: Sendable, CustomStringConvertible {
    let spec: OptionSpec

    init(_ name: String, _ help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help)
    }

    var description: String { spec.name }
}

/// Reading the flags a command was given as typed values.
extension ParsedArguments {
    /// The option's value, if it was given (the last, for one that repeats).
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming the flag when its text is not a `Value`.
    func value<Value>(_ option: Option<Value>) throws(CLIError) -> Value? {
        guard let text = value(option.name) else { return nil }
        return try read(text, as: option)
    }

    /// Every value of an option that may repeat, in the order given.
    func values<Value>(_ option: Option<Value>) throws(CLIError) -> [Value] {
        var result: [Value] = []
        for text in values(option.name) { result.append(try read(text, as: option)) }
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
    func given<Value>(_ option: Option<Value>) -> Bool { value(option.name) != nil }

    /// Whether a flag was given, whatever its value.
    func given(_ spec: OptionSpec) -> Bool { value(spec.name) != nil || has(spec.name) }

    /// Refuses the flags of `specs` that were given: they go with `what` (`--platform googlePlay`),
    /// which was not.
    func refuse(_ specs: [OptionSpec], goesWith what: String) throws(CLIError) {
        if let flag = specs.first(where: { given($0) }) { throw .usage("\(command): \(flag.name) goes with \(what)") }
    }

    /// Whether the switch was given.
    func has(_ flag: Switch) -> Bool { has(flag.spec.name) }

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
