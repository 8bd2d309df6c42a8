import Foundation
import StoreReleaseCore

/// Matching BCP 47 language tags (`zh-Hant-TW`, `pt-AO`, `en`) against the tags a text exists in.
package enum LanguageTag {
    /// The tag in `available` that best serves `preferred`, case-insensitive, or `nil`.
    ///
    /// The lookup follows CLDR's fallback: the tag, then its parent, and so on, where the parent
    /// is ``parentLocales``' entry (`pt-AO` → `pt-PT`, `es-MX` → `es-419`, `zh-Hant-MO` →
    /// `zh-Hant-HK`, `en-GB` → `en-001`; `und` ends it) or else the tag without its last subtag
    /// (`de-AT` → `de`). Before that, the script of Chinese and Serbian is made explicit as
    /// CLDR's likely subtags give it (`zh-TW`, `zh-HK`, `zh-MO` → `zh-Hant-…`, other `zh` →
    /// `zh-Hans-…`; `sr` → `sr-Cyrl-…`), and old codes name today's (`iw` → `he`, `tl` → `fil`,
    /// `in` → `id`). At each step a bare language also matches the tag its text is kept under
    /// (``standIns``: `pt` → `pt-BR`, `no` → `nb`, `ku` → `ckb`…).
    package static func bestMatch(for preferred: String, in available: [String]) -> String? {
        var byLowercase: [String: String] = [:]
        for tag in available where byLowercase[tag.lowercased()] == nil { byLowercase[tag.lowercased()] = tag }
        let chain = fallbackChain(for: preferred)
        let latin = chain.first?.split(separator: "-").dropFirst().first == "latn"
        for tag in chain {
            if let match = byLowercase[tag] { return match }
            // upgrader's `ku` text is Central Kurdish, in Arabic script: not for a tag that asks for Latin.
            if let standIn = standIns[tag], !(latin && standIn == "ckb"), let match = byLowercase[standIn] {
                return match
            }
        }
        return nil
    }

    /// The tags a lookup for `tag` tries, in order, lower-cased: `pt-ao`, `pt-pt`, `pt`.
    package static func fallbackChain(for tag: String) -> [String] {
        var chain: [String] = []
        var next: String? = canonical(tag)
        while let current = next, !current.isEmpty, !chain.contains(current) {
            chain.append(current)
            next = parent(of: current)
        }
        return chain
    }

    /// The tag its texts are kept under, for a language CLDR names bare.
    ///
    /// CLDR's `pt` is Brazilian, its `zh` Simplified, its `sr` Cyrillic and its `no` Bokmål;
    /// upgrader's `ku` is Central Kurdish, in Arabic script (Kurdish of Iraq and Iran is written
    /// so; CLDR's `ku-Arab` has no parent but the root).
    static let standIns: [String: String] = [
        "pt": "pt-br", "zh": "zh-hans", "sr": "sr-cyrl", "no": "nb", "ku": "ckb", "ku-arab": "ckb",
    ]

    /// ``parentLocales``, lower-cased.
    private static let parents: [String: String] = Dictionary(
        parentLocales.map { ($0.key.lowercased(), $0.value.lowercased()) }, uniquingKeysWith: { first, _ in first })

    private static func parent(of tag: String) -> String? {
        if let parent = parents[tag] { return parent == "und" ? nil : parent }
        guard let dash = tag.lastIndex(of: "-") else { return nil }
        return String(tag[..<dash])
    }

    /// Lower-cased, `_` read as `-`, old codes replaced, and Chinese and Serbian given a script.
    private static func canonical(_ tag: String) -> String {
        var parts = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-").map { $0.lowercased() }
        guard let language = parts.first else { return "" }
        parts[0] = ["iw": "he", "tl": "fil", "in": "id"][language] ?? language
        let hasScript = parts.count > 1 && parts[1].count == 4 && parts[1].allSatisfy(\.isLetter)
        if !hasScript, parts[0] == "zh" {
            let traditional = parts.dropFirst().contains { ["tw", "hk", "mo"].contains($0) }
            parts.insert(traditional ? "hant" : "hans", at: 1)
        } else if !hasScript, parts[0] == "sr" {
            parts.insert("cyrl", at: 1)
        }
        return parts.joined(separator: "-")
    }
}
