/// A value a flag carries (`--timeout 2.5`, `--format text`, `--countries us,cn`), read from the
/// flag's text in one place: the type says what the text must be and why it is not.
///
/// The model is swift-argument-parser's `ExpressibleByArgument`, with a typed error: the type
/// throws only what is wrong with the text, and ``ParsedArguments`` puts the command and the flag
/// in front, so every bad value names its flag (exit 2) whatever the type, and no message is
/// matched to find the flag again.
protocol ArgumentValue: Sendable {
    /// Reads the value from the flag's text.
    ///
    /// - Throws: ``ArgumentProblem`` saying what is wrong with `argument`.
    init(argument: String) throws(ArgumentProblem)
}

/// What is wrong with a flag's value: the words that follow the flag's name in the message.
struct ArgumentProblem: Error, Sendable {
    /// What is wrong (`"x" is not a number of seconds (such as 10 or 0.5)`).
    let text: String
    /// What stands between the flag and ``text``: a space, or a colon for a part of the value
    /// or a rule it breaks (`--countries: "x" is not …`).
    let separator: String

    /// A problem with the whole value: `--timeout "x" is not …`.
    static func value(_ text: String) -> ArgumentProblem {
        ArgumentProblem(text: text, separator: " ")
    }

    /// A problem with a part of the value, or a rule it breaks: `--countries: "x" is not …`.
    static func detail(_ text: String) -> ArgumentProblem {
        ArgumentProblem(text: text, separator: ": ")
    }
}

extension ArgumentProblem {
    /// What `read` makes of the whole value; its error's sentence is the problem (`--version-code
    /// "x": unexpected character …`).
    static func read<Value, Failure: Error>(_ read: () throws(Failure) -> Value) throws(ArgumentProblem) -> Value {
        do throws(Failure) {
            return try read()
        } catch {
            throw .value("\(error)")
        }
    }

    /// What `parse` reads from `argument`; when it reads nothing, `"x" is not <what>`.
    static func parsed<Value>(_ argument: String, _ parse: (String) -> Value?, isNot what: String)
        throws(ArgumentProblem) -> Value
    {
        guard let value = parse(argument) else { throw .value("\(argument.debugDescription) is not \(what)") }
        return value
    }
}

/// A value named by one of a few words (`--format json|text`), each listed once, in the order
/// help and errors give them.
protocol ChoiceArgument: ArgumentValue {
    /// Every word the flag takes, with the value it names.
    static var choices: [(name: String, value: Self)] { get }

    /// What the error says of a text that is none of the words; by default
    /// `"x" is not json, text or markdown`.
    static func notAChoice(_ text: String) -> ArgumentProblem
}

extension ChoiceArgument {
    /// The value whose word `argument` is.
    init(argument: String) throws(ArgumentProblem) {
        guard let choice = Self.choices.first(where: { $0.name == argument }) else {
            throw Self.notAChoice(argument)
        }
        self = choice.value
    }

    /// `json|text|markdown`, the value's name in help.
    static var valueName: String { choices.map(\.name).joined(separator: "|") }

    /// `json, text or markdown`.
    static var spelledOut: String {
        let names = choices.map(\.name)
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    static func notAChoice(_ text: String) -> ArgumentProblem {
        .value("\(text.debugDescription) is not \(spelledOut)")
    }
}

extension ChoiceArgument where Self: CaseIterable & RawRepresentable<String> {
    /// The cases, each named by its raw value, in declaration order.
    static var choices: [(name: String, value: Self)] { allCases.map { (name: $0.rawValue, value: $0) } }
}
