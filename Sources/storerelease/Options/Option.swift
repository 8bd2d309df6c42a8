/// A flag of the tool, declared once: its name, what its value is called in help, its help, and
/// (through `Value`) the type its text is read as.
///
/// A command's table lists its own options and its groups' tables (``OptionTable``); the
/// options are read as typed values from ``ParsedArguments`` and named in messages by
/// interpolating the option, so the flag's name is written in one place.
struct Option<Value: ArgumentValue>: OptionDeclarations, CustomStringConvertible {
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

    var specs: [OptionSpec] { [spec] }

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
struct Switch: OptionDeclarations, CustomStringConvertible {
    let spec: OptionSpec

    init(_ name: String, _ help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help)
    }

    /// The flag's name, `--reverse`.
    var name: String { spec.name }

    var description: String { spec.name }

    var specs: [OptionSpec] { [spec] }
}
