/// Text that came from outside (a store's message, a file a person can edit, a server's error)
/// made safe to print on a terminal.
///
/// A terminal obeys what it is sent: an escape sequence in a store's message can clear the screen,
/// move the cursor or print a green "applied and verified" over the real account; a bidirectional
/// override reorders what is shown. Every such character is written out instead, as Swift writes
/// it (`\u{1B}`), so what reaches the terminal is what was said, visibly.
package enum OutsideText {
    /// Whether `scalar` is one a terminal acts on rather than shows: the C0 controls (tab and
    /// newline included: one line stays one line), DEL, the C1 controls (U+0080–U+009F, which
    /// some terminals read as escapes), the bidirectional embeddings, overrides and isolates, and
    /// the line and paragraph separators.
    package static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every active character written as `\u{XX}` (hexadecimal, upper case).
    package static func terminal(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActive) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isActive(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// `text` of several lines, each line as ``terminal(_:)`` writes it: a report whose lines
    /// carry a store's words (a refusal, an error) prints as many lines as it has, and nothing
    /// in them acts on the terminal.
    package static func lines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && isActive($0) }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { terminal(String($0)) }
            .joined(separator: "\n")
    }

    /// JSON text with every active character left unescaped by the encoder (DEL, the C1
    /// controls, the bidirectional marks, the separators) written as a JSON escape (`\u0085`):
    /// the same JSON, safe on a terminal. The encoder escapes the C0 controls itself.
    package static func json(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActive) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isActive(scalar) {
                let hex = String(scalar.value, radix: 16)
                shown.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }
}
