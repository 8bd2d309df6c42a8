extension OutsideText {
    /// `text` safe inside one line of Markdown (a list item, a table cell).
    ///
    /// ``terminal(_:)`` first (a line break cannot start a line of its own), then a backslash
    /// before each of `` \ ` * _ [ ] ( ) < > ! | ~ & ``, so emphasis (a forged `**healthy**`),
    /// a link, an image, an HTML tag, an entity or a table cell in it reads as written.
    package static func markdown(_ text: String) -> String {
        var out = ""
        for character in terminal(text) {
            if "\\`*_[]()<>!|~&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
