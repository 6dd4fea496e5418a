import Contracts
import EPUBReader

/// What the indexer keeps of one block: counts, kinds and types, and the text only where a
/// section's features may look at it (see `IndexedDocument`).
struct IndexedBlock: Sendable {
    var kind: BlockKind
    /// The block's text when kept, else empty (`hasText` says whether it had any).
    var text: String
    var hasText: Bool
    /// Part of a footnote or endnote body.
    var isNote: Bool
    /// Content replaced by a notice (table, code, equation, image) or never spoken (navigation).
    var isOmitted: Bool
    /// Inside a `<nav>` of the content document: never spoken.
    var isNavigation = false
    /// The words of an image's description (`alt`), read as "Image: …" unless images are skipped.
    var imageWords = 0
    var types: [String]
    var words: Int
    /// The block's letters by script (what a voice must be able to speak: `BookSection.letters`).
    var letters = ScriptCensus()
    /// The language the markup gives the block (`xml:lang`), if any (`BookSection.languages`).
    var language: String?
    var linkWords: Int
    /// 1...6 for headings.
    var headingLevel: Int? = nil
    /// For headings: the level, one more for each `<section>` or `<article>` around it beyond the
    /// file's least nested heading. Books that mark chapters and their sections with the same
    /// `h2` and tell them apart by nesting alone get distinct ranks.
    var headingRank: Int? = nil
    /// Short enough to be a heading written as a paragraph (`HeadingFamilies.isCandidate`): its text is kept.
    var isHeadingLine = false
    /// Starts like a numbered entry ("12.", "[3]", "iv)"): notes and index entries do.
    var isNumbered = false
    /// Reads like an entry of a glossary or a list of references (`IndexedDocument.readsAsEntry`).
    var isEntry = false
    /// Ends with a page number, as an entry of an index does (`IndexedDocument.endsWithPageNumber`).
    var isPageEntry = false
    /// The first word, folded, of a block of entry size (`IndexedDocument.sortKey`): how a glossary
    /// or an index orders its entries.
    var sortKey: String?
    /// A line of a poem, or a stanza: a paragraph of short lines broken with `<br>`.
    var isVerse = false
    /// A stanza's lines are at most this long on average (characters); prose broken by `<br>` is longer.
    static let longestVerseLine = 70
    /// Short, and its folded text has Project Gutenberg's "start of the/this project gutenberg".
    var startsGutenbergText = false
    /// Short, and its folded text has "end of the/this project gutenberg" or starts "end of project gutenberg".
    var endsGutenbergText = false
    /// Short, and its lower-cased text has either Gutenberg marker (the classifier's test).
    var hasGutenbergMarker = false
    /// `(" " + text).count` when the text is kept for an opening (counted once, read by `OpeningText`).
    var openingPieceCount: Int?
    /// `RawBlock.styleClass`.
    var styleClass: String?
}

/// A content document as the indexer keeps it while it reads the whole book.
///
/// The indexer needs counts for every block but text only for headings and for the opening of a
/// section (the first 4000 characters the classifier reads). Sections before merging never cross
/// a file (every file starts one), so a section's opening lies in its own file, after one of the
/// places a section can start: the file's start, an element a TOC entry points at, a Project
/// Gutenberg marker, the edge of a semantic region. The text of every other block is dropped as
/// soon as the file is read, so memory follows the number of sections, not the size of the book.
struct IndexedDocument: Sendable {
    var blocks: [IndexedBlock] = []
    var anchors: [String: Int] = [:]
    var title: String?
    var bodyTypes: [String] = []
    var imageCount = 0
    /// Words outside notes.
    var words = 0
    /// `FlatDocument.noteReferencesOut`.
    var noteReferencesOut: [String] = []
    /// The language the document declares (`xml:lang` or `lang` on `<html>`), if any.
    var language: String?
    /// The spine item could not be read: it stands here empty (`SectionIndex.unreadableDocuments`).
    var isUnreadable = false

    init() {}

    /// Keeps what the indexer needs of `flat`; `tocFragments` are the fragments any TOC entry points at.
    init(_ flat: FlatDocument, tocFragments: Set<String>) {
        anchors = flat.anchors
        title = flat.title
        bodyTypes = flat.bodyTypes
        imageCount = flat.imageCount
        words = flat.words
        noteReferencesOut = flat.noteReferencesOut
        language = flat.language
        blocks = flat.blocks.map { flatBlock in
            var block = IndexedBlock(
                kind: flatBlock.kind, text: "", hasText: !flatBlock.text.isEmpty, isNote: flatBlock.noteID != nil,
                isOmitted: flatBlock.omitted != nil,
                types: flatBlock.types, words: flatBlock.words, linkWords: flatBlock.linkWords,
                headingLevel: flatBlock.headingLevel)
            block.isNumbered = Self.startsWithNumber(flatBlock.text) || Self.opensWithMarkerResidue(flatBlock.text)
            block.isEntry = Self.readsAsEntry(flatBlock.text, words: flatBlock.words)
            block.isPageEntry = Self.endsWithPageNumber(flatBlock.text, words: flatBlock.words)
            block.sortKey = Self.sortKey(flatBlock.text, words: flatBlock.words)
            block.styleClass = flatBlock.styleClass
            block.letters = ScriptCensus(flatBlock.text)
            block.language = flatBlock.language
            block.isNavigation = flatBlock.omitted == .navigation
            if case .image(let alt) = flatBlock.omitted { block.imageWords = TextMeasure.wordCount(alt) }
            block.isVerse =
                flatBlock.kind == .poemLine
                || (flatBlock.lineBreaks >= 2
                    && flatBlock.text.utf8.count <= 4 * IndexedBlock.longestVerseLine * (flatBlock.lineBreaks + 1)
                    && Self.fitsInCharacters(flatBlock.text, Self.verseLimit(flatBlock)))
            if flatBlock.kind != .heading, flatBlock.noteID == nil, flatBlock.omitted == nil,
                HeadingFamilies.isCandidate(flatBlock.text, words: flatBlock.words)
            {
                block.isHeadingLine = true
            }
            // Lower-casing maps no other letter to ASCII "gutenberg": an ASCII search, ignoring case, decides.
            let namesGutenberg = flatBlock.text.utf8.containsBytesIgnoringASCIICase("gutenberg")
            if flatBlock.isShort {
                let folded = TextFold.foldForASCIISearch(flatBlock.text).utf8
                block.startsGutenbergText =
                    folded.containsBytes("start of the project gutenberg")
                    || folded.containsBytes("start of this project gutenberg")
                block.endsGutenbergText = Self.hasGutenbergEnd(folded)
            } else if namesGutenberg {
                // The licence as one long block of lines (a `<pre>`, or lines broken with `<br>`)
                // opens with the end marker: the text ends there, whatever follows in the block.
                let opening = TextFold.foldForASCIISearch(String(flatBlock.text.prefix(Self.gutenbergEndOpening))).utf8
                block.endsGutenbergText = Self.hasGutenbergEnd(opening)
            }
            if namesGutenberg {
                let lower = flatBlock.text.lowercased()
                let bytes = lower.utf8
                block.hasGutenbergMarker =
                    (bytes.count < 400 || lower.count < 400)
                    && (bytes.containsBytes("start of the project gutenberg")
                        || bytes.containsBytes("end of the project gutenberg")
                        || bytes.containsBytes("start of this project gutenberg")
                        || bytes.containsBytes("end of this project gutenberg"))
            }
            return block
        }
        let shallowest = flat.blocks.lazy.filter { $0.kind == .heading }.map(\.sectionDepth).min() ?? 0
        for blockIndex in blocks.indices where blocks[blockIndex].kind == .heading {
            blocks[blockIndex].headingRank =
                (blocks[blockIndex].headingLevel ?? 6) + flat.blocks[blockIndex].sectionDepth - shallowest
        }
        var pieceCounts: [Int: Int] = [:]
        let keep = Self.blocksWithTextNeeded(
            flat, indexed: blocks, tocFragments: tocFragments, pieceCounts: &pieceCounts)
        for blockIndex in keep { blocks[blockIndex].text = flat.blocks[blockIndex].text }
        for (blockIndex, count) in pieceCounts { blocks[blockIndex].openingPieceCount = count }
    }

    /// Characters at the start of a long block in which Project Gutenberg's end marker opens its licence.
    static let gutenbergEndOpening = 300

    /// Whether folded text has "end of the/this project gutenberg" or starts "end of project gutenberg".
    private static func hasGutenbergEnd(_ folded: String.UTF8View) -> Bool {
        folded.containsBytes("end of the project gutenberg") || folded.containsBytes("end of this project gutenberg")
            || folded.starts(with: "end of project gutenberg".utf8)
    }

    /// The most characters a stanza of `block`'s line breaks holds (`IndexedBlock.longestVerseLine` a line).
    private static func verseLimit(_ block: RawBlock) -> Int { IndexedBlock.longestVerseLine * (block.lineBreaks + 1) }

    /// Whether `text` holds at most `limit` characters. A character has at least one scalar, so
    /// text of few enough scalars (counted from the bytes) fits without breaking it into characters.
    private static func fitsInCharacters(_ text: String, _ limit: Int) -> Bool {
        var text = text
        let scalars = text.withUTF8 { bytes in
            var continuations = 0  // 0x80...0xBF, the bytes after a scalar's first
            for byte in bytes where Int8(bitPattern: byte) < -64 { continuations &+= 1 }
            return bytes.count - continuations
        }
        return scalars <= limit || TextMeasure.characterCount(text, atMost: limit + 1) <= limit
    }

    /// Letters of a first word kept to sort it: enough to tell entries apart, little to keep.
    static let sortKeyLength = 12

    /// The first word of a block of at most `longestEntry` words, folded (`TextFold.fold`), its
    /// first `sortKeyLength` letters; nil for a longer block or one that opens with no letter (a
    /// sub-entry's dash).
    static func sortKey(_ text: String, words: Int) -> String? {
        guard words >= 1, words <= longestEntry else { return nil }
        let first = text.prefix(4 * sortKeyLength).prefix { !$0.isWhitespace && $0 != "," && $0 != "." && $0 != ":" }
        let folded = TextFold.fold(String(first))
        guard let letter = folded.first, letter.isLetter else { return nil }
        return String(folded.prefix(sortKeyLength))
    }

    /// Most words of an index's entry: a term and its sub-entry, or a line of a poem and its page.
    static let longestPageEntry = 25

    /// Whether a short block ends with a page number after a separator: "Aphaeresis, 212, 240.",
    /// "Because the night was cold . . . 91", "Chapter IV\t37". Index entries and printed contents
    /// end so; sentences seldom do.
    static func endsWithPageNumber(_ text: String, words: Int) -> Bool {
        guard words >= 2, words <= longestPageEntry else { return false }
        var tail = Substring(text)
        while let last = tail.last, last == "." || last.isWhitespace { tail = tail.dropLast() }
        let digits = tail.reversed().prefix { $0.isASCII && $0.isNumber }
        guard (1...4).contains(digits.count) else { return false }
        let before = tail.dropLast(digits.count)
        // The page follows a separator: a comma, dots, a tab or several spaces, a dash.
        let separator = before.reversed().prefix { $0.isWhitespace || ",.–—-:".contains($0) }
        return separator.contains { ",.–—-\t".contains($0) } || separator.count >= 2
    }

    /// ". Act I. ..." or ") The term": what a note's number leaves when it was a link back to the
    /// reference, dropped as a marker (`NoteMarkers.isNoteReference`). A note numbered so.
    static func opensWithMarkerResidue(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(2))
        return bytes.count == 2 && (bytes[0] == UInt8(ascii: ".") || bytes[0] == UInt8(ascii: ")"))
            && bytes[1] == UInt8(ascii: " ")
    }

    /// "12. ...", "[3] ...", "iv) ...", "* ...": how notes, numbered lists and some index entries begin.
    static func startsWithNumber(_ text: String) -> Bool {
        var digits = 0
        for ch in text.utf8.prefix(6) {
            if (48...57).contains(ch) {
                digits += 1
            } else if ch == UInt8(ascii: "[") || ch == UInt8(ascii: "(") {
                if digits > 0 { return false }
            } else {
                return digits > 0 && [".", ")", "]", " "].contains(Character(Unicode.Scalar(ch)))
            }
        }
        return false
    }

    /// Most words of an entry of a glossary or a list of references; running prose has longer paragraphs.
    static let longestEntry = 80
    /// Most words before the separator that ends a glossary's term.
    static let longestTerm = 6

    /// Whether a paragraph reads like an entry of a glossary or a list of references: at most
    /// `longestEntry` words, and either a term of a few words and a separator open it ("Kerf: the
    /// cut a saw makes", "Anaphora — the repetition of…") or it names a year, as a reference does
    /// ("Hale, A. A Treatise on Small Machines. London: Marsh, 1895."). Prose paragraphs are longer
    /// and seldom open so; the shape counts only when most of a section's blocks have it.
    static func readsAsEntry(_ text: String, words: Int) -> Bool {
        guard words >= 2, words <= longestEntry else { return false }
        return opensWithTerm(text.utf8) || namesAYear(text.utf8) || namesAPrice(text)
    }

    /// A price, as a publisher's list gives one: a currency sign beside a number ("$6.75", "£3",
    /// "12 €") or shillings and pence ("7s. 6d.", "4s. net").
    private static func namesAPrice(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars.prefix(4 * longestEntry * 8))
        func isDigit(_ index: Int) -> Bool {
            index >= 0 && index < scalars.count && ("0"..."9").contains(scalars[index])
        }
        for (index, scalar) in scalars.enumerated() {
            // "$6.75", "£ 3", "12 €", "12€"
            if "$£€¥".unicodeScalars.contains(scalar),
                isDigit(index + 1) || isDigit(index - 1) || (isDigit(index + 2) && scalars[index + 1] == " ")
                    || (isDigit(index - 2) && scalars[index - 1] == " ")
            {
                return true
            }
            // "7s. 6d."
            if scalar == "s" || scalar == "d", isDigit(index - 1), index + 1 < scalars.count, scalars[index + 1] == "."
            {
                return true
            }
        }
        return false
    }

    /// A term of 1...`longestTerm` words with a letter in it, then ":", "—", "–" or " - ", then
    /// more text. (A dash that opens the line is dialogue, not the end of a term.)
    private static func opensWithTerm(_ text: String.UTF8View) -> Bool {
        var spaces = 0
        var hasLetter = false
        var last: UInt8 = 0
        var beforeLast: UInt8 = 0
        for (offset, byte) in text.enumerated() {
            if spaces > longestTerm || offset > 12 * longestTerm { return false }
            let colon = byte == UInt8(ascii: ":")
            let dash = (byte == 0x94 || byte == 0x93) && last == 0x80 && beforeLast == 0xE2
            let hyphen = byte == UInt8(ascii: " ") && last == UInt8(ascii: "-") && beforeLast == UInt8(ascii: " ")
            if colon || dash || hyphen {
                let after = text.dropFirst(offset + 1).first
                return hasLetter && after != nil && (!colon || after == UInt8(ascii: " "))
            }
            if byte == UInt8(ascii: " ") {
                if last != UInt8(ascii: " ") { spaces += 1 }
            } else if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                || (byte >= 0xC0 && byte != 0xE2)
            {
                hasLetter = true
            }
            beforeLast = last
            last = byte
        }
        return false
    }

    /// A run of exactly four digits from 1400 to 2099: a year of publication.
    private static func namesAYear(_ text: String.UTF8View) -> Bool {
        var run = 0
        var value = 0
        for byte in text {
            if byte >= 48, byte <= 57 {
                run += 1
                if run <= 4 { value = value * 10 + Int(byte - 48) }  // longer runs are no year (and never overflow)
                continue
            }
            if run == 4, (1400...2099).contains(value) { return true }
            run = 0
            value = 0
        }
        return run == 4 && (1400...2099).contains(value)
    }

    /// Blocks whose text a section's features may read: headings, and from each place a section
    /// can start, the blocks `DraftAssessor.features(of:)` puts in the opening text (until it
    /// reaches 4000 characters) and the first block with text (for a section of notes only).
    private static func blocksWithTextNeeded(
        _ flat: FlatDocument, indexed: [IndexedBlock], tocFragments: Set<String>, pieceCounts: inout [Int: Int]
    ) -> Set<Int> {
        var keep: Set<Int> = []
        for (blockIndex, block) in indexed.enumerated() where block.kind == .heading || block.isHeadingLine {
            keep.insert(blockIndex)
        }
        var starts: Set<Int> = [0]
        for fragment in tocFragments {
            if let blockIndex = flat.anchors[fragment] { starts.insert(blockIndex) }
        }
        for (blockIndex, block) in indexed.enumerated() where block.startsGutenbergText || block.endsGutenbergText {
            starts.insert(blockIndex)
            starts.insert(blockIndex + 1)
        }
        // Edges of semantic regions (`StartRefinement.splitRegions`).
        let regionTypes = Set(indexed.flatMap(\.types)).intersection(StartRefinement.regionTypes)
        for type in regionTypes {
            var previous = false
            for (blockIndex, block) in indexed.enumerated() {
                let inside = block.types.contains(type)
                if inside != previous { starts.insert(blockIndex) }
                previous = inside
            }
        }
        for start in starts where start < indexed.count {
            if let first = indexed[start...].firstIndex(where: \.hasText) { keep.insert(first) }
            var opening = OpeningText()
            for blockIndex in start..<indexed.count {
                let block = indexed[blockIndex]
                guard !block.isNote, !block.isOmitted, block.hasText else { continue }
                keep.insert(blockIndex)
                let text = flat.blocks[blockIndex].text
                let pieceCount = pieceCounts[blockIndex] ?? OpeningText.pieceCount(text)
                pieceCounts[blockIndex] = pieceCount
                opening.append(text, pieceCount: pieceCount)
                if opening.isFull { break }
            }
        }
        return keep
    }
}

/// The opening text of a section as the classifier reads it: block texts after a space each,
/// until it holds 4000 characters (the block that reaches them is kept whole).
struct OpeningText {
    private(set) var text = ""
    /// `text.count`, kept up to date without counting the whole text again.
    private(set) var count = 0

    /// The characters an opening holds before it is full.
    static let length = 4000

    var isFull: Bool { count >= Self.length }

    /// `min((" " + block).count, length)`: what `append` adds to `count` after text that ends in no
    /// prepended mark. A block that long fills any opening, so its characters are not counted further.
    static func pieceCount(_ block: String) -> Int { TextMeasure.characterCount(" " + block, atMost: length) }

    /// Appends `block` after a space; `pieceCount`, when given, must be `pieceCount(block)`.
    mutating func append(_ block: String, pieceCount: Int? = nil) {
        let piece = " " + block
        // A space starts a character of its own unless the text before ends with a prepended mark.
        let joins = text.unicodeScalars.last.map { TextCleaner.mayBePrepended($0.value) } ?? false
        text += piece
        count = joins ? text.count : count + (pieceCount ?? piece.count)
    }
}
