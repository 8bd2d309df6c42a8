extension OutsideText {
    /// `text` safe inside one line of Markdown (a list item, a table cell).
    ///
    /// ``terminal(_:)`` first (a line break cannot start a line of its own), then a backslash
    /// before each of `` \ ` * _ [ ] ( ) < > ! | ~ & ``, so emphasis (a forged `**healthy**`),
    /// a link, an image, an HTML tag, an entity or a table cell in it reads as written.
    package static func markdown(_ text: String) -> String {
        backslashed(terminal(text), before: "\\`*_[]()<>!|~&")
    }

    /// A sentence of ours that carries a store's words, safe inside one line of Markdown (a list
    /// item, a table cell), with our own punctuation left as it was.
    ///
    /// ``terminal(_:)`` first, then a backslash before each character that opens markup in the
    /// middle of a line: `` \ ` * _ [ < | ~ & ``. Without an unescaped `[` there is no link or
    /// image, without `<` no HTML tag or autolink, without `|` no new table cell; the `(`, `)`,
    /// `>` and `!` our sentences use open nothing on their own there, and stay as they were.
    package static func markdownSentence(_ text: String) -> String {
        backslashed(terminal(text), before: "\\`*_[<|~&")
    }

    /// `text` with a backslash before each character of `special`.
    private static func backslashed(_ text: String, before special: String) -> String {
        guard text.contains(where: special.contains) else { return text }
        var out = ""
        for character in text {
            if special.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
