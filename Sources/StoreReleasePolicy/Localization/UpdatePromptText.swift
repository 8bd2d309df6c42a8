import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The text of an update prompt, in the user's language.
///
/// The title, the message with the app's name and the new version, and the buttons.
///
/// A flexible update gets "Update" / "Later" / "Skip this version"; an immediate one a title and
/// message that say the update is required, and only "Update". 23 languages, written for
/// each (not machine-translated): English, Simplified and Traditional Chinese, Japanese, Korean,
/// German, French, Spanish, Italian, Portuguese (Brazil and Portugal), Russian, Ukrainian,
/// Polish, Dutch, Swedish, Danish, Turkish, Arabic, Hindi, Thai, Vietnamese and Indonesian.
/// Anything else falls back to English.
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

    /// The prompt for a decision, in the first of `preferredLanguages` there is a text for.
    ///
    /// `zh-Hant-TW` matches `zh-Hant`; `zh-TW` and `zh-HK` are Traditional, other `zh` Simplified;
    /// `pt` is Brazilian. Anything else gets English.
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

    static let table: [String: Strings] = [
        "en": Strings(
            language: "en", title: "Update available", message: "{app} {version} is available.",
            update: "Update", later: "Later", skip: "Skip this version",
            requiredTitle: "Update required", requiredMessage: "{app} {version} is required to continue."),
        "zh-Hans": Strings(
            language: "zh-Hans", title: "有新版本可用", message: "{app} {version} 已发布。",
            update: "更新", later: "稍后", skip: "跳过此版本",
            requiredTitle: "需要更新", requiredMessage: "请将{app}更新到 {version} 后继续使用。"),
        "zh-Hant": Strings(
            language: "zh-Hant", title: "有新版本可用", message: "{app} {version} 已推出。",
            update: "更新", later: "稍後", skip: "略過此版本",
            requiredTitle: "需要更新", requiredMessage: "請將{app}更新至 {version} 以繼續使用。"),
        "ja": Strings(
            language: "ja", title: "アップデートがあります", message: "{app} {version} が利用可能です。",
            update: "アップデート", later: "あとで", skip: "このバージョンをスキップ",
            requiredTitle: "アップデートが必要です", requiredMessage: "引き続きご利用いただくには、{app} を {version} にアップデートしてください。"),
        "ko": Strings(
            language: "ko", title: "업데이트 가능", message: "{app} {version} 버전을 사용할 수 있습니다.",
            update: "업데이트", later: "나중에", skip: "이 버전 건너뛰기",
            requiredTitle: "업데이트 필요", requiredMessage: "계속 사용하려면 {app}을(를) {version} 버전으로 업데이트하세요."),
        "de": Strings(
            language: "de", title: "Update verfügbar", message: "{app} {version} ist verfügbar.",
            update: "Aktualisieren", later: "Später", skip: "Diese Version überspringen",
            requiredTitle: "Update erforderlich",
            requiredMessage: "Bitte aktualisiere {app} auf {version}, um fortzufahren."),
        "fr": Strings(
            language: "fr", title: "Mise à jour disponible", message: "{app} {version} est disponible.",
            update: "Mettre à jour", later: "Plus tard", skip: "Ignorer cette version",
            requiredTitle: "Mise à jour requise",
            requiredMessage: "Veuillez mettre à jour {app} vers la version {version} pour continuer."),
        "es": Strings(
            language: "es", title: "Actualización disponible", message: "{app} {version} está disponible.",
            update: "Actualizar", later: "Más tarde", skip: "Omitir esta versión",
            requiredTitle: "Actualización necesaria",
            requiredMessage: "Actualiza {app} a la versión {version} para continuar."),
        "it": Strings(
            language: "it", title: "Aggiornamento disponibile", message: "{app} {version} è disponibile.",
            update: "Aggiorna", later: "Più tardi", skip: "Salta questa versione",
            requiredTitle: "Aggiornamento richiesto",
            requiredMessage: "Aggiorna {app} alla versione {version} per continuare."),
        "pt-BR": Strings(
            language: "pt-BR", title: "Atualização disponível", message: "{app} {version} está disponível.",
            update: "Atualizar", later: "Mais tarde", skip: "Pular esta versão",
            requiredTitle: "Atualização necessária",
            requiredMessage: "Atualize {app} para a versão {version} para continuar."),
        "pt-PT": Strings(
            language: "pt-PT", title: "Atualização disponível", message: "{app} {version} está disponível.",
            update: "Atualizar", later: "Mais tarde", skip: "Ignorar esta versão",
            requiredTitle: "Atualização necessária",
            requiredMessage: "Atualize {app} para a versão {version} para continuar."),
        "ru": Strings(
            language: "ru", title: "Доступно обновление", message: "Доступна версия {app} {version}.",
            update: "Обновить", later: "Позже", skip: "Пропустить эту версию",
            requiredTitle: "Требуется обновление",
            requiredMessage: "Чтобы продолжить, обновите {app} до версии {version}."),
        "uk": Strings(
            language: "uk", title: "Доступне оновлення", message: "Доступна версія {app} {version}.",
            update: "Оновити", later: "Пізніше", skip: "Пропустити цю версію",
            requiredTitle: "Потрібне оновлення", requiredMessage: "Щоб продовжити, оновіть {app} до версії {version}."),
        "pl": Strings(
            language: "pl", title: "Dostępna aktualizacja", message: "Dostępna jest wersja {version} aplikacji {app}.",
            update: "Aktualizuj", later: "Później", skip: "Pomiń tę wersję",
            requiredTitle: "Wymagana aktualizacja",
            requiredMessage: "Aby kontynuować, zaktualizuj aplikację {app} do wersji {version}."),
        "nl": Strings(
            language: "nl", title: "Update beschikbaar", message: "{app} {version} is beschikbaar.",
            update: "Bijwerken", later: "Later", skip: "Deze versie overslaan",
            requiredTitle: "Update vereist", requiredMessage: "Werk {app} bij naar versie {version} om door te gaan."),
        "sv": Strings(
            language: "sv", title: "Uppdatering tillgänglig", message: "{app} {version} finns tillgänglig.",
            update: "Uppdatera", later: "Senare", skip: "Hoppa över den här versionen",
            requiredTitle: "Uppdatering krävs",
            requiredMessage: "Uppdatera {app} till version {version} för att fortsätta."),
        "da": Strings(
            language: "da", title: "Opdatering tilgængelig", message: "{app} {version} er tilgængelig.",
            update: "Opdater", later: "Senere", skip: "Spring denne version over",
            requiredTitle: "Opdatering påkrævet",
            requiredMessage: "Opdater {app} til version {version} for at fortsætte."),
        "tr": Strings(
            language: "tr", title: "Güncelleme mevcut", message: "{app} {version} kullanıma sunuldu.",
            update: "Güncelle", later: "Daha sonra", skip: "Bu sürümü atla",
            requiredTitle: "Güncelleme gerekli",
            requiredMessage: "Devam etmek için lütfen {app} uygulamasını {version} sürümüne güncelleyin."),
        "ar": Strings(
            language: "ar", title: "يتوفر تحديث", message: "يتوفر {app} {version}.",
            update: "تحديث", later: "لاحقًا", skip: "تخطي هذا الإصدار",
            requiredTitle: "التحديث مطلوب", requiredMessage: "يُرجى تحديث {app} إلى الإصدار {version} للمتابعة."),
        "hi": Strings(
            language: "hi", title: "अपडेट उपलब्ध है", message: "{app} {version} उपलब्ध है।",
            update: "अपडेट करें", later: "बाद में", skip: "यह संस्करण छोड़ें",
            requiredTitle: "अपडेट आवश्यक है", requiredMessage: "जारी रखने के लिए कृपया {app} को संस्करण {version} में अपडेट करें।"),
        "th": Strings(
            language: "th", title: "มีอัปเดตใหม่", message: "{app} {version} พร้อมให้ใช้งานแล้ว",
            update: "อัปเดต", later: "ภายหลัง", skip: "ข้ามเวอร์ชันนี้",
            requiredTitle: "ต้องอัปเดต", requiredMessage: "โปรดอัปเดต {app} เป็นเวอร์ชัน {version} เพื่อใช้งานต่อ"),
        "vi": Strings(
            language: "vi", title: "Đã có bản cập nhật", message: "{app} {version} đã có sẵn.",
            update: "Cập nhật", later: "Để sau", skip: "Bỏ qua phiên bản này",
            requiredTitle: "Cần cập nhật",
            requiredMessage: "Vui lòng cập nhật {app} lên phiên bản {version} để tiếp tục."),
        "id": Strings(
            language: "id", title: "Pembaruan tersedia", message: "{app} {version} telah tersedia.",
            update: "Perbarui", later: "Nanti", skip: "Lewati versi ini",
            requiredTitle: "Pembaruan diperlukan",
            requiredMessage: "Perbarui {app} ke versi {version} untuk melanjutkan."),
    ]
}
