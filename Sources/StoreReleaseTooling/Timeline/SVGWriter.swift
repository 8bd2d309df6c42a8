import Foundation

/// Writes SVG text: elements with escaped attributes and text, numbers to a tenth of a pixel,
/// and text kept inside the picture.
struct SVGWriter: Sendable {
    /// The document so far.
    private(set) var text = ""
    /// The picture's size; labels are moved to stay inside it.
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// `12.5`, `12`: a coordinate to a tenth of a pixel.
    static func n(_ value: Double) -> String {
        let tenth = (value * 10).rounded() / 10
        return tenth == tenth.rounded() ? String(Int(tenth)) : String(format: "%.1f", tenth)
    }

    /// About how wide `text` is at `size` px in a sans-serif face (0.6 em a character, on the wide side).
    static func estimatedWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }

    /// `&`, `<`, `>` and `"` escaped for XML, and every control character written out as
    /// `OutsideText.terminal` writes it (`\u{1B}`).
    ///
    /// A hold's reason or a release's name comes from a store: a C0 control in it is no XML
    /// character at all (the picture would not parse), a line break would read as a space.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in OutsideText.terminal(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.filter { !$0.1.isEmpty }.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
    }

    mutating func open(_ name: String, _ attributes: [(String, String)]) {
        text += "<\(name)\(Self.attributes(attributes))>\n"
    }

    mutating func close(_ name: String) {
        text += "</\(name)>\n"
    }

    mutating func element(_ name: String, _ attributes: [(String, String)], text content: String? = nil) {
        if let content {
            text += "<\(name)\(Self.attributes(attributes))>\(Self.escaped(content))</\(name)>\n"
        } else {
            text += "<\(name)\(Self.attributes(attributes))/>\n"
        }
    }

    mutating func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, width: Double, dash: String,
        cap: String = ""
    ) {
        element(
            "line",
            [
                ("x1", Self.n(x1)), ("y1", Self.n(y1)), ("x2", Self.n(x2)), ("y2", Self.n(y2)), ("stroke", color),
                ("stroke-width", Self.n(width)), ("stroke-dasharray", dash), ("stroke-linecap", cap),
            ])
    }

    /// Text at `x` (its start, or its end with `anchor: "end"`), baseline `y`.
    mutating func text(
        _ content: String, x: Double, y: Double, size: Double, weight: String = "", fill: String = "#1f2328",
        anchor: String = ""
    ) {
        element(
            "text",
            [
                ("x", Self.n(x)), ("y", Self.n(y)), ("font-size", Self.n(size)), ("font-weight", weight),
                ("fill", fill),
                ("text-anchor", anchor),
            ], text: content)
    }

    /// Text centred on `x`, moved to stay inside the picture with 8 px to spare.
    mutating func label(_ content: String, x: Double, y: Double, size: Double, fill: String = "#1f2328") {
        let half = Self.estimatedWidth(content, size: size) / 2
        let centre = min(max(x, half + 8), width - half - 8)
        text(content, x: centre, y: min(max(y, size + 2), height - 4), size: size, fill: fill, anchor: "middle")
    }
}
