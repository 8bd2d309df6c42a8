import Foundation
import StoreReleaseCore

/// Matching BCP 47 language tags (`zh-Hant-TW`, `pt-BR`, `en`) against the tags a text exists in.
package enum LanguageTag {
    /// The tag in `available` that best serves `preferred`: the longest prefix match after
    /// Chinese script and Portuguese region are made explicit (`zh-TW` → `zh-Hant`,
    /// `zh-CN` → `zh-Hans`, `pt` → `pt-BR`), Serbian script too (`sr` → `sr-Cyrl`, `sr-Latn-RS`
    /// → `sr-Latn`), and old or macro codes name today's (`no`, `nn` → `nb`; `iw` → `he`; `tl`
    /// → `fil`; `in` → `id`; Kurdish in Arabic script or of Iraq or Iran → `ckb`), case-insensitive.
    package static func bestMatch(for preferred: String, in available: [String]) -> String? {
        var parts = canonical(preferred).split(separator: "-").map(String.init)
        while !parts.isEmpty {
            let tag = parts.joined(separator: "-").lowercased()
            if let match = available.first(where: { $0.lowercased() == tag }) { return match }
            parts.removeLast()
        }
        return nil
    }

    private static func canonical(_ tag: String) -> String {
        let parts = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-").map { $0.lowercased() }
        guard let language = parts.first else { return tag }
        let rest = Set(parts.dropFirst())
        switch language {
        case "zh":
            if rest.contains("hant") || rest.contains("tw") || rest.contains("hk") || rest.contains("mo") {
                return "zh-Hant"
            }
            return "zh-Hans"
        case "pt":
            return rest.contains("pt") ? "pt-PT" : (rest.contains("br") || rest.isEmpty ? "pt-BR" : tag)
        case "sr":
            return rest.contains("latn") ? "sr-Latn" : "sr-Cyrl"
        case "no", "nn":
            return "nb"
        case "iw":
            return "he"
        case "tl":
            return "fil"
        case "in":
            return "id"
        case "ku":
            // Kurdish in Arabic script (Iraq, Iran) is Central Kurdish; Latin-script Kurmanji has no text here.
            return rest.contains("arab") || rest.contains("iq") || rest.contains("ir") ? "ckb" : tag
        default:
            return tag
        }
    }
}
