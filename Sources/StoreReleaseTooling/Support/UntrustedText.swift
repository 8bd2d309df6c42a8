/// Text from outside (a store's message, an exception's cause, a file's value) made safe to print.
///
/// ``terminal(_:)`` for a terminal: no control character reaches it (an ANSI escape could clear
/// the screen or paint a forged line green; a line break could forge a line), each shown as
/// `\u{1B}` instead, and neither do the invisible marks that reorder text (U+202E). ``markdown(_:)``
/// for a Markdown list item or table cell as well: every character that starts emphasis, a link,
/// an image, an HTML tag, an entity or a table cell is escaped, so `**healthy**` reads as written.
package enum UntrustedText {
    /// `text` with every control character and bidirectional mark written as `\u{…}`.
    package static func terminal(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` safe inside one line of Markdown: ``terminal(_:)``, then a backslash before each of
    /// `` \ ` * _ [ ] ( ) < > ! | ~ & ``.
    package static func markdown(_ text: String) -> String {
        var out = ""
        for character in terminal(text) {
            if "\\`*_[]()<>!|~&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the marks that reorder or hide text.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }
}
