/// Text the read-along book writes into XML by hand (SMIL overlays, the navigation document and the
/// package of an EPUB 2 book's upgrade): escaped in this one place.
enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, for element text and double-quoted attribute values.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
