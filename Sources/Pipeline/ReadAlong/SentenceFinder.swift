import Foundation

/// Finds the sentences of a section's timing in a content document's text, as the book writes it.
///
/// A cue's text is the sentence the book wrote, but not byte for byte what the document holds: the
/// pipeline collapsed whitespace, removed citations (`[12]`), and a sentence may cross elements
/// (`<em>`). Both sides are compared in a folded form, letters and digits only, case-folded and
/// without diacritics, so none of that matters. Cues are looked for in order, each after the
/// previous one's end; a cue whose whole folded text is not there is looked for by its start and its
/// end separately (a citation removed from its middle), close to where the previous one ended.
///
/// A cue the document does not hold where it is spoken (a title taken from the table of contents,
/// "1. The Lever", over a heading "Chapter One: The Lever") may still match further on ("1", a note's
/// reference mark): a place that would skip over the text of the cue spoken next is taken for such
/// a false match and refused, so the cursor does not jump past the sentences that follow.
struct SentenceFinder {
    /// Where a cue is: from `start` to `end` in the document's text runs, as (run, UTF-16 offset).
    struct Place: Hashable {
        var startRun: Int
        var startOffset: Int
        var endRun: Int
        var endOffset: Int
    }

    /// Cues shorter than this (folded) are looked for only close to the previous one: "Yes." would
    /// otherwise be found wherever the word next occurs.
    static let shortCue = 12
    /// How far past the previous cue a short cue or an anchor is looked for, in folded characters,
    /// besides a few times the cue's own length (skipped text between two cues: an omitted table,
    /// notes not read).
    static let nearWindow = 600
    /// Letters and digits of a cue's start and end that anchor it when the whole does not match.
    static let anchorLength = 16
    /// How many of the cues spoken next are looked through for one long enough (`shortCue`) to
    /// tell whether a place skips over spoken text.
    static let witnessLookahead = 3

    private let folded: [UInt32]
    /// For each folded character: its run and the UTF-16 range in that run of the character it comes from.
    private let origins: [(run: Int, start: Int, end: Int)]
    private let runs: [[UInt16]]
    private var cursor = 0
    /// The end of the last place found, to keep a widened start from reaching back into it.
    private var lastEnd: (run: Int, offset: Int) = (-1, 0)

    /// A finder over the text of `runs` (a document's text nodes, in order).
    init(runs: [String]) {
        var folded: [UInt32] = []
        var origins: [(run: Int, start: Int, end: Int)] = []
        for (index, run) in runs.enumerated() {
            var offset = 0
            for scalar in run.unicodeScalars {
                let width = scalar.utf16.count
                for value in Self.fold(scalar) {
                    folded.append(value)
                    origins.append((index, offset, offset + width))
                }
                offset += width
            }
        }
        self.folded = folded
        self.origins = origins
        self.runs = runs.map { Array($0.utf16) }
    }

    /// The folded form of `text`: its letters and digits, lower case, without diacritics.
    static func fold(_ text: String) -> [UInt32] { text.unicodeScalars.flatMap(fold) }

    /// The folded form of one character: nothing for spaces, punctuation and marks.
    static func fold(_ scalar: Unicode.Scalar) -> [UInt32] {
        if scalar.isASCII {
            switch scalar.value {
            case 0x30...0x39, 0x61...0x7A: return [scalar.value]
            case 0x41...0x5A: return [scalar.value + 0x20]
            default: return []
            }
        }
        let properties = scalar.properties
        guard properties.isAlphabetic || properties.numericType != nil else { return [] }
        // Diacritics go: a book's "é" and a cue's "é" may differ in normalisation form.
        let decomposed = String(scalar).decomposedStringWithCanonicalMapping.lowercased()
        return decomposed.unicodeScalars.compactMap { part in
            switch part.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return nil
            default: return part.properties.isAlphabetic || part.properties.numericType != nil ? part.value : nil
            }
        }
    }

    /// The place of the next cue, `text`, after the previous one found; nil when it is not there
    /// (the cursor then stays where it was). `following` are the cues spoken after it (nil for a
    /// text the document does not hold): a place that leaves the first long one of them wholly
    /// between the cursor and itself is refused.
    mutating func find(_ text: String, following: ArraySlice<String?> = []) -> Place? {
        let cue = Self.fold(text)
        guard !cue.isEmpty else { return nil }
        let near = cursor + Self.nearWindow + 4 * cue.count
        let limit = cue.count < Self.shortCue ? near : folded.count
        var found: Range<Int>?
        if let start = Self.search(cue[...], in: folded, from: cursor, before: limit) {
            found = start..<(start + cue.count)
        } else if cue.count >= 2 * Self.anchorLength {
            let head = cue.prefix(Self.anchorLength)
            let tail = cue.suffix(Self.anchorLength)
            if let start = Self.search(head, in: folded, from: cursor, before: near),
                let tailStart = Self.search(
                    tail, in: folded, from: start + head.count, before: start + 2 * cue.count + Self.nearWindow)
            {
                found = start..<(tailStart + tail.count)
            }
        }
        guard let found, !skipsOverSpokenText(before: found.lowerBound, following: following) else { return nil }
        cursor = found.upperBound
        let first = origins[found.lowerBound]
        let last = origins[found.upperBound - 1]
        let place = Place(
            startRun: first.run, startOffset: widenedStart(run: first.run, offset: first.start), endRun: last.run,
            endOffset: widenedEnd(run: last.run, offset: last.end))
        lastEnd = (place.endRun, place.endOffset)
        return place
    }

    /// Whether the first long cue of `following` (a few at most) is wholly between the cursor and
    /// `start`: the text a place at `start` would skip is spoken after it, so it is not its place.
    private func skipsOverSpokenText(before start: Int, following: ArraySlice<String?>) -> Bool {
        let witness = following.prefix(Self.witnessLookahead).lazy.compactMap { $0 }.map(Self.fold).first {
            $0.count >= Self.shortCue
        }
        guard let witness else { return false }
        return Self.search(witness[...], in: folded, from: cursor, before: start - witness.count + 1) != nil
    }

    /// The start moved back over the punctuation before the first letter (an opening quote), in
    /// its run, not into the previous place.
    private func widenedStart(run: Int, offset: Int) -> Int {
        let floor = lastEnd.run == run ? lastEnd.offset : 0
        var start = offset
        while start > floor, Self.isPunctuation(runs[run][start - 1]) { start -= 1 }
        return start
    }

    /// The end moved forward over the punctuation after the last letter (a full stop, a closing quote).
    private func widenedEnd(run: Int, offset: Int) -> Int {
        var end = offset
        while end < runs[run].count, Self.isPunctuation(runs[run][end]) { end += 1 }
        return end
    }

    /// Not a space and not a letter or digit (a UTF-16 unit: surrogates count as letters).
    private static func isPunctuation(_ unit: UInt16) -> Bool {
        guard let scalar = Unicode.Scalar(unit) else { return false }
        return !scalar.properties.isWhitespace && fold(scalar).isEmpty && !scalar.properties.isAlphabetic
            && scalar.properties.generalCategory != .nonspacingMark
    }

    /// The first position at or after `from` and before `before` where `needle` starts in `haystack`.
    private static func search(_ needle: ArraySlice<UInt32>, in haystack: [UInt32], from: Int, before: Int) -> Int? {
        guard let first = needle.first else { return nil }
        let last = min(before, haystack.count - needle.count + 1)
        guard from < last else { return nil }
        var position = from
        while position < last {
            if haystack[position] == first, haystack[position..<(position + needle.count)].elementsEqual(needle) {
                return position
            }
            position += 1
        }
        return nil
    }
}
