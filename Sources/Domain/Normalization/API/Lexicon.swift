import Foundation

/// A table of written forms and how to say them, read from a user file and merged over the built-in tables.
///
/// File format (UTF-8, one entry per line):
///
///     # comment lines start with "#"; blank lines are ignored
///     Hermione = Her-my-oh-nee
///     Ste.<TAB>Sainte
///     ~nasa = nasa
///
/// The written form and the spoken form are separated by a TAB, or by " = " when the line has no TAB.
/// Both are trimmed and must not be empty. A written form matches whole words only (the characters before and
/// after a match must not be letters or digits) and is case-sensitive; a leading `~` makes it case-insensitive.
/// When two entries share a written form, the later line wins. User entries win over built-in ones.
public struct Lexicon: Sendable, Equatable {
    /// One written form and its spoken replacement.
    public struct Entry: Sendable, Equatable {
        /// The text as it appears in the book.
        public var written: String
        /// What the engine should be given instead.
        public var spoken: String
        /// Whether the written form also matches with other capitalisation.
        public var caseInsensitive: Bool

        /// Creates an entry; `written` and `spoken` should be non-empty.
        public init(written: String, spoken: String, caseInsensitive: Bool = false) {
            self.written = written
            self.spoken = spoken
            self.caseInsensitive = caseInsensitive
        }
    }

    /// The entries, in file order.
    public var entries: [Entry]

    /// A lexicon with no entries.
    public static let empty = Lexicon(entries: [])

    /// The largest lexicon file accepted (bytes): a pronunciation list is a few hundred lines, not a book.
    public static let maximumFileSize = 4 * 1024 * 1024

    /// The longest line accepted, in characters.
    public static let maximumLineLength = 1000

    /// Creates a lexicon from entries; later entries win over earlier ones with the same written form.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads a lexicon file.
    ///
    /// - Throws: `LexiconError` naming the file (and line) when it cannot be read, is too large, is not UTF-8,
    ///   or has a line that is not a comment, blank, or `written<TAB>spoken` / `written = spoken`.
    public static func load(path: String) throws -> Lexicon {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > maximumFileSize {
                throw LexiconError.tooLarge(path: path, bytes: size, limit: maximumFileSize)
            }
            data = try Data(contentsOf: url)
        } catch let error as LexiconError {
            throw error
        } catch {
            throw LexiconError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard data.count <= maximumFileSize else {
            throw LexiconError.tooLarge(path: path, bytes: data.count, limit: maximumFileSize)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw LexiconError.notUTF8(path: path) }
        return try parse(text, path: path)
    }

    /// Parses lexicon text in the file format above; `path` only names the source in errors.
    public static func parse(_ text: String, path: String = "<lexicon>") throws -> Lexicon {
        var entries: [Entry] = []
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if lineNumber == 1, line.first == "\u{FEFF}" { line = line.dropFirst() }
            if line.last == "\r" { line = line.dropLast() }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard line.count <= maximumLineLength else {
                throw LexiconError.malformedLine(
                    path: path, line: lineNumber, text: String(line.prefix(60)) + "…",
                    reason: "longer than \(maximumLineLength) characters")
            }
            let separator: Range<Substring.Index>?
            if let tab = line.firstIndex(of: "\t") {
                separator = tab..<line.index(after: tab)
            } else {
                separator = line.range(of: " = ")
            }
            guard let separator else {
                throw LexiconError.malformedLine(
                    path: path, line: lineNumber, text: String(line),
                    reason: "expected a TAB or \" = \" between the written and spoken forms")
            }
            var written = line[..<separator.lowerBound].trimmingCharacters(in: .whitespaces)
            let spoken = line[separator.upperBound...].trimmingCharacters(in: .whitespaces)
            var caseInsensitive = false
            if written.hasPrefix("~") {
                caseInsensitive = true
                written.removeFirst()
            }
            guard !written.isEmpty else {
                throw LexiconError.malformedLine(
                    path: path, line: lineNumber, text: String(line), reason: "the written form is empty")
            }
            guard !spoken.isEmpty else {
                throw LexiconError.malformedLine(
                    path: path, line: lineNumber, text: String(line), reason: "the spoken form is empty")
            }
            entries.append(Entry(written: written, spoken: spoken, caseInsensitive: caseInsensitive))
        }
        return Lexicon(entries: entries)
    }

    /// This lexicon with `other`'s entries added after it, so `other` wins on the same written form.
    public func merging(_ other: Lexicon) -> Lexicon {
        Lexicon(entries: entries + other.entries)
    }
}

/// Why a lexicon file could not be used.
public enum LexiconError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is larger than `Lexicon.maximumFileSize`.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// The file is not valid UTF-8.
    case notUTF8(path: String)
    /// A line is neither blank, a comment, nor an entry.
    case malformedLine(path: String, line: Int, text: String, reason: String)

    /// The file, line and reason, for the CLI's error message.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read lexicon \(path): \(reason)"
        case .tooLarge(let path, let bytes, let limit):
            return "lexicon \(path) is \(bytes) bytes, more than the \(limit)-byte limit"
        case .notUTF8(let path):
            return "lexicon \(path) is not UTF-8 text"
        case .malformedLine(let path, let line, let text, let reason):
            return "\(path):\(line): \(reason): \(text)"
        }
    }
}
