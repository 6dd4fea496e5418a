import Contracts
import EPUBReader

/// Figures of the whole book that every draft is judged against, computed before any draft is
/// assessed: "short" means short for this book, a file-name token shared by many files names none
/// of them, a block that note references point at is a note.
///
/// `init(_:)` computes what the book alone gives; the typical section's words need the sections
/// as first drawn, and `measuringSections(startingAt:in:)` adds them once the starts are refined.
/// Until then `typicalSectionWords` is 0 ("unknown"), as `SectionFeatures` reads it.
struct BookStatistics: Sendable {
    /// Words of the whole book outside notes, image descriptions included (a book of pictures is
    /// read from them).
    let bookWords: Int
    /// The blocks that note references in earlier files point at (`SectionFeatures.referencedNotes`).
    let referencedNoteBlocks: Set<SourcePosition>
    /// Tokens of file names that say nothing about a file in this book (`generatedNameTokenFiles`).
    let commonFileTokens: Set<String>
    /// Tokens of the ids the TOC points at that so many entries share, outside their labels, that
    /// they say nothing about one section (`commonTokens(ofFragmentsIn:)`).
    let commonIdTokens: Set<String>
    /// The words of the section that holds the book's typical word, as the sections are first
    /// drawn (`SectionFeatures.typicalSectionWords`); 0 before they are.
    private(set) var typicalSectionWords = 0

    /// File-name tokens shared by this many spine items or more are generated names
    /// (`index_split_042`, `index3`, `part0007`): they say nothing about one file.
    static let generatedNameTokenFiles = 3

    /// Fewest words of text for each note reference a file makes: a chapter's sentences around
    /// its markers (one every few dozen words in the densest scholarly text).
    static let wordsPerNoteReference = 20

    /// The figures `book` gives before any section is drawn.
    init(_ book: IndexedBook) {
        bookWords = book.docs.reduce(0) { $0 + $1.words + $1.blocks.reduce(0) { $0 + $1.imageWords } }
        referencedNoteBlocks = Self.blocksReferencedAsNotes(in: book)
        commonFileTokens = Self.commonTokens(ofFileNamesIn: book.package.spine)
        commonIdTokens = Self.commonTokens(ofFragmentsIn: book.package.toc)
    }

    /// These figures with the typical section's words of the sections `starts` draw.
    func measuringSections(startingAt starts: [SectionStart], in book: IndexedBook) -> BookStatistics {
        var measured = self
        measured.typicalSectionWords = Self.typicalSectionWords(between: starts, in: book)
        return measured
    }

    /// How long the section holding a typical word of the book is: the words of the section in
    /// which the book's middle word lies, sections ordered by size. "Short" then means short for
    /// this book (a poem in a book of sixty poems is no title page), however many small front
    /// and back matter pages a play of four long acts has.
    static func typicalSectionWords(between starts: [SectionStart], in book: IndexedBook) -> Int {
        var counts: [Int] = []
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].position : book.endPosition
            let words = book.blocks(from: start.position, to: end).reduce(0) { sum, entry in
                let block = entry.1
                return block.isNote || block.isOmitted || !block.hasText ? sum : sum + block.words
            }
            if words > 0 { counts.append(words) }
        }
        var below = 0
        let half = counts.reduce(0, +) / 2
        for words in counts.sorted() {
            below += words
            if below > half { return words }
        }
        return 0
    }

    /// The blocks a note reference (a bare "12" or "[3]" linking into another file, or one the
    /// book marks) in an earlier file of running text points at. Only forward: notes come after
    /// the text that refers to them, and the links back from a note to its reference must not
    /// make the text a note. Only from running text (`wordsPerNoteReference`): a printed contents
    /// list of bare numbers is no text referring to notes.
    static func blocksReferencedAsNotes(in book: IndexedBook) -> Set<SourcePosition> {
        let spine = book.package.spine
        var blocks: Set<SourcePosition> = []
        for (source, doc) in book.docs.enumerated() where source < spine.count && !doc.noteReferencesOut.isEmpty {
            guard doc.words >= wordsPerNoteReference * doc.noteReferencesOut.count else { continue }
            for href in doc.noteReferencesOut {
                guard let hash = href.firstIndex(of: "#") else { continue }
                let path = SpokenTextExtractor.resolve(String(href[..<hash]), from: spine[source].href)
                guard let target = book.spineIndex(of: path), target > source, target < book.docs.count,
                    let block = book.docs[target].anchors[String(href[href.index(after: hash)...])]
                else { continue }
                blocks.insert(SourcePosition(spineIndex: target, blockIndex: block))
            }
        }
        return blocks
    }

    /// Tokens of the file names of `generatedNameTokenFiles` or more spine items.
    static func commonTokens(ofFileNamesIn spine: [SpineItem]) -> Set<String> {
        var files: [String: Int] = [:]
        for item in spine {
            for token in Set(Patterns.tokens(ofName: item.href)) where token.first?.isLetter == true {
                files[token, default: 0] += 1
            }
        }
        return Set(files.filter { $0.value >= generatedNameTokenFiles }.keys)
    }

    /// Tokens of the fragments of `generatedNameTokenFiles` or more TOC entries whose labels do
    /// not hold them: a generated anchor (`calibre_toc_12`, `_Toc123456` under "Chapter I"), not a
    /// name made from the title (pandoc's "about-robert-frost" under "About Robert Frost" names
    /// its kind still).
    static func commonTokens(ofFragmentsIn toc: [TOCEntry]) -> Set<String> {
        var counts: [String: Int] = [:]
        for entry in toc.flatMap(\.flattened) {
            guard let fragment = entry.target?.fragment else { continue }
            let labelWords = Set(TextFold.fold(entry.label).split(separator: " ").map(String.init))
            for token in Set(Patterns.tokens(ofName: fragment)) where !labelWords.contains(token) {
                counts[token, default: 0] += 1
            }
        }
        return Set(counts.filter { $0.value >= generatedNameTokenFiles }.keys)
    }
}
