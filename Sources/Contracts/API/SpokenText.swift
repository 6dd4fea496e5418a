/// What a block of spoken text is, as far as the ear cares: it decides the pauses around it.
public enum BlockKind: String, Sendable, Codable, CaseIterable {
    /// The section's own title, spoken first.
    case title
    /// A heading inside the section.
    case heading
    case paragraph
    case listItem
    case blockQuote
    /// One line of verse; consecutive lines form a stanza.
    case poemLine
    /// The end of a stanza (no text; a pause).
    case stanzaBreak
    /// A scene break (`<hr>`, a row of asterisks; no text; a pause).
    case sceneBreak
    /// A short spoken notice that replaces content we do not read ("Table omitted.").
    case notice
    /// A caption of a figure or table.
    case caption
    /// A note read at the end of its section (`--notes end`).
    case note
}

/// A place in the book's reading order: a spine item and a block inside it; where a block comes from,
/// where a section starts and ends.
///
/// Blocks are counted by the text extractor (every block it saw, whatever the options), so a position
/// is stable across runs for the same book, and a chunk id built from it survives a restart. Within
/// one section no two blocks share a position. A block that stands for no block of the book (a
/// section's spoken title when no heading repeats it) has `blockIndex` -1 on the section's first
/// spine item.
public struct SourcePosition: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Index of the spine item, 0-based.
    public var spineIndex: Int
    /// Ordinal of the block inside its spine item, 0-based, counting every block the extractor saw;
    /// -1 for a block made up by the extractor (a section's title).
    public var blockIndex: Int

    /// The block at `blockIndex` of spine item `spineIndex`.
    public init(spineIndex: Int, blockIndex: Int) {
        self.spineIndex = spineIndex
        self.blockIndex = blockIndex
    }

    /// Reading order: by spine item, then by block.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.spineIndex, lhs.blockIndex) < (rhs.spineIndex, rhs.blockIndex)
    }

    /// `spine.block`, for warnings and `--list --verbose`.
    public var description: String { "\(spineIndex).\(blockIndex)" }
}

/// One block of text exactly as it will be spoken (citations, note references already removed).
public struct SpokenBlock: Hashable, Sendable, Codable {
    /// What the block is: decides the pauses around it.
    public var kind: BlockKind
    /// The text to speak; empty for pause-only blocks (scene and stanza breaks).
    public var text: String
    /// BCP 47 language of the block when it differs from or refines the book's (`xml:lang`).
    public var language: String?
    /// Where the block comes from in the book.
    public var source: SourcePosition
    /// The text as the book writes it ("In 1907, Dr. Reed"), when `text` is not (the normaliser
    /// wrote numbers and abbreviations as words: "In nineteen oh seven, Doctor Reed"); nil when they
    /// are the same. Citations and note references are removed from both. What subtitles and a
    /// read-along EPUB show; not part of what is spoken, so not of `SpokenTextFingerprint` either.
    public var bookText: String?

    /// A block to speak.
    public init(
        kind: BlockKind, text: String, language: String? = nil, source: SourcePosition, bookText: String? = nil
    ) {
        self.kind = kind
        self.text = text
        self.language = language
        self.source = source
        self.bookText = bookText
    }

    /// The text as the book writes it: `bookText`, else `text`.
    public var writtenText: String { bookText ?? text }
}
