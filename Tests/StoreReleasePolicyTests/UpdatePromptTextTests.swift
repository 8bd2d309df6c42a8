import Testing

@testable import StoreReleaseModels
@testable import StoreReleasePolicy

@Suite struct UpdatePromptTextTests {
    @Test func atLeastFortyLanguagesIncludingTheSeedsOnes() {
        #expect(UpdatePromptText.languages.count >= 40)
        for language in ["en", "zh-Hans", "zh-Hant", "ja"] { #expect(UpdatePromptText.languages.contains(language)) }
    }

    /// Every language tag Siren accepts (`Siren.Localization.Language`'s raw values,
    /// ArtSabintsev/Siren Sources/Models/Localization.swift at d43c63ef), with the text it gets here.
    static let siren: [(String, String)] = [
        ("ar", "ar"), ("hy", "hy"), ("eu", "eu"), ("zh-Hans", "zh-Hans"), ("zh-Hant", "zh-Hant"), ("hr", "hr"),
        ("cs", "cs"), ("da", "da"), ("nl", "nl"), ("en", "en"), ("et", "et"), ("fi", "fi"), ("fr", "fr"),
        ("de", "de"), ("el", "el"), ("he", "he"), ("hu", "hu"), ("id", "id"), ("it", "it"), ("ja", "ja"),
        ("ko", "ko"), ("lv", "lv"), ("lt", "lt"), ("ms", "ms"), ("nb-NO", "nb"), ("fa", "fa"), ("fa-AF", "fa"),
        ("fa-IR", "fa"), ("pl", "pl"), ("pt", "pt-BR"), ("pt-PT", "pt-PT"), ("ro", "ro"), ("ru", "ru"),
        ("sr-Cyrl", "sr-Cyrl"), ("sr-Latn", "sr-Latn"), ("sl", "sl"), ("es", "es"), ("sv", "sv"), ("th", "th"),
        ("tr", "tr"), ("ur", "ur"), ("uk", "uk"), ("vi", "vi"),
    ]

    /// Every language code upgrader has a text for (`UpgraderMessages`' cases, larryaasen/upgrader
    /// lib/src/upgrade_messages.dart at fd0c5789; it matches the language subtag alone), with the
    /// text it gets here: upgrader's `pt` is Brazilian, its `zh` Simplified, its `ku` Central Kurdish.
    static let upgrader: [(String, String)] = [
        ("ar", "ar"), ("bn", "bn"), ("da", "da"), ("de", "de"), ("el", "el"), ("en", "en"), ("es", "es"),
        ("et", "et"), ("fa", "fa"), ("fil", "fil"), ("fr", "fr"), ("he", "he"), ("hi", "hi"), ("ht", "ht"),
        ("hu", "hu"), ("id", "id"), ("it", "it"), ("ja", "ja"), ("kk", "kk"), ("km", "km"), ("ko", "ko"),
        ("ku", "ckb"), ("lt", "lt"), ("mn", "mn"), ("nb", "nb"), ("nl", "nl"), ("pl", "pl"), ("ps", "ps"),
        ("pt", "pt-BR"), ("ro", "ro"), ("ru", "ru"), ("sl", "sl"), ("sv", "sv"), ("ta", "ta"), ("te", "te"),
        ("tr", "tr"), ("uk", "uk"), ("uz", "uz"), ("vi", "vi"), ("zh", "zh-Hans"),
    ]

    @Test(arguments: siren + upgrader)
    func everyTagSirenOrUpgraderAcceptsGetsItsLanguage(_ tag: String, _ expected: String) throws {
        let text = try #require(
            UpdatePromptText(for: .flexible, appName: "A", version: "1", preferredLanguages: [tag]))
        #expect(text.language == expected)
        #expect(UpdatePromptText.languages.contains(expected))
    }

    @Test func upgradersRightToLeftLanguagesAreRightToLeftHere() throws {
        for tag in ["ar", "fa", "he", "ku", "ps"] {
            let text = try #require(
                UpdatePromptText(for: .flexible, appName: "A", version: "1", preferredLanguages: [tag]))
            #expect(text.isRightToLeft, "\(tag)")
        }
    }

    @Test func theReviewedLanguagesAreLanguagesHere() {
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

    @Test(arguments: ["ar", "he", "fa", "ur", "ckb", "ps"])
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
        ("ku-Arab", "ckb"), ("ku-IQ", "ckb"), ("ku", "ckb"), ("ku-Arab-IR", "ckb"), ("ku-Latn-TR", "en"),
        ("ps", "ps"), ("ps-AF", "ps"), ("ps-PK", "ps"),
        // CLDR's parent locales: the Portuguese of Africa, Asia and Europe is European Portuguese.
        ("pt-AO", "pt-PT"), ("pt-MZ", "pt-PT"), ("pt-CV", "pt-PT"), ("pt-GW", "pt-PT"), ("pt-ST", "pt-PT"),
        ("pt-TL", "pt-PT"), ("pt-MO", "pt-PT"), ("pt-GQ", "pt-PT"), ("pt-CH", "pt-PT"), ("pt-LU", "pt-PT"),
        ("pt-FR", "pt-PT"), ("pt_AO", "pt-PT"), ("pt-BR", "pt-BR"), ("pt-US", "pt-BR"),
        ("es-419", "es"), ("es-MX", "es"), ("es-US", "es"), ("zh-MO", "zh-Hant"), ("zh-Hant-MO", "zh-Hant"),
        ("zh-SG", "zh-Hans"), ("en-AU", "en"), ("en-150", "en"), ("nn", "nb"), ("no-NO", "nb"), ("hi-Latn", "en"),
        ("fr-HT", "fr"), ("", "en"),
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

    /// The lookup itself, against tags a manifest's release notes may be kept under.
    @Test(
        arguments: [
            ("es-MX", ["es", "es-419"], "es-419"), ("es-ES", ["es", "es-419"], "es"),
            ("pt-AO", ["pt-BR", "pt-PT"], "pt-PT"),
            ("pt-AO", ["pt"], "pt"), ("pt", ["pt-BR", "pt-PT"], "pt-BR"),
            ("zh-MO", ["zh-Hant-HK", "zh-Hant"], "zh-Hant-HK"),
            ("zh-HK", ["zh-Hans", "zh-Hant"], "zh-Hant"), ("en-AU", ["en-001", "en"], "en-001"),
            ("ku", ["ku", "ckb"], "ku"),
            ("sr-Latn", ["sr", "en"], nil), ("zh-Hant", ["zh", "en"], nil),
        ] as [(String, [String], String?)])
    func theLookupFollowsCLDRsParents(_ preferred: String, _ available: [String], _ expected: String?) {
        #expect(LanguageTag.bestMatch(for: preferred, in: available) == expected)
    }

    @Test func everyParentLocaleChainEnds() {
        #expect(LanguageTag.parentLocales.count == 180, "CLDR 45's parentLocale entries")
        for tag in LanguageTag.parentLocales.keys {
            let chain = LanguageTag.fallbackChain(for: tag)
            #expect(!chain.isEmpty && chain.count < 6, "\(tag): \(chain)")
        }
        #expect(LanguageTag.fallbackChain(for: "pt-AO") == ["pt-ao", "pt-pt", "pt"])
        #expect(LanguageTag.fallbackChain(for: "zh-MO") == ["zh-hant-mo", "zh-hant-hk", "zh-hant"])
    }
}
