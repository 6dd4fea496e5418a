/// What the notices that stand for omitted content say, in the language they are read in.
///
/// A notice is spoken by the voice of its block's language: "Table omitted." read by a French voice
/// in a French book is neither French nor English to the listener. The languages here are those of
/// the books people convert most that espeak-ng speaks; any other falls back to English, as before.
struct NoticeWording: Hashable, Sendable {
    /// For an omitted table.
    var table: String
    /// For an omitted code listing.
    var code: String
    /// For an equation without alternative text.
    var equation: String
    /// Before an image's alternative text.
    var imagePrefix: String

    static let english = NoticeWording(
        table: "Table omitted.", code: "Code example omitted.", equation: "Equation omitted.", imagePrefix: "Image: ")

    /// The wording for a BCP 47 tag (`fr`, `pt-BR`, `zh-Hans`: its primary subtag decides); English
    /// for a language without one here, or none.
    static func of(_ language: String?) -> NoticeWording {
        guard let language else { return english }
        return byLanguage[LanguageDetector.primaryLanguage(language)] ?? english
    }

    private static let byLanguage: [String: NoticeWording] = [
        "en": english,
        "fr": NoticeWording(
            table: "Tableau omis.", code: "Exemple de code omis.", equation: "Équation omise.", imagePrefix: "Image : "),
        "de": NoticeWording(
            table: "Tabelle ausgelassen.", code: "Codebeispiel ausgelassen.", equation: "Formel ausgelassen.",
            imagePrefix: "Bild: "),
        "es": NoticeWording(
            table: "Tabla omitida.", code: "Ejemplo de código omitido.", equation: "Ecuación omitida.",
            imagePrefix: "Imagen: "),
        "it": NoticeWording(
            table: "Tabella omessa.", code: "Esempio di codice omesso.", equation: "Equazione omessa.",
            imagePrefix: "Immagine: "),
        "pt": NoticeWording(
            table: "Tabela omitida.", code: "Exemplo de código omitido.", equation: "Equação omitida.",
            imagePrefix: "Imagem: "),
        "nl": NoticeWording(
            table: "Tabel weggelaten.", code: "Codevoorbeeld weggelaten.", equation: "Formule weggelaten.",
            imagePrefix: "Afbeelding: "),
        "da": NoticeWording(
            table: "Tabel udeladt.", code: "Kodeeksempel udeladt.", equation: "Ligning udeladt.",
            imagePrefix: "Billede: "),
        "sv": NoticeWording(
            table: "Tabell utelämnad.", code: "Kodexempel utelämnat.", equation: "Ekvation utelämnad.",
            imagePrefix: "Bild: "),
        "nb": norwegian, "no": norwegian, "nn": norwegian,
        "fi": NoticeWording(
            table: "Taulukko ohitettu.", code: "Koodiesimerkki ohitettu.", equation: "Kaava ohitettu.",
            imagePrefix: "Kuva: "),
        "pl": NoticeWording(
            table: "Tabela pominięta.", code: "Przykład kodu pominięty.", equation: "Równanie pominięte.",
            imagePrefix: "Obraz: "),
        "ru": NoticeWording(
            table: "Таблица опущена.", code: "Пример кода опущен.", equation: "Формула опущена.",
            imagePrefix: "Изображение: "),
        "zh": NoticeWording(table: "表格从略。", code: "代码示例从略。", equation: "公式从略。", imagePrefix: "图片："),
        "ja": NoticeWording(table: "表は省略します。", code: "コード例は省略します。", equation: "数式は省略します。", imagePrefix: "画像："),
    ]

    private static let norwegian = NoticeWording(
        table: "Tabell utelatt.", code: "Kodeeksempel utelatt.", equation: "Ligning utelatt.", imagePrefix: "Bilde: ")
}
