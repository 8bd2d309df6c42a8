import Foundation

/// The subset of YAML the recipes in Docs/Watch and Docs/Sweep are written in, read so the tests
/// can run them as GitHub Actions and Kubernetes would: block mappings and sequences, plain,
/// quoted and literal (`|`) scalars, comments, `---` between documents, and flow collections
/// written as JSON (`[1, 2, 3]`, `["sh", "-c", "…"]`). Anything else is an error naming its line,
/// so a recipe cannot drift into YAML these tests would misread.
indirect enum RecipeYAML: Equatable {
    case scalar(String)
    case list([RecipeYAML])
    case map([String: RecipeYAML])

    /// A line the reader does not take, with its number.
    struct Unreadable: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    subscript(key: String) -> RecipeYAML? {
        guard case .map(let entries) = self else { return nil }
        return entries[key]
    }

    /// The scalar's text, or nil for a collection.
    var string: String? {
        guard case .scalar(let text) = self else { return nil }
        return text
    }

    /// The sequence's items (none for a scalar or a mapping).
    var items: [RecipeYAML] {
        guard case .list(let items) = self else { return [] }
        return items
    }

    /// The mapping's entries (none for a scalar or a sequence).
    var entries: [String: RecipeYAML] {
        guard case .map(let entries) = self else { return [:] }
        return entries
    }

    /// Every document of a file.
    static func documents(_ text: String) throws -> [RecipeYAML] {
        var documents: [[Substring]] = [[]]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "---" { documents.append([]) } else { documents[documents.count - 1].append(line) }
        }
        var offset = 0
        return try documents.compactMap { lines in
            defer { offset += lines.count + 1 }
            var reader = Reader(lines: lines.map(String.init), firstLine: offset + 1)
            return try reader.document()
        }
    }

    /// One document's lines, read top-down by indentation.
    private struct Reader {
        var lines: [String]
        let firstLine: Int
        var index = 0

        func unreadable(_ reason: String) -> Unreadable { Unreadable(line: firstLine + index, reason: reason) }

        static func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }

        static func isContent(_ line: String) -> Bool {
            let trimmed = line.drop { $0 == " " }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#")
        }

        /// The next line that holds something, from `index` on.
        mutating func nextContent() -> (indent: Int, text: String)? {
            while index < lines.count, !Self.isContent(lines[index]) { index += 1 }
            guard index < lines.count else { return nil }
            let line = lines[index]
            return (Self.indent(line), String(line.dropFirst(Self.indent(line))))
        }

        mutating func document() throws -> RecipeYAML? {
            guard let first = nextContent() else { return nil }
            let node = try block(at: first.indent)
            if nextContent() != nil { throw unreadable("indented less than the document") }
            return node
        }

        static func isItem(_ text: String) -> Bool { text == "-" || text.hasPrefix("- ") }

        mutating func block(at indent: Int) throws -> RecipeYAML {
            guard let first = nextContent() else { return .scalar("") }
            return Self.isItem(first.text) ? try list(at: indent) : try map(at: indent)
        }

        /// `key: value` at the start of a line (keys in the recipes are plain words).
        static func keyAndRest(_ text: String) -> (String, String)? {
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let key = text[..<colon]
            let rest = text[text.index(after: colon)...]
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) }),
                rest.isEmpty || rest.hasPrefix(" ")
            else { return nil }
            return (String(key), String(rest.drop { $0 == " " }))
        }

        mutating func map(at indent: Int) throws -> RecipeYAML {
            var entries: [String: RecipeYAML] = [:]
            while let next = nextContent(), next.indent == indent, !Self.isItem(next.text) {
                guard let (key, rest) = Self.keyAndRest(next.text) else { throw unreadable("not a key: \(next.text)") }
                guard entries[key] == nil else { throw unreadable("\(key) twice") }
                index += 1
                entries[key] = try value(rest, owner: indent)
            }
            if let next = nextContent(), next.indent > indent { throw unreadable("indented more than its mapping") }
            return .map(entries)
        }

        mutating func list(at indent: Int) throws -> RecipeYAML {
            var items: [RecipeYAML] = []
            while let next = nextContent(), next.indent == indent, Self.isItem(next.text) {
                let text = String(next.text.dropFirst(next.text == "-" ? 1 : 2))
                if Self.keyAndRest(text) != nil {
                    // `- key: value` opens a mapping whose keys line up two columns in.
                    lines[index] = String(repeating: " ", count: indent + 2) + text
                    items.append(try map(at: indent + 2))
                } else {
                    index += 1
                    items.append(try value(text, owner: indent))
                }
            }
            return .list(items)
        }

        /// What follows `key:` or `- `: a nested block, a literal block, JSON, or a scalar.
        mutating func value(_ rest: String, owner indent: Int) throws -> RecipeYAML {
            if rest.isEmpty || rest.hasPrefix("#") {
                guard let next = nextContent() else { return .scalar("") }
                if next.indent > indent { return try block(at: next.indent) }
                if next.indent == indent, Self.isItem(next.text) { return try list(at: indent) }
                return .scalar("")
            }
            if rest == "|" || rest == "|-" { return literal(owner: indent, keepLastNewline: rest == "|") }
            if rest.hasPrefix("[") || rest.hasPrefix("{") {
                guard let json = try? JSONSerialization.jsonObject(with: Data(rest.utf8)), let node = Self.node(json)
                else { throw unreadable("a flow collection that is not JSON: \(rest)") }
                return node
            }
            return .scalar(try scalar(rest))
        }

        mutating func literal(owner indent: Int, keepLastNewline: Bool) -> RecipeYAML {
            var body: [String] = []
            var blockIndent: Int?
            while index < lines.count {
                let line = lines[index]
                let blank = line.allSatisfy { $0 == " " }
                if !blank, Self.indent(line) <= indent { break }
                if !blank, blockIndent == nil { blockIndent = Self.indent(line) }
                body.append(blank ? "" : String(line.dropFirst(blockIndent ?? 0)))
                index += 1
            }
            while body.last == "" { body.removeLast() }
            return .scalar(body.joined(separator: "\n") + (keepLastNewline ? "\n" : ""))
        }

        func scalar(_ text: String) throws -> String {
            if text.hasPrefix("\"") {
                guard let end = Self.closingQuote(text),
                    let decoded = try? JSONSerialization.jsonObject(
                        with: Data(text[...end].utf8), options: .fragmentsAllowed) as? String
                else { throw unreadable("a double-quoted string that does not end: \(text)") }
                try expectNothingAfter(text[text.index(after: end)...])
                return decoded
            }
            if text.hasPrefix("'") {
                var result = ""
                var rest = text.dropFirst()
                while let quote = rest.firstIndex(of: "'") {
                    result += rest[..<quote]
                    rest = rest[rest.index(after: quote)...]
                    guard rest.hasPrefix("'") else {
                        try expectNothingAfter(rest)
                        return result
                    }
                    result += "'"
                    rest = rest.dropFirst()
                }
                throw unreadable("a single-quoted string that does not end: \(text)")
            }
            let plain = text.range(of: " #").map { text[..<$0.lowerBound] } ?? text[...]
            return plain.trimmingCharacters(in: .whitespaces)
        }

        func expectNothingAfter(_ rest: Substring) throws {
            let trimmed = rest.drop { $0 == " " }
            guard trimmed.isEmpty || trimmed.hasPrefix("#") else { throw unreadable("text after a quoted string") }
        }

        static func closingQuote(_ text: String) -> String.Index? {
            var escaped = false
            for index in text.indices.dropFirst() {
                if escaped {
                    escaped = false
                } else if text[index] == "\\" {
                    escaped = true
                } else if text[index] == "\"" {
                    return index
                }
            }
            return nil
        }

        static func node(_ json: Any) -> RecipeYAML? {
            if let text = json as? String { return .scalar(text) }
            if let number = json as? NSNumber { return .scalar(number.stringValue) }
            if let array = json as? [Any] {
                let items = array.compactMap(node)
                return items.count == array.count ? .list(items) : nil
            }
            if let object = json as? [String: Any] {
                let entries = object.compactMapValues(node)
                return entries.count == object.count ? .map(entries) : nil
            }
            return nil
        }
    }
}
