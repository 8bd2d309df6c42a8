import StoreReleaseKit
import Testing

@testable import StoreReleasePolicy

@Suite struct UpdatePromptTextTests {
    @Test func atLeastFortyLanguagesIncludingTheSeedsOnes() {
        #expect(UpdatePromptText.languages.count >= 40)
        for language in ["en", "zh-Hans", "zh-Hant", "ja"] { #expect(UpdatePromptText.languages.contains(language)) }
    }

    /// The languages Siren and upgrader offer, by the tag each is matched under here.
    static let sirenAndUpgrader = [
        "ar", "hy", "eu", "bn", "zh-Hans", "zh-Hant", "hr", "cs", "da", "nl", "en", "et", "fil", "fi", "fr", "de",
        "el", "ht", "he", "hi", "hu", "id", "it", "ja", "kk", "km", "ko", "ckb", "lv", "lt", "ms", "mn", "nb", "fa",
        "pl", "pt-BR", "pt-PT", "ru", "sr-Cyrl", "sr-Latn", "sl", "es", "sw", "sv", "ta", "te", "th", "tr", "uk",
        "ur", "uz", "vi",
    ]

    @Test func everyLanguageSirenOrUpgraderOffersIsHere() {
        let missing = Set(Self.sirenAndUpgrader).subtracting(UpdatePromptText.languages)
        #expect(missing.isEmpty, "missing: \(missing.sorted())")
        #expect(UpdatePromptText.reviewedByANativeSpeaker.isSubset(of: Set(UpdatePromptText.languages)))
    }

    @Test func everyLanguageHasTheSamePlaceholdersAsEnglishOnceEach() throws {
        func placeholders(_ text: String) -> [String] {
            text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap {
                $0.split(separator: "}", maxSplits: 1).first.map(String.init)
            }.sorted()
        }
        for strings in UpdatePromptText.table.values {
            for (template, english) in [
                (strings.message, UpdatePromptText.english.message),
                (strings.requiredMessage, UpdatePromptText.english.requiredMessage),
            ] {
                #expect(placeholders(template) == placeholders(english), "\(strings.language): \(template)")
            }
            for other in [strings.title, strings.update, strings.later, strings.skip, strings.requiredTitle] {
                #expect(!other.isEmpty && !other.contains("{"), "\(strings.language): \(other)")
            }
        }
    }

    @Test(arguments: ["ar", "he", "fa", "ur", "ckb"])
    func rightToLeftLanguagesSaySo(_ language: String) throws {
        let text = try #require(
            UpdatePromptText(for: .flexible, appName: "A", version: "1", preferredLanguages: [language]))
        #expect(text.isRightToLeft && text.language == language)
        let english = try #require(UpdatePromptText(for: .flexible, appName: "A", version: "1"))
        #expect(!english.isRightToLeft)
    }

    @Test func aFlexiblePromptHasLaterAndSkipAndNamesTheAppAndVersion() throws {
        let text = try #require(
            UpdatePromptText(for: .flexible, appName: "微信", version: "8.0.10", preferredLanguages: ["zh-Hans-CN"]))
        #expect(text.language == "zh-Hans")
        #expect(text.title == "有新版本可用" && text.message == "微信 8.0.10 已发布。")
        #expect(text.updateButton == "更新" && text.laterButton == "稍后" && text.skipButton == "跳过此版本")
    }

    @Test func anImmediatePromptCannotBePutOff() throws {
        let text = try #require(
            UpdatePromptText(for: .immediate, appName: "Notes", version: "3.0", preferredLanguages: ["ja-JP"]))
        #expect(text.title == "アップデートが必要です")
        #expect(text.message == "引き続きご利用いただくには、Notes を 3.0 にアップデートしてください。")
        #expect(text.laterButton == nil && text.skipButton == nil)
    }

    @Test(arguments: [
        ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-Hant", "zh-Hant"), ("zh", "zh-Hans"), ("zh_CN", "zh-Hans"),
        ("pt", "pt-BR"), ("pt-PT", "pt-PT"), ("de-AT", "de"), ("fr-CA", "fr"), ("EN-gb", "en"), ("xx", "en"),
        ("sr", "sr-Cyrl"), ("sr-Latn-RS", "sr-Latn"), ("sr-RS", "sr-Cyrl"), ("no", "nb"), ("nb-NO", "nb"),
        ("iw", "he"), ("he-IL", "he"), ("tl", "fil"), ("in", "id"), ("ckb-IQ", "ckb"), ("ms-MY", "ms"),
        ("ku-Arab", "ckb"), ("ku-IQ", "ckb"), ("ku", "en"), ("ku-Latn-TR", "en"),
    ])
    func languagesMatchByTagWithEnglishAsTheFallback(_ preferred: String, _ expected: String) throws {
        let text = try #require(
            UpdatePromptText(for: .flexible, appName: "A", version: "1", preferredLanguages: [preferred]))
        #expect(text.language == expected)
    }

    @Test func everyLanguageHasEveryStringWithBothPlaceholdersFilled() throws {
        for language in UpdatePromptText.languages {
            for action in [UpdateDecision.Action.flexible, .immediate] {
                let text = try #require(
                    UpdatePromptText(for: action, appName: "APPNAME", version: "9.9.9", preferredLanguages: [language]))
                #expect(text.language == language)
                #expect(text.message.contains("APPNAME") && text.message.contains("9.9.9"), "\(language) \(action)")
                #expect(!text.message.contains("{") && !text.title.isEmpty && !text.updateButton.isEmpty)
            }
        }
    }

    @Test func actionsWithoutAPromptHaveNoText() {
        for action in [UpdateDecision.Action.none, .completeUpdate, .resumeImmediate] {
            #expect(UpdatePromptText(for: action, appName: "A", version: "1") == nil)
        }
    }
}
