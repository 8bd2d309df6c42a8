// The numbers flags take, each with its range and the words its error uses.

/// `text` as a number written in plain decimals (`24`, `0.5`, `.5`), else `nil`.
///
/// `Double(_:)` also takes what no person means on a command line and what reads as another
/// number than it is: a sign, an exponent (`1e-300`), hexadecimal (`0x18` is 24, `0x1p-4` is
/// 0.0625), `inf` and `nan`.
func plainDecimal(_ text: some StringProtocol) -> Double? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let digits = parts.joined()
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Double(text)
}

/// A number of seconds more than zero and at most a day (`--timeout 2.5`), as a duration rounded
/// up to the millisecond.
struct Seconds: ArgumentValue {
    let duration: Duration

    init(argument: String) throws(ArgumentProblem) {
        duration = try Self.duration(argument, zeroAllowed: false)
    }

    /// `argument` read as seconds, more than zero (or zero, when `zeroAllowed`), at most a day.
    static func duration(_ argument: String, zeroAllowed: Bool) throws(ArgumentProblem) -> Duration {
        guard let seconds = plainDecimal(argument), seconds.isFinite, seconds > 0 || (zeroAllowed && seconds == 0),
            seconds <= 86_400
        else {
            throw .value("\(argument.debugDescription) is not a number of seconds (such as 10 or 0.5)")
        }
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }
}

/// A number of seconds from zero to a day (`--interval 0` runs rounds back to back).
struct SecondsOrZero: ArgumentValue {
    let duration: Duration

    init(argument: String) throws(ArgumentProblem) {
        duration = try Seconds.duration(argument, zeroAllowed: true)
    }
}

/// A number of hours, zero or more (`--release-delay-hours 24`).
struct Hours: ArgumentValue {
    let hours: Double

    init(argument: String) throws(ArgumentProblem) {
        guard let hours = plainDecimal(argument), hours.isFinite, hours >= 0 else {
            throw .value("\(argument.debugDescription) is not a number of hours")
        }
        self.hours = hours
    }
}

/// A whole number of at least 1 (`--rounds 3`), digits only.
struct Count: ArgumentValue {
    let count: Int

    init(argument: String) throws(ArgumentProblem) {
        guard argument.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(argument), count >= 1 else {
            throw .value("\(argument.debugDescription) is not a whole number of at least 1")
        }
        self.count = count
    }
}

/// A number of MiB from 1 to 1048576 (1 TiB), digits only (`--memory 64`), as bytes.
struct Mebibytes: ArgumentValue {
    let bytes: Int

    init(argument: String) throws(ArgumentProblem) {
        guard argument.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(argument),
            (1...(1 << 20)).contains(value)
        else {
            throw .value("\(argument.debugDescription) is not a number of MiB from 1 to 1048576 (such as 64)")
        }
        bytes = value << 20
    }
}

/// A fraction from 0 to 1 (`--max-crash-rate 0.0109`).
struct Fraction: ArgumentValue {
    let value: Double

    init(argument: String) throws(ArgumentProblem) {
        guard let value = plainDecimal(argument), value.isFinite, (0...1).contains(value) else {
            throw .value("\(argument.debugDescription) is not a fraction between 0 and 1 (0.0109 is 1.09%)")
        }
        self.value = value
    }
}

/// How many lookups a minute this process may send (`--lookups-per-minute 20`): 1 to 6000.
struct LookupRate: ArgumentValue {
    let perMinute: Int

    init(argument: String) throws(ArgumentProblem) {
        guard let value = Int(argument), (1...6000).contains(value) else {
            throw .value("\(argument.debugDescription) is not a number from 1 to 6000")
        }
        perMinute = value
    }
}

/// Part K of N (`--shard 2/9`), 1 ≤ K ≤ N ≤ 64.
struct Shard: ArgumentValue {
    let part: Int
    let parts: Int

    /// The whole, part 1 of 1.
    static let whole = Shard(part: 1, parts: 1)

    private init(part: Int, parts: Int) {
        self.part = part
        self.parts = parts
    }

    init(argument: String) throws(ArgumentProblem) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), 1 <= k, k <= n, n <= 64 else {
            throw .value("\(argument.debugDescription) is not K/N with 1 ≤ K ≤ N ≤ 64 (such as 2/9)")
        }
        (part, self.parts) = (k, n)
    }
}
