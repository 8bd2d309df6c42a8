/// Standard input read for `sort` a part at a time: whole lines, each part small enough that
/// sorting it stays within a memory budget, every line checked against a length limit as it
/// arrives (a stream without line breaks, such as `/dev/zero`, is caught after that many bytes).
/// A UTF-8 byte-order mark at the very start is dropped.
struct InputLineParts {
    /// What sorting a part holds, in bytes: the part, its sorted copy, and two 8-byte keys a
    /// line (the keys and the radix sort's scratch) with room to spare.
    static func cost(bytes: Int, lines: Int) -> Int { 2 * bytes + 24 * lines }

    private let descriptor: Int32
    private let maximumLineLength: Int
    private let budget: Int
    /// Bytes read past the end of the last part.
    private var pending: [UInt8] = []
    /// Lines in the parts already returned.
    private var linesBefore = 0
    private var first = true
    /// Whether the input has been read to its end: the part returned last was the last.
    private(set) var ended = false

    /// Parts of the input on `descriptor`, each costing (``cost(bytes:lines:)``) about `budget`
    /// bytes at most (a last read may take it a sixty-fourth over).
    init(descriptor: Int32 = 0, maximumLineLength: Int, budget: Int) {
        self.descriptor = descriptor
        self.maximumLineLength = maximumLineLength
        self.budget = budget
    }

    /// The next part, `nil` after the last; or the number of the first line that is too long.
    mutating func next() throws(CLIError) -> Result<[UInt8]?, StandardStreams.LineTooLong> {
        if ended { return .success(nil) }
        // Where the line being read starts. Any line that ends in a window of
        // `maximumLineLength + 1` bytes from there is short enough, so the check looks for the
        // last "\n" of each window, backwards from its end: a few bytes a window, not every byte.
        var lineStart = 0
        var tooLong = false
        // Below this many bytes a part is within the budget whatever its lines (each has at
        // least two bytes); past it, its lines are counted.
        let uncounted = budget / (Self.cost(bytes: 2, lines: 1) / 2)
        var counted = 0
        var lines = 0
        var overBudget = false
        let budget = budget
        let maximumLineLength = maximumLineLength
        var (bytes, complete) = try StandardStreams.read(
            from: descriptor, initial: pending, sizeLimit: max(budget / 2, maximumLineLength + 2),
            readSize: max(budget / 64, 64 << 10)
        ) { bytes in
            while true {
                let windowEnd = lineStart + maximumLineLength + 1
                var index = min(windowEnd, bytes.count)
                repeat { index -= 1 } while index >= lineStart && bytes[index] != UInt8(ascii: "\n")
                if index >= lineStart {
                    lineStart = index + 1
                } else {
                    tooLong = windowEnd <= bytes.count
                    if tooLong { return false }
                    break
                }
            }
            if bytes.count > uncounted {
                lines += Self.newlines(in: UnsafeBufferPointer(rebasing: bytes[counted...]))
                counted = bytes.count
                overBudget = lineStart > 0 && Self.cost(bytes: bytes.count, lines: lines) > budget
            }
            return !overBudget
        }
        pending = []
        if tooLong {
            return .failure(.init(line: linesBefore + bytes[..<lineStart].count { $0 == UInt8(ascii: "\n") } + 1))
        }
        if complete {
            ended = true
        } else {
            // Stopped over the budget or at the size limit: the part ends after its last "\n"
            // (there is one: no line is longer than the limit), the rest starts the next.
            pending = Array(bytes[lineStart...])
            bytes.removeSubrange(lineStart...)
        }
        if first {
            first = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        }
        if !ended { linesBefore += bytes.withUnsafeBufferPointer(Self.newlines) }
        return .success(bytes)
    }

    /// How many `\n` bytes there are.
    private static func newlines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}
