import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The text of an update prompt, in the user's language.
///
/// The title, the message with the app's name and the new version, and the buttons.
///
/// A flexible update gets "Update" / "Later" / "Skip this version"; an immediate one a title and
/// message that say the update is required, and only "Update". 57 languages, the union of
/// Siren's and upgrader's and more, each written for its language (not machine-translated; see
/// ``reviewedByANativeSpeaker``), six of them right-to-left (``isRightToLeft``): ``languages``
/// lists them. A tag without a text of its own falls back as CLDR's parent locales say (`pt-AO`
/// → `pt-PT`, `es-MX` → `es-419` → `es`, `zh-HK` → `zh-Hant`), and then to English.
public struct UpdatePromptText: Sendable, Hashable {
    /// The language tag the text is in (`zh-Hans`).
    public let language: String
    /// The alert's title (`Update available`).
    public let title: String
    /// The alert's message, naming the app and the version.
    public let message: String
    /// The button that opens the store or starts the update.
    public let updateButton: String
    /// `nil` for an immediate update: it cannot be put off.
    public let laterButton: String?
    /// `nil` for an immediate update: it cannot be skipped.
    public let skipButton: String?

    /// Whether the text is laid out right to left (Arabic, Hebrew, Persian, Urdu, Central Kurdish, Pashto).
    public var isRightToLeft: Bool { Self.rightToLeftLanguages.contains(language) }

    /// The prompt for a decision, in the first of `preferredLanguages` there is a text for.
    ///
    /// `zh-Hant-TW` matches `zh-Hant`; `zh-TW`, `zh-HK` and `zh-MO` are Traditional, other `zh`
    /// Simplified; `pt` is Brazilian, and the Portuguese of Angola, Mozambique, Cape Verde,
    /// Guinea-Bissau and the other countries CLDR gives European Portuguese as parent is `pt-PT`;
    /// `ku` is Central Kurdish, as upgrader has it (but not `ku-Latn`). Anything else gets English.
    ///
    /// - Returns: `nil` when the action shows no prompt (`none`), or is Play's own UI
    ///   (`completeUpdate`, `resumeImmediate`).
    public init?(
        for action: UpdateDecision.Action, appName: String, version: String, preferredLanguages: [String] = ["en"]
    ) {
        let strings = Self.strings(for: preferredLanguages)
        func fill(_ template: String) -> String {
            template.replacingOccurrences(of: "{app}", with: appName).replacingOccurrences(
                of: "{version}", with: version)
        }
        switch action {
        case .flexible:
            self.init(
                language: strings.language, title: strings.title, message: fill(strings.message),
                updateButton: strings.update, laterButton: strings.later, skipButton: strings.skip)
        case .immediate:
            self.init(
                language: strings.language, title: strings.requiredTitle, message: fill(strings.requiredMessage),
                updateButton: strings.update, laterButton: nil, skipButton: nil)
        case .none, .completeUpdate, .resumeImmediate:
            return nil
        }
    }

    private init(
        language: String, title: String, message: String, updateButton: String, laterButton: String?,
        skipButton: String?
    ) {
        self.language = language
        self.title = title
        self.message = message
        self.updateButton = updateButton
        self.laterButton = laterButton
        self.skipButton = skipButton
    }

    /// Every language there is a text for.
    public static var languages: [String] { table.keys.sorted() }

    static func strings(for preferredLanguages: [String]) -> Strings {
        for preferred in preferredLanguages {
            if let tag = LanguageTag.bestMatch(for: preferred, in: Array(table.keys)), let strings = table[tag] {
                return strings
            }
        }
        return english
    }

    struct Strings: Sendable, Hashable {
        let language, title, message, update, later, skip, requiredTitle, requiredMessage: String
    }

    static let english = Strings(
        language: "en", title: "Update available", message: "{app} {version} is available.", update: "Update",
        later: "Later", skip: "Skip this version", requiredTitle: "Update required",
        requiredMessage: "{app} {version} is required to continue.")
}
