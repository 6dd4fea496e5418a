/// Paths inside the OCF container: resolving hrefs, never leaving the container.
///
/// Container paths have no leading `/` and no `.`/`..` segments. They are names to look up in the
/// ZIP archive, never file-system paths.
public enum ContainerPath {
    /// The folder part of a container path with a trailing `/`, or "" at the root.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// Splits an href into its percent-decoded path and its fragment, dropping any query.
    /// Returns nil for absolute URLs with a scheme (`http:`, `mailto:`, `data:`): they are outside the book.
    public static func split(href: String) -> (path: String, fragment: String?)? {
        var rest = Substring(href.trimmingWhitespace())
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isLetter,
            rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
            rest[..<colon].count > 1
        {
            return nil
        }
        var fragment: String? = nil
        if let hash = rest.firstIndex(of: "#") {
            let raw = String(rest[rest.index(after: hash)...])
            fragment = raw.isEmpty ? nil : percentDecoded(raw)
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") { rest = rest[..<question] }
        return (percentDecoded(String(rest)), fragment)
    }

    /// Resolves a (decoded) relative path against a base folder (`OEBPS/text/`) into a container path.
    /// A leading `/` means the container root. Returns nil when `..` climbs above the root.
    public static func resolve(_ path: String, against baseDirectory: String) -> String? {
        let joined = path.hasPrefix("/") ? String(path.dropFirst()) : baseDirectory + path
        if isResolved(joined) { return joined }
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }

    /// Whether `resolve` would return `path` as it is, told from its bytes (most hrefs of a book):
    /// no empty segment (no `//`, no `/` at either end) and no segment that starts with a dot, so
    /// none that is `.` or `..`. Splitting at whole characters finds no more segments than the bytes
    /// show, so it drops nothing either.
    private static func isResolved(_ path: String) -> Bool {
        var previous = UInt8(ascii: "/")
        for byte in path.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return previous != UInt8(ascii: "/")
    }

    /// Expresses a container path relative to a folder (`OEBPS/`): `OEBPS/a.xhtml` → `a.xhtml`,
    /// `images/c.jpg` → `../images/c.jpg`.
    public static func relative(_ path: String, to directory: String) -> String {
        if path.hasPrefix(directory) { return String(path.dropFirst(directory.count)) }
        var base = directory.split(separator: "/").map(String.init)
        var target = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        while let first = base.first, target.count > 1, target.first == first {
            base.removeFirst()
            target.removeFirst()
        }
        return (Array(repeating: "..", count: base.count) + target).joined(separator: "/")
    }

    /// `%20` → space; malformed escapes and escapes that are not UTF-8 are kept as written.
    public static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self) ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    /// Trims spaces, tabs and line breaks at both ends.
    func trimmingWhitespace() -> String {
        // Most text has nothing to trim: it starts and ends with printable ASCII, never a space.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return self
        }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }

    /// Collapses every run of whitespace (line breaks, tabs, no-break spaces) into one space and trims.
    func collapsingWhitespace() -> String {
        if hasCollapsedWhitespace { return self }
        var out = ""
        var pendingSpace = false
        for scalar in unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `collapsingWhitespace()` would return this text as it is, told from its bytes (most
    /// labels and titles): single spaces between other characters, no control character, and no
    /// byte that starts a Unicode space (U+0085 and U+00A0 start with 0xC2, U+1680 with 0xE1,
    /// U+2000–U+205F with 0xE2, U+3000 with 0xE3).
    private var hasCollapsedWhitespace: Bool {
        var previous = UInt8(ascii: " ")  // a space first is a leading space
        for byte in utf8 {
            if byte == UInt8(ascii: " ") {
                if previous == byte { return false }
            } else if byte < 0x20 || byte == 0xC2 || (0xE1...0xE3).contains(byte) {
                return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: " ")
    }

    /// Whitespace-separated tokens (`properties="nav scripted"`).
    func tokens() -> [String] {
        split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
