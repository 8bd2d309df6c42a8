import StoreReleaseCore

// The prompt's strings, a language a row. Each was written for its language, not
// machine-translated; none has yet been reviewed by a native speaker but English (the list
// `reviewedByANativeSpeaker` says which have been; report a wording at the project's issues).

extension UpdatePromptText {
    /// The languages whose strings a native speaker has reviewed; the others are unreviewed.
    public static let reviewedByANativeSpeaker: Set<String> = ["en"]

    /// The right-to-left languages: Arabic, Hebrew, Persian, Urdu, Central Kurdish and Pashto.
    public static let rightToLeftLanguages: Set<String> = ["ar", "he", "fa", "ur", "ckb", "ps"]

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
        "cs": Strings(
            language: "cs", title: "K dispozici je aktualizace", message: "{app} {version} je k dispozici.",
            update: "Aktualizovat", later: "Později", skip: "Přeskočit tuto verzi",
            requiredTitle: "Je nutná aktualizace",
            requiredMessage: "Chcete-li pokračovat, aktualizujte {app} na verzi {version}."),
        "sk": Strings(
            language: "sk", title: "K dispozícii je aktualizácia", message: "{app} {version} je k dispozícii.",
            update: "Aktualizovať", later: "Neskôr", skip: "Preskočiť túto verziu",
            requiredTitle: "Vyžaduje sa aktualizácia",
            requiredMessage: "Ak chcete pokračovať, aktualizujte {app} na verziu {version}."),
        "hu": Strings(
            language: "hu", title: "Frissítés érhető el", message: "Elérhető a(z) {app} {version}.",
            update: "Frissítés", later: "Később", skip: "Verzió kihagyása",
            requiredTitle: "Frissítés szükséges",
            requiredMessage: "A folytatáshoz frissítse a(z) {app} alkalmazást a(z) {version} verzióra."),
        "ro": Strings(
            language: "ro", title: "Actualizare disponibilă", message: "{app} {version} este disponibilă.",
            update: "Actualizează", later: "Mai târziu", skip: "Omite această versiune",
            requiredTitle: "Actualizare necesară",
            requiredMessage: "Actualizează {app} la versiunea {version} pentru a continua."),
        "bg": Strings(
            language: "bg", title: "Налична е актуализация", message: "{app} {version} е налична.",
            update: "Актуализиране", later: "По-късно", skip: "Пропускане на тази версия",
            requiredTitle: "Необходима е актуализация",
            requiredMessage: "За да продължите, актуализирайте {app} до версия {version}."),
        "hr": Strings(
            language: "hr", title: "Dostupno je ažuriranje", message: "{app} {version} je dostupna.",
            update: "Ažuriraj", later: "Kasnije", skip: "Preskoči ovu verziju",
            requiredTitle: "Potrebno je ažuriranje",
            requiredMessage: "Ažurirajte {app} na verziju {version} da biste nastavili."),
        "sr-Cyrl": Strings(
            language: "sr-Cyrl", title: "Доступно је ажурирање", message: "{app} {version} је доступна.",
            update: "Ажурирај", later: "Касније", skip: "Прескочи ову верзију",
            requiredTitle: "Потребно је ажурирање",
            requiredMessage: "Ажурирајте {app} на верзију {version} да бисте наставили."),
        "sr-Latn": Strings(
            language: "sr-Latn", title: "Dostupno je ažuriranje", message: "{app} {version} je dostupna.",
            update: "Ažuriraj", later: "Kasnije", skip: "Preskoči ovu verziju",
            requiredTitle: "Potrebno je ažuriranje",
            requiredMessage: "Ažurirajte {app} na verziju {version} da biste nastavili."),
        "sl": Strings(
            language: "sl", title: "Na voljo je posodobitev", message: "Na voljo je {app} {version}.",
            update: "Posodobi", later: "Pozneje", skip: "Preskoči to različico",
            requiredTitle: "Potrebna je posodobitev",
            requiredMessage: "Za nadaljevanje posodobite {app} na različico {version}."),
        "el": Strings(
            language: "el", title: "Διαθέσιμη ενημέρωση", message: "Το {app} {version} είναι διαθέσιμο.",
            update: "Ενημέρωση", later: "Αργότερα", skip: "Παράλειψη αυτής της έκδοσης",
            requiredTitle: "Απαιτείται ενημέρωση",
            requiredMessage: "Ενημερώστε το {app} στην έκδοση {version} για να συνεχίσετε."),
        "he": Strings(
            language: "he", title: "עדכון זמין", message: "{app} {version} זמין.",
            update: "עדכון", later: "מאוחר יותר", skip: "דילוג על גרסה זו",
            requiredTitle: "נדרש עדכון", requiredMessage: "כדי להמשיך, יש לעדכן את {app} לגרסה {version}."),
        "fa": Strings(
            language: "fa", title: "به‌روزرسانی در دسترس است", message: "{app} {version} در دسترس است.",
            update: "به‌روزرسانی", later: "بعداً", skip: "رد شدن از این نسخه",
            requiredTitle: "به‌روزرسانی لازم است",
            requiredMessage: "برای ادامه، {app} را به نسخهٔ {version} به‌روزرسانی کنید."),
        "ur": Strings(
            language: "ur", title: "اپ ڈیٹ دستیاب ہے", message: "{app} {version} دستیاب ہے۔",
            update: "اپ ڈیٹ کریں", later: "بعد میں", skip: "اس ورژن کو چھوڑ دیں",
            requiredTitle: "اپ ڈیٹ ضروری ہے",
            requiredMessage: "جاری رکھنے کے لیے {app} کو ورژن {version} پر اپ ڈیٹ کریں۔"),
        "ckb": Strings(
            language: "ckb", title: "نوێکردنەوە بەردەستە", message: "{app} {version} بەردەستە.",
            update: "نوێکردنەوە", later: "دواتر", skip: "ئەم وەشانە تێپەڕێنە",
            requiredTitle: "نوێکردنەوە پێویستە",
            requiredMessage: "بۆ بەردەوامبوون، {app} نوێ بکەرەوە بۆ وەشانی {version}."),
        "ps": Strings(
            language: "ps", title: "نوې نسخه شتون لري", message: "{app} {version} شتون لري.",
            update: "تازه کړئ", later: "وروسته", skip: "دا نسخه پرېږدئ",
            requiredTitle: "تازه کول اړین دي",
            requiredMessage: "د دوام لپاره، {app} {version} نسخې ته تازه کړئ."),
        "fi": Strings(
            language: "fi", title: "Päivitys saatavilla", message: "{app} {version} on saatavilla.",
            update: "Päivitä", later: "Myöhemmin", skip: "Ohita tämä versio",
            requiredTitle: "Päivitys vaaditaan", requiredMessage: "Päivitä {app} versioon {version} jatkaaksesi."),
        "nb": Strings(
            language: "nb", title: "Oppdatering tilgjengelig", message: "{app} {version} er tilgjengelig.",
            update: "Oppdater", later: "Senere", skip: "Hopp over denne versjonen",
            requiredTitle: "Oppdatering kreves",
            requiredMessage: "Oppdater {app} til versjon {version} for å fortsette."),
        "et": Strings(
            language: "et", title: "Värskendus on saadaval", message: "{app} {version} on saadaval.",
            update: "Värskenda", later: "Hiljem", skip: "Jäta see versioon vahele",
            requiredTitle: "Värskendus on vajalik",
            requiredMessage: "Jätkamiseks värskendage {app} versioonile {version}."),
        "lv": Strings(
            language: "lv", title: "Pieejams atjauninājums", message: "Ir pieejama {app} {version}.",
            update: "Atjaunināt", later: "Vēlāk", skip: "Izlaist šo versiju",
            requiredTitle: "Nepieciešams atjauninājums",
            requiredMessage: "Lai turpinātu, atjauniniet {app} uz versiju {version}."),
        "lt": Strings(
            language: "lt", title: "Yra naujinys", message: "Galima {app} {version}.",
            update: "Atnaujinti", later: "Vėliau", skip: "Praleisti šią versiją",
            requiredTitle: "Būtina atnaujinti",
            requiredMessage: "Norėdami tęsti, atnaujinkite {app} į {version} versiją."),
        "ms": Strings(
            language: "ms", title: "Kemas kini tersedia", message: "{app} {version} kini tersedia.",
            update: "Kemas kini", later: "Kemudian", skip: "Langkau versi ini",
            requiredTitle: "Kemas kini diperlukan",
            requiredMessage: "Sila kemas kini {app} kepada versi {version} untuk meneruskan."),
        "fil": Strings(
            language: "fil", title: "May available na update", message: "Available na ang {app} {version}.",
            update: "I-update", later: "Mamaya", skip: "Laktawan ang bersyong ito",
            requiredTitle: "Kailangang mag-update",
            requiredMessage: "I-update ang {app} sa bersyon {version} para magpatuloy."),
        "ca": Strings(
            language: "ca", title: "Hi ha una actualització disponible", message: "{app} {version} està disponible.",
            update: "Actualitza", later: "Més tard", skip: "Omet aquesta versió",
            requiredTitle: "Cal actualitzar", requiredMessage: "Actualitza {app} a la versió {version} per continuar."),
        "eu": Strings(
            language: "eu", title: "Eguneratze bat dago eskuragarri", message: "{app} {version} eskuragarri dago.",
            update: "Eguneratu", later: "Geroago", skip: "Saltatu bertsio hau",
            requiredTitle: "Eguneratu egin behar da",
            requiredMessage: "Jarraitzeko, eguneratu {app} {version} bertsiora."),
        "hy": Strings(
            language: "hy", title: "Հասանելի է թարմացում", message: "{app} {version}-ը հասանելի է։",
            update: "Թարմացնել", later: "Ավելի ուշ", skip: "Բաց թողնել այս տարբերակը",
            requiredTitle: "Անհրաժեշտ է թարմացում",
            requiredMessage: "Շարունակելու համար թարմացրեք {app}-ը մինչև {version} տարբերակը։"),
        "bn": Strings(
            language: "bn", title: "আপডেট উপলব্ধ", message: "{app} {version} উপলব্ধ।",
            update: "আপডেট করুন", later: "পরে", skip: "এই সংস্করণটি এড়িয়ে যান",
            requiredTitle: "আপডেট প্রয়োজন", requiredMessage: "চালিয়ে যেতে {app} সংস্করণ {version}-এ আপডেট করুন।"),
        "ta": Strings(
            language: "ta", title: "புதுப்பிப்பு கிடைக்கிறது", message: "{app} {version} கிடைக்கிறது.",
            update: "புதுப்பி", later: "பிறகு", skip: "இந்தப் பதிப்பைத் தவிர்",
            requiredTitle: "புதுப்பிப்பு தேவை", requiredMessage: "தொடர, {app} ஐ {version} பதிப்பிற்குப் புதுப்பிக்கவும்."),
        "te": Strings(
            language: "te", title: "అప్‌డేట్ అందుబాటులో ఉంది", message: "{app} {version} అందుబాటులో ఉంది.",
            update: "అప్‌డేట్ చేయి", later: "తర్వాత", skip: "ఈ వెర్షన్‌ను దాటవేయి",
            requiredTitle: "అప్‌డేట్ అవసరం", requiredMessage: "కొనసాగించడానికి {app}ని {version} వెర్షన్‌కు అప్‌డేట్ చేయండి."),
        "kk": Strings(
            language: "kk", title: "Жаңарту қолжетімді", message: "{app} {version} қолжетімді.",
            update: "Жаңарту", later: "Кейінірек", skip: "Бұл нұсқаны өткізіп жіберу",
            requiredTitle: "Жаңарту қажет",
            requiredMessage: "Жалғастыру үшін {app} қолданбасын {version} нұсқасына жаңартыңыз."),
        "uz": Strings(
            language: "uz", title: "Yangilanish mavjud", message: "{app} {version} mavjud.",
            update: "Yangilash", later: "Keyinroq", skip: "Bu versiyani oʻtkazib yuborish",
            requiredTitle: "Yangilash talab qilinadi",
            requiredMessage: "Davom etish uchun {app} ilovasini {version} versiyasiga yangilang."),
        "mn": Strings(
            language: "mn", title: "Шинэчлэл бэлэн байна", message: "{app} {version} гарсан байна.",
            update: "Шинэчлэх", later: "Дараа", skip: "Энэ хувилбарыг алгасах",
            requiredTitle: "Шинэчлэх шаардлагатай",
            requiredMessage: "Үргэлжлүүлэхийн тулд {app}-г {version} хувилбар руу шинэчилнэ үү."),
        "km": Strings(
            language: "km", title: "មានកំណែថ្មី", message: "{app} {version} អាចប្រើបានហើយ។",
            update: "ធ្វើបច្ចុប្បន្នភាព", later: "ពេលក្រោយ", skip: "រំលងកំណែនេះ",
            requiredTitle: "ត្រូវការធ្វើបច្ចុប្បន្នភាព", requiredMessage: "សូមធ្វើបច្ចុប្បន្នភាព {app} ទៅកំណែ {version} ដើម្បីបន្ត។"),
        "sw": Strings(
            language: "sw", title: "Sasisho linapatikana", message: "{app} {version} inapatikana.",
            update: "Sasisha", later: "Baadaye", skip: "Ruka toleo hili",
            requiredTitle: "Sasisho linahitajika", requiredMessage: "Sasisha {app} hadi toleo {version} ili kuendelea."),
        "ht": Strings(
            language: "ht", title: "Gen yon mizajou ki disponib", message: "{app} {version} disponib.",
            update: "Mete ajou", later: "Pita", skip: "Sote vèsyon sa a",
            requiredTitle: "Ou dwe mete ajou",
            requiredMessage: "Mete {app} ajou nan vèsyon {version} pou w ka kontinye."),
    ]
}
