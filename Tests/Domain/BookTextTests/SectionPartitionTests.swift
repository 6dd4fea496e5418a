import BookText
import Contracts
import EPUBReader
import TestSupport
import Testing

/// The spoken book is a partition of the spine's text, whatever the TOC says: checked on books of
/// generated structures (TOC entries nested, out of order, at one place, at missing anchors, into
/// the middle of files; headings and notes anywhere), not only on examples.
@Suite struct SectionPartitionTests {
    /// One content document of `blocks` random blocks, ids on some; returns its body and its ids.
    static func document(_ file: Int, blocks: Int, using g: inout SeededGenerator) -> (String, [String]) {
        var body = ""
        var ids: [String] = []
        for k in 0..<blocks {
            let id = "f\(file)b\(k)"
            let marked = Bool.random(using: &g)
            let attribute = marked ? " id='\(id)'" : ""
            if marked { ids.append(id) }
            switch Int.random(in: 0..<10, using: &g) {
            case 0:
                let level = Int.random(in: 1...4, using: &g)
                body += "<h\(level)\(attribute)>Heading \(file) \(k)</h\(level)>"
            case 1:
                body += "<p\(attribute)>\(["I", "II", "III", "Chapter \(k)", "Notes"].randomElement(using: &g)!)</p>"
            case 2: body += "<section\(attribute)><h3>Part \(k)</h3>\(prose(30, "sub\(file)x\(k)"))</section>"
            case 3:
                body +=
                    "<p\(attribute)>Text<a epub:type='noteref' href='#n\(file)x\(k)'>\(k)</a> goes on.</p>"
                    + "<aside epub:type='footnote' id='n\(file)x\(k)'><p>A note \(k).</p></aside>"
            case 4: body += "<div\(attribute)><span epub:type='pagebreak' id='pg\(file)x\(k)'>\(k)</span></div>"
            case 5: body += "<ul\(attribute)><li>One item</li><li>Another item</li></ul>"
            default:
                body += prose(Int.random(in: 5...120, using: &g), "w\(file)x\(k)").replacing(
                    "<p>", with: "<p\(attribute)>")
            }
        }
        return (body, ids)
    }

    /// A TOC of random entries into `files` (anchors, file starts, missing anchors, files outside the
    /// spine), nested up to three deep, in an order that need not be the reading order.
    static func toc(files: [(String, [String])], depth: Int = 1, using g: inout SeededGenerator) -> [TOCEntry] {
        (0..<Int.random(in: 0...5, using: &g)).map { n in
            let (href, ids) = files.randomElement(using: &g)!
            let target: String? =
                switch Int.random(in: 0..<6, using: &g) {
                case 0: href
                case 1: "\(href)#missing"
                case 2: Bool.random(using: &g) ? "elsewhere.xhtml" : nil
                default: ids.randomElement(using: &g).map { "\(href)#\($0)" } ?? href
                }
            let children =
                depth < 3 && Int.random(in: 0..<3, using: &g) == 0 ? toc(files: files, depth: depth + 1, using: &g) : []
            return entry(
                ["I", "II", "Chapter \(n)", "Contents", "Notes", "Part \(n)"].randomElement(using: &g)!, target,
                children)
        }
    }

    @Test(arguments: 0..<200)
    func everyBlockOfTheSpineIsInExactlyOneSection(seed: Int) throws {
        var g = SeededGenerator(state: UInt64(seed))
        let fileCount = Int.random(in: 1...6, using: &g)
        let files = (0..<fileCount).map { i in
            let (body, ids) = Self.document(i, blocks: Int.random(in: 0...12, using: &g), using: &g)
            return ("f\(i).xhtml", body, ids)
        }
        let book = MemoryBook(
            spine: files.map { ($0.0, $0.1) }, toc: Self.toc(files: files.map { ($0.0, $0.2) }, using: &g))
        try Self.expectPartition(of: book, index: try SectionIndexer.index(book), name: "seed \(seed)")
    }

    /// Checks that `index` is a partition of `book`'s spine: contiguous sections from the first block
    /// to the end, and no block spoken by two sections.
    static func expectPartition(of book: some BookContent, index: SectionIndex, name: String) throws {
        let sections = index.sections
        try #require(!sections.isEmpty, "\(name): no section")
        #expect(sections.first?.start == SourcePosition(spineIndex: 0, blockIndex: 0), "\(name)")
        #expect(sections.last?.end == SourcePosition(spineIndex: book.package.spine.count, blockIndex: 0), "\(name)")
        for (section, next) in zip(sections, sections.dropFirst()) {
            #expect(section.end == next.start, "\(name): sections \(section.number) and \(next.number)")
            #expect(section.start < section.end, "\(name): section \(section.number)")
        }
        #expect(!index.warnings.contains { $0.message.contains("rebuilt in reading order") }, "\(name)")
        // What each section would speak comes from its own blocks only: no block in two sections.
        var owner: [SourcePosition: Int] = [:]
        let paths = SpinePaths(book.package)
        for section in sections {
            let blocks = try SpokenTextExtractor.blocks(for: section, in: book, spinePaths: paths)
            for block in blocks where block.source.blockIndex >= 0 {
                let previous = owner.updateValue(section.number, forKey: block.source)
                #expect(
                    previous == nil || previous == section.number,
                    "\(name): block \(block.source) read in sections \(previous ?? 0) and \(section.number)")
            }
        }
    }
}
