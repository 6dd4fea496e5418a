/// Image descriptions (`alt`): which are worth hearing, which are a producer's placeholder or a file name, and
/// which are a drop capital drawn as a picture.
enum AltText {
    /// The description of a drop capital drawn as a picture: one letter, or two capitals ("T",
    /// "TH" before "E day").
    static func isDrawnCapital(_ alt: String) -> Bool {
        guard (1...2).contains(alt.count), alt.allSatisfy(\.isLetter) else { return false }
        return alt.count == 1 || alt.allSatisfy(\.isUppercase)
    }

    /// Whether folded `text` holds the folded words `words`, whole.
    static func containsWords(_ text: String, _ words: String) -> Bool {
        !words.isEmpty && " \(text) ".utf8.containsBytes(" \(words) ")
    }

    /// Alternative text that only says there is none ("Alternative text not available", "no alt
    /// text", "description unavailable"): a producer's placeholder, never worth hearing.
    static func isPlaceholderAlt(_ alt: String) -> Bool {
        let folded = TextFold.fold(alt)
        guard !folded.isEmpty, TextMeasure.wordCount(folded) <= 6 else { return false }
        let spaced = " \(folded) "  // whole words only: "alt" is no part of "Walter"
        let saysMissing = [" not available ", " unavailable ", " missing ", " no ", " none "].contains {
            spaced.contains($0)
        }
        let namesAlt = [" alt ", " alternative ", " text ", " description ", " image ", " equation "].contains {
            spaced.contains($0)
        }
        return saysMissing && namesAlt
    }

    static func isMeaningfulAlt(_ alt: String) -> Bool {
        if isPlaceholderAlt(alt) { return false }
        let folded = TextFold.fold(alt)
        guard folded.count >= 3 else { return false }
        let lower = alt.lowercased()
        for ext in [".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp"] where lower.hasSuffix(ext) { return false }
        let meaningless: Set<String> = [
            "cover", "cover image", "image", "img", "illustration", "figure", "picture", "photo", "graphic", "logo",
            "decoration", "ornament", "divider", "separator", "title", "titlepage", "title page", "front cover",
            "couverture", "bild", "imagen", "immagine", "imagem", "spacer", "blank", "billede", "bilde", "afbeelding",
            "kuva", "obraz", "fig", "pic",
        ]
        if meaningless.contains(folded) || meaningless.contains(AltText.droppingTrailingNumber(folded)) { return false }
        return folded.contains(where: \.isLetter)
    }

    /// "picture0", "img 003" (folded from "img_003") → "picture", "img": the word an exporter
    /// numbers its images with. Text that does not end in a number is returned as it is.
    static func droppingTrailingNumber(_ folded: String) -> String {
        let stem = folded.reversed().drop { $0.isASCII && ($0.isNumber || $0 == " ") }
        guard stem.count < folded.count, folded.last?.isNumber == true else { return folded }
        return String(stem.reversed())
    }
}
