import Markup

/// Links and addresses that point outside the book: schemes, a web page's icon buttons, links that show their own
/// address, and web addresses in the text read as their host.
enum WebLinks {
    /// Whether `href` names a scheme (`https:`, `mailto:`, `urn:`): letters, digits, `+`, `-` or `.`
    /// before a colon, ahead of any `/`, `?` or `#`.
    static func hasScheme(_ href: String) -> Bool {
        for (offset, byte) in href.utf8.enumerated() {
            if byte == UInt8(ascii: ":") { return offset > 0 }
            let isSchemeByte =
                (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !isSchemeByte { return false }
        }
        return false
    }

    /// A link whose text is a pictograph and a few words ("🔊 Listen", "▶️ Play"): a web page's button.
    static func isIconLink(_ anchor: MarkupElement) -> Bool {
        let text = anchor.rawText
        return TextMeasure.wordCount(text) <= 3 && text.contains(where: TextCleaner.isPictographic)
    }

    /// A link that shows its own address and points at a place inside a web page
    /// (`<a href="https://example.org/book/ch-2/#audio-1">https://example.org/book/ch-2/#audio-1</a>`):
    /// what a web-built book puts where it left out a player, a video or an exercise.
    static func isPointerLink(_ anchor: MarkupElement, href: String) -> Bool {
        guard let hash = href.firstIndex(of: "#"), href.index(after: hash) < href.endIndex else { return false }
        let text = TextCleaner.normalize(anchor.rawText).lowercased()
        guard text.hasPrefix("http") || text.hasPrefix("www.") else { return false }
        let shown = text.hasPrefix("www.") ? String(text.dropFirst(4)) : text
        let lowerHref = href.lowercased()
        return lowerHref.hasSuffix(shown) || lowerHref.hasPrefix(shown) || shown.hasSuffix(lowerHref)
    }

    /// Text with each web address read as its host: "see https://www.example.org/a/b.html." → "see
    /// example.org.". A listener cannot follow a link, and an address spelled out character by
    /// character is a minute of noise; the host says where the text points. An address alone in
    /// its block is read the same way (it is what the block says).
    static func readingAddresses(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.containsBytes("://") || utf8.containsBytesIgnoringASCIICase("www.") else { return text }
        var changed = false
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> Substring in
            guard let host = host(in: word) else { return word }
            changed = true
            return host
        }
        return changed ? words.joined(separator: " ") : text
    }

    /// The word with the web address in it replaced by the address's host, punctuation around it kept;
    /// nil when the word holds no address (`http://`, `https://`, `ftp://` or `www.`).
    static func host(in word: Substring) -> Substring? {
        let chars = Array(word)
        func starts(_ prefix: String, at position: Int) -> Bool {
            var offset = position
            for expected in prefix {
                guard offset < chars.count, chars[offset].lowercased() == String(expected) else { return false }
                offset += 1
            }
            return true
        }
        var start: Int?
        var hostStart = 0
        for i in chars.indices where i == 0 || !chars[i - 1].isLetter {
            if let scheme = ["https://", "http://", "ftp://"].first(where: { starts($0, at: i) }) {
                (start, hostStart) = (i, i + scheme.count)
            } else if starts("www.", at: i) {
                (start, hostStart) = (i, i)
            }
            if start != nil { break }
        }
        guard let start else { return nil }
        var end = chars.count
        while end > hostStart, ".,;:!?)]}\"'»›>".contains(chars[end - 1]) { end -= 1 }
        var host = chars[hostStart..<end].prefix { !"/?#".contains($0) }
        if let at = host.lastIndex(of: "@") { host = host[(at + 1)...] }
        if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        if starts("www.", at: host.startIndex) { host = host.dropFirst(4) }
        guard host.contains("."), host.contains(where: \.isLetter) else { return nil }
        return Substring(String(chars[..<start]) + String(host) + String(chars[end...]))
    }
}
