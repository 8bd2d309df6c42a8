import StoreReleaseKit
import Testing

@Suite struct UpdatePromptTextTests {
    @Test func atLeastTwentyLanguagesIncludingTheSeedsOnes() {
        #expect(UpdatePromptText.languages.count >= 20)
        for language in ["en", "zh-Hans", "zh-Hant", "ja"] { #expect(UpdatePromptText.languages.contains(language)) }
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
