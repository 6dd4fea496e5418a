import Normalization

/// File names of the section audio files: `NNN - Section Title.EXT`.
///
/// Titles come from the book, so they are untrusted: no path separators, control or format
/// characters, leading dots or dashes, `..`, trailing dots or spaces; capped at 80 characters (at a grapheme
/// boundary) and 200 UTF-8 bytes; a title with no letter or digit becomes `Section N`.
public enum OutputNaming {
    /// Longest title part of a file name, in characters (grapheme clusters).
    public static let maxTitleCharacters = 80
    /// Longest title part of a file name in UTF-8 bytes (file systems allow 255 per name).
    public static let maxTitleBytes = 200

    /// The title made safe for a single file name component.
    public static func sanitisedTitle(_ title: String, number: Int) -> String {
        var out = ""
        for scalar in title.unicodeScalars {
            switch scalar {
            case "/", "\\": out += "-"
            case ":": out += " -"
            case "\"": out += "'"
            case "?", "*", "<", ">", "|": continue
            default:
                let category = scalar.properties.generalCategory
                if category == .control || category == .format || category == .lineSeparator
                    || category == .paragraphSeparator
                {
                    out += " "
                } else if scalar.properties.isWhitespace {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        // Collapse runs of spaces and of dots (".." never survives; an ellipsis becomes "…").
        // A leading "-" goes too: a folder named "-rf" (a book title) reads as options to `rm -r *`.
        out = trimTrailing(String(out.drop { $0 == "." || $0 == " " || $0 == "-" }))
        out = collapse(out)
        out = capped(out)
        out = trimTrailing(out)
        let meaningful = out.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        return meaningful ? out : "Section \(number)"
    }

    /// The title a section goes by in file names, tags and the playlist: its own, unless it means
    /// nothing alone.
    ///
    /// A bare numeral ("III", "iv.", "12") repeats in every volume of a book with volumes or parts, so
    /// it is put after the enclosing part's title: "Volume I — III". The dash, not a word such as
    /// "Chapter", keeps the result right in every language. Any other title is returned unchanged, and
    /// so is a bare numeral without a part. The spoken title and `--list` are not affected.
    public static func displayTitle(_ title: String, partTitle: String?) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let part = partTitle?.trimmingCharacters(in: .whitespacesAndNewlines), !part.isEmpty,
            isBareNumeral(trimmed)
        else { return title }
        let numeral = trimmed.hasSuffix(".") ? String(trimmed.dropLast()) : trimmed
        return "\(part) — \(numeral)"
    }

    /// "III", "iv", "XII.", "12": a Roman numeral of I, V, X, L, C (in one case) or up to four digits,
    /// perhaps with a period; nothing else.
    static func isBareNumeral(_ title: String) -> Bool {
        let core = title.hasSuffix(".") ? title.dropLast() : Substring(title)
        guard !core.isEmpty, core.count <= 8 else { return false }
        if core.count <= 4, core.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let upper = core.uppercased()
        guard core == upper || core == core.lowercased(), upper.allSatisfy({ "IVXLC".contains($0) }) else {
            return false
        }
        return RomanNumerals.value(of: upper) != nil
    }

    /// `NNN - Title.ext` for one section (NNN: the number, zero-padded to at least 3 digits).
    public static func fileName(number: Int, title: String, fileExtension: String) -> String {
        "\(paddedNumber(number)) - \(sanitisedTitle(title, number: number)).\(fileExtension)"
    }

    /// File names for all sections in order, unique when compared case-insensitively.
    ///
    /// A clash (possible only if the source repeats a number) gets ` (2)`, ` (3)` ... before the extension.
    public static func fileNames(for sections: [(number: Int, title: String)], fileExtension: String) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for section in sections {
            let base = "\(paddedNumber(section.number)) - \(sanitisedTitle(section.title, number: section.number))"
            var name = "\(base).\(fileExtension)"
            var counter = 2
            while seen.contains(name.lowercased()) {
                name = "\(base) (\(counter)).\(fileExtension)"
                counter += 1
            }
            seen.insert(name.lowercased())
            names.append(name)
        }
        return names
    }

    /// The number zero-padded to at least 3 digits.
    public static func paddedNumber(_ number: Int) -> String {
        let digits = String(abs(number))
        let padded = digits.count >= 3 ? digits : String(repeating: "0", count: 3 - digits.count) + digits
        return number < 0 ? "-" + padded : padded
    }

    private static func collapse(_ text: String) -> String {
        var out = ""
        var pendingDots = 0
        func flushDots() {
            if pendingDots == 1 { out += "." } else if pendingDots > 1 { out += "…" }
            pendingDots = 0
        }
        for character in text {
            if character == "." {
                pendingDots += 1
                continue
            }
            flushDots()
            if character == " " && (out.isEmpty || out.hasSuffix(" ")) { continue }
            out.append(character)
        }
        flushDots()
        return out
    }

    private static func trimTrailing(_ text: String) -> String {
        var out = text
        while let last = out.last, last == "." || last == " " { out.removeLast() }
        return out
    }

    private static func capped(_ text: String) -> String {
        var out = ""
        var bytes = 0
        for (index, character) in text.enumerated() {
            let size = character.utf8.count
            if index >= maxTitleCharacters || bytes + size > maxTitleBytes { break }
            out.append(character)
            bytes += size
        }
        return out
    }
}

/// `playlist.m3u`: the finished sections in order, as extended M3U with relative file names.
public enum Playlist {
    /// The playlist's file name inside the output folder.
    public static let fileName = "playlist.m3u"

    /// One playlist entry.
    public struct Entry: Hashable, Sendable {
        /// The section's title.
        public var title: String
        /// File name relative to the playlist (no folder part).
        public var file: String
        /// The file's duration (`#EXTINF`), in seconds.
        public var durationSeconds: Double

        /// A playlist entry.
        public init(title: String, file: String, durationSeconds: Double) {
            self.title = title
            self.file = file
            self.durationSeconds = durationSeconds
        }
    }

    /// The entries of every finished section `manifest` records, in book order; `only`: of these
    /// sections alone.
    public static func entries(of manifest: Manifest, only: Set<Int>? = nil) -> [Entry] {
        manifest.sections.lazy
            .filter { $0.status == .done && $0.file != nil && (only?.contains($0.number) ?? true) }
            .map { Entry(title: $0.title, file: $0.file ?? "", durationSeconds: $0.durationSeconds ?? 0) }
    }

    /// The playlist of every finished section `manifest` records.
    static func text(for manifest: Manifest) -> String { text(entries(of: manifest)) }

    /// The playlist text: `#EXTM3U`, then `#EXTINF:<whole seconds>,<title>` and the file name per entry.
    public static func text(_ entries: [Entry]) -> String {
        var out = "#EXTM3U\n"
        for entry in entries {
            let seconds = Int(entry.durationSeconds.rounded())
            let title = entry.title.unicodeScalars.map {
                $0.properties.generalCategory == .control ? " " : String($0)
            }.joined()
            out += "#EXTINF:\(seconds),\(title)\n\(entry.file)\n"
        }
        return out
    }
}
