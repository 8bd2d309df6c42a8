import Foundation
import StoreReleaseCore

/// Reading the JSON files a user gives (manifest, policy, snapshot, state, stored lookups and
/// tracks): what `JSONDecoder` lets through silently is refused first.
///
/// `JSONDecoder` keeps one of two values under the same key without a word, and calls a number
/// too small or too large for a `Double` (`1e-400`, `1e400`) "not valid JSON". ``check(_:)``
/// walks the text once, without recursion, and names either by its key path
/// (`rollout.percent`); text that is not JSON is left to the decoder, whose error says where.
package enum StrictJSON {
    /// The first byte of `data` that is not JSON's white space (space, tab, line feed, carriage
    /// return): `{` or `[` tells a document's form; `nil` when there is nothing else.
    package static func firstByte(of data: Data) -> UInt8? {
        data.first { !(" \t\r\n" as String).utf8.contains($0) }
    }

    /// Decodes `type` from `data` after ``check(_:)``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with the key path of a repeated key or an
    ///   unrepresentable number, or the decoder's own error.
    package static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, using decoder: JSONDecoder = JSONDecoder()
    )
        throws -> T
    {
        try check(data)
        return try decoder.decode(type, from: data)
    }

    /// Refuses a key given twice in one object and a number a `Double` cannot hold.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose coding path leads to the second key or the
    ///   number.
    package static func check(_ data: Data) throws {
        var scanner = Scanner()
        try data.withUnsafeBytes { raw in try scanner.scan(raw.bindMemory(to: UInt8.self)) }
    }

    /// A key of the path to a problem: an object's key or an array's index.
    struct PathKey: CodingKey {
        let stringValue: String
        let intValue: Int?

        init(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }

        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    /// The walk: one container a level, the keys seen in each object.
    struct Scanner {
        enum Level {
            case object(keys: Set<String>, key: String?, expectingKey: Bool)
            case array(index: Int)
        }

        var levels: [Level] = []

        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"):
                    levels.append(.object(keys: [], key: nil, expectingKey: true))
                    index += 1
                case UInt8(ascii: "["):
                    levels.append(.array(index: 0))
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if levels.popLast() == nil { return }
                    index += 1
                case UInt8(ascii: ","):
                    switch levels.last {
                    case .object(let keys, _, _):
                        levels[levels.count - 1] = .object(keys: keys, key: nil, expectingKey: true)
                    case .array(let position): levels[levels.count - 1] = .array(index: position + 1)
                    case nil: return
                    }
                    index += 1
                case UInt8(ascii: ":"):
                    if case .object(let keys, let key, _) = levels.last {
                        levels[levels.count - 1] = .object(keys: keys, key: key, expectingKey: false)
                    }
                    index += 1
                case UInt8(ascii: "\""):
                    guard let end = Self.endOfString(in: bytes, from: index) else { return }
                    if case .object(var keys, _, true) = levels.last {
                        guard let text = Self.key(in: bytes, index..<end) else { return }
                        guard keys.insert(text).inserted else {
                            throw problem(
                                at: PathKey(stringValue: text),
                                "the key \(Self.shown(text)) is given twice in this object (give each key once)")
                        }
                        levels[levels.count - 1] = .object(keys: keys, key: text, expectingKey: false)
                    }
                    index = end
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    var end = index
                    while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
                    try checkNumber(bytes, index..<end)
                    index = end
                default:
                    index += 1
                }
            }
        }

        /// A number's text that a `Double` holds only as zero or infinity is refused.
        func checkNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard let value = Double(text) else { return }
            if value.isInfinite {
                throw problem(at: nil, "the number \(Self.shown(text)) is too large for a number (it overflows)")
            }
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            if value == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) {
                throw problem(at: nil, "the number \(Self.shown(text)) is too small for a number (it underflows to 0)")
            }
        }

        /// A decoding error at the current path, and `last` when given.
        func problem(at last: PathKey?, _ message: String) -> DecodingError {
            var path: [any CodingKey] = []
            for level in levels {
                switch level {
                case .object(_, let key?, false): path.append(PathKey(stringValue: key))
                case .array(let index): path.append(PathKey(intValue: index))
                case .object: break
                }
            }
            if let last { path.append(last) }
            return DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                true
            default: false
            }
        }

        /// The index after the closing quote of the string whose opening quote is at `start`;
        /// `nil` when it does not close (the decoder then says so).
        static func endOfString(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            var end = start + 1
            while end < bytes.count {
                switch bytes[end] {
                case UInt8(ascii: "\\"): end += 2
                case UInt8(ascii: "\""): return end + 1
                default: end += 1
                }
            }
            return nil
        }

        /// The key whose quoted text is `range`, unescaped as the decoder compares keys (`"a"`
        /// and `"\u0061"` are one key); `nil` when it is not a JSON string.
        static func key(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
            let quoted = UnsafeBufferPointer(rebasing: bytes[range])
            guard quoted.contains(UInt8(ascii: "\\")) else {
                return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
            }
            return try? JSONDecoder().decode(String.self, from: Data(quoted))
        }

        /// A key or number as an error shows it: quoted, at most 40 characters.
        static func shown(_ text: String) -> String {
            text.count > 40 ? (String(text.prefix(40)) + "…").debugDescription : text.debugDescription
        }
    }
}
