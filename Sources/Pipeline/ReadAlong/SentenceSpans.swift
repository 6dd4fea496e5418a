import Markup

/// One `<span>` a sentence got: its id and how many UTF-16 units of text it holds (its share of the
/// sentence's time).
struct SentenceSpan: Hashable {
    var id: String
    var length: Int
}

/// Wraps each sentence a content document's audio says, where the document holds it, in `<span id>`.
///
/// The original markup is otherwise left as it was: a sentence inside one text node becomes one
/// span; one that crosses element boundaries (`<em>`, a link) one span per text node it touches,
/// each inside its own element, never an element moved. Text in the head, scripts, styles, SVG,
/// MathML, ruby annotations and form controls is neither searched nor wrapped.
enum SentenceSpans {
    /// Elements whose text is not the book's running text.
    static let skippedElements: Set<String> = [
        "head", "script", "style", "svg", "math", "title", "textarea", "select", "option", "rt", "rp", "noscript",
        "template",
    ]
    /// The prefix of every id given to a span.
    static let idPrefix = "e2a-"

    /// Finds `sentences` (in the order spoken; nil for a text the document does not hold, such as a
    /// made-up title) in `document`'s body and wraps them; returns the spans of each sentence, in the
    /// same order (none for a sentence not found).
    static func wrap(_ sentences: [String?], in document: EditableMarkup) -> [[SentenceSpan]] {
        guard let body = document.elements(named: "body").first else { return sentences.map { _ in [] } }
        let runs = document.textRuns(under: body, excluding: skippedElements)
        var finder = SentenceFinder(runs: runs.map(\.text))
        var ids = UniqueIDs(taken: document.ids)
        var piecesByRun: [Int: [(range: Range<Int>, id: String)]] = [:]
        var result: [[SentenceSpan]] = []
        for (index, sentence) in sentences.enumerated() {
            guard let sentence, let place = finder.find(sentence, following: sentences[(index + 1)...]) else {
                result.append([])
                continue
            }
            var spans: [SentenceSpan] = []
            for run in place.startRun...place.endRun {
                let units = Array(runs[run].text.utf16)
                var lower = run == place.startRun ? place.startOffset : 0
                var upper = run == place.endRun ? place.endOffset : units.count
                // The spaces around a piece (a line break in the source) stay outside its span.
                while lower < upper, Self.isSpace(units[lower]) { lower += 1 }
                while upper > lower, Self.isSpace(units[upper - 1]) { upper -= 1 }
                guard lower < upper else { continue }
                let id = ids.next("\(idPrefix)\(index + 1)" + (run == place.startRun ? "" : "-\(spans.count + 1)"))
                piecesByRun[run, default: []].append((lower..<upper, id))
                spans.append(SentenceSpan(id: id, length: upper - lower))
            }
            result.append(spans)
        }
        for (run, pieces) in piecesByRun {
            document.wrap(runs[run], pieces: pieces, in: "span")
        }
        return result
    }

    private static func isSpace(_ unit: UInt16) -> Bool {
        Unicode.Scalar(unit)?.properties.isWhitespace ?? false
    }
}

/// Ids not yet used in a document.
struct UniqueIDs {
    private var taken: Set<String>

    init(taken: Set<String>) { self.taken = taken }

    /// `wanted`, or `wanted` with a suffix when the document already has it.
    mutating func next(_ wanted: String) -> String {
        var candidate = wanted
        var suffix = 1
        while taken.contains(candidate) {
            suffix += 1
            candidate = "\(wanted)-\(suffix)"
        }
        taken.insert(candidate)
        return candidate
    }
}
