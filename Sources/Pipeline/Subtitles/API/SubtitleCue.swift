public import Contracts

/// One subtitle on screen: at most `SubtitleLayout.maxLines` lines of words, from `startMS` to `endMS`.
public struct SubtitleCue: Hashable, Sendable {
    /// A word of a cue and, when the engine timed it, when it is heard.
    public struct Word: Hashable, Sendable {
        /// The word as the book writes it, with the punctuation around it ("said,").
        public var text: String
        /// When it starts, in milliseconds from the start of the file; nil when the engine gave no time.
        public var startMS: Int?

        /// A word.
        public init(text: String, startMS: Int? = nil) {
            self.text = text
            self.startMS = startMS
        }
    }

    /// When the cue is shown, in milliseconds from the start of the file.
    public var startMS: Int
    /// When it goes; never before `startMS`.
    public var endMS: Int
    /// Its lines, each a run of words shown with one space between them; never empty.
    public var lines: [[Word]]

    /// A cue.
    public init(startMS: Int, endMS: Int, lines: [[Word]]) {
        self.startMS = startMS
        self.endMS = endMS
        self.lines = lines
    }

    /// The text shown, lines joined by a line break.
    public var text: String { lines.map { $0.map(\.text).joined(separator: " ") }.joined(separator: "\n") }
}

/// Cuts the sentences of a section's timing into subtitle cues a viewer can read.
///
/// A cue is a sentence (`SpokenCue`). One that does not fit `maxLines` lines of `maxLineCharacters`
/// is cut at clause boundaries (a word ending in `,` `;` `:` a dash or sentence punctuation, closing
/// quotes and brackets aside), clauses packed greedily; a clause that does not fit alone is cut at
/// spaces into pieces of about equal length. The sentence's time is shared out at the first word of
/// each piece: the engine's time for that word when it timed it, else in proportion to the characters
/// before it. Words are the runs of the text between white space, so a line break or a run of spaces
/// in the book shows as one space. Pure: the same timing always gives the same cues.
public enum SubtitleLayout {
    /// The longest line, in characters (the common broadcast guideline): a longer word stands alone.
    public static let maxLineCharacters = 42
    /// Lines per cue.
    public static let maxLines = 2

    /// The cues of one section, `offsetSeconds` into the file (0 for the section's own file; the
    /// section's start in a whole-book file). Sentences with no word are left out; cues are clamped
    /// into the section's audio and to follow one another without overlap.
    public static func cues(for timing: SectionTiming, offsetSeconds: Double = 0) -> [SubtitleCue] {
        let clock = Clock(sampleRate: timing.sampleRate, frames: timing.frames, offsetSeconds: offsetSeconds)
        return ordered(timing.cues.flatMap { cues(for: $0, clock: clock) })
    }

    /// The cues of a whole book: each section at its start (`offsetSeconds`), in the order given.
    public static func cues(for sections: [(timing: SectionTiming, offsetSeconds: Double)]) -> [SubtitleCue] {
        ordered(sections.flatMap { cues(for: $0.timing, offsetSeconds: $0.offsetSeconds) })
    }

    /// Where each section of a whole-book file starts, in seconds: the sum of the lengths (frames
    /// over rate) of the sections before it, as the audio bundle joins them.
    public static func offsets(lengths: [(frames: Int, sampleRate: Int)]) -> [Double] {
        var offsets: [Double] = []
        var frames = 0
        var seconds = 0.0
        var rate: Int?
        for length in lengths {
            // One rate (the bundle's case): a sum of frames, divided once, drifts by no rounding.
            if rate == nil || rate == length.sampleRate {
                rate = length.sampleRate
                offsets.append(length.sampleRate > 0 ? seconds + Double(frames) / Double(length.sampleRate) : seconds)
                frames += length.frames
            } else {
                seconds += Double(frames) / Double(max(1, rate ?? 1))
                frames = length.frames
                rate = length.sampleRate
                offsets.append(seconds)
            }
        }
        return offsets
    }

    /// Frames of a section to milliseconds of a file.
    struct Clock {
        var sampleRate: Int
        var frames: Int
        var offsetSeconds: Double

        /// `frame` (clamped into the section) in whole milliseconds from the file's start.
        func milliseconds(_ frame: Int) -> Int {
            let clamped = frames > 0 ? min(max(0, frame), frames) : max(0, frame)
            let seconds = offsetSeconds + (sampleRate > 0 ? Double(clamped) / Double(sampleRate) : 0)
            return Int((seconds * 1_000).rounded())
        }
    }

    /// A word of a sentence: its text and where it is in the sentence (UTF-16 offsets).
    struct Token {
        var text: String
        var range: Range<Int>
        var characters: Int
    }

    /// The cues one sentence is cut into.
    static func cues(for cue: SpokenCue, clock: Clock) -> [SubtitleCue] {
        let tokens = tokens(of: cue.text)
        guard !tokens.isEmpty else { return [] }
        let wordFrames = frames(of: tokens, words: cue.words)
        let start = cue.startFrame
        let end = max(cue.endFrame, start)
        let pieces = pieces(tokens)
        let total = length(tokens, 0..<tokens.count)
        var boundaries: [Int] = []
        for piece in pieces {
            let before = piece.lowerBound == 0 ? 0 : length(tokens, 0..<piece.lowerBound) + 1
            let proportional = start + Int((Double(end - start) * Double(before) / Double(max(1, total))).rounded())
            let frame = piece.lowerBound == 0 ? start : (wordFrames[piece.lowerBound] ?? proportional)
            boundaries.append(min(max(frame, boundaries.last ?? start), end))
        }
        boundaries.append(end)
        return pieces.enumerated().map { index, piece in
            let lines = lines(tokens, piece).map { line in
                line.map { SubtitleCue.Word(text: tokens[$0].text, startMS: wordFrames[$0].map(clock.milliseconds)) }
            }
            return SubtitleCue(
                startMS: clock.milliseconds(boundaries[index]), endMS: clock.milliseconds(boundaries[index + 1]),
                lines: lines)
        }
    }

    /// Cues in order of time, each starting no earlier than the previous one ends, none ending before it starts.
    static func ordered(_ cues: [SubtitleCue]) -> [SubtitleCue] {
        var out: [SubtitleCue] = []
        out.reserveCapacity(cues.count)
        for var cue in cues {
            cue.startMS = max(cue.startMS, out.last?.endMS ?? 0)
            cue.endMS = max(cue.endMS, cue.startMS)
            out.append(cue)
        }
        return out
    }

    /// The runs of `text` between white space (control and format characters count as space).
    static func tokens(of text: String) -> [Token] {
        var tokens: [Token] = []
        var current = String.UnicodeScalarView()
        var start = 0
        var offset = 0
        func flush() {
            guard !current.isEmpty else { return }
            let word = String(current)
            tokens.append(Token(text: word, range: start..<offset, characters: word.count))
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar.properties.isWhitespace || category == .control || category == .lineSeparator
                || category == .paragraphSeparator
            {
                flush()
            } else {
                if current.isEmpty { start = offset }
                current.append(scalar)
            }
            offset += scalar.utf16.count
        }
        flush()
        return tokens
    }

    /// The frame each token starts at, from the engine's word timing: the earliest word that
    /// overlaps it, when later than the previous token's (a word read across two tokens times the first).
    static func frames(of tokens: [Token], words: [SpokenWord]) -> [Int?] {
        var frames: [Int?] = Array(repeating: nil, count: tokens.count)
        guard !words.isEmpty else { return frames }
        var previous = Int.min
        for (index, token) in tokens.enumerated() {
            let starts = words.lazy.filter { $0.textRange.overlaps(token.range) }.map(\.startFrame)
            if let first = starts.min(), first > previous {
                frames[index] = first
                previous = first
            }
        }
        return frames
    }

    /// Characters of the tokens `range` shown on one line.
    static func length(_ tokens: [Token], _ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        return tokens[range].reduce(range.count - 1) { $0 + $1.characters }
    }

    /// Whether the tokens `range` fit in one cue (a single token always does).
    static func fits(_ tokens: [Token], _ range: Range<Int>) -> Bool {
        range.count <= 1 || length(tokens, range) <= maxLineCharacters || bestBreak(tokens, range) != nil
    }

    /// Where to break `range` into two lines of at most `maxLineCharacters` with the longer one shortest
    /// (after a clause when that costs no length), or nil when no break fits.
    static func bestBreak(_ tokens: [Token], _ range: Range<Int>) -> Int? {
        var best: (index: Int, longest: Int, clause: Bool)?
        for index in (range.lowerBound + 1)..<range.upperBound {
            let first = length(tokens, range.lowerBound..<index)
            let second = length(tokens, index..<range.upperBound)
            guard first <= maxLineCharacters, second <= maxLineCharacters else { continue }
            let longest = max(first, second)
            let clause = endsClause(tokens[index - 1].text)
            if best == nil || longest < best!.longest || (longest == best!.longest && clause && !best!.clause) {
                best = (index, longest, clause)
            }
        }
        return best?.index
    }

    /// The lines of one cue's tokens.
    static func lines(_ tokens: [Token], _ range: Range<Int>) -> [[Int]] {
        if range.count <= 1 || length(tokens, range) <= maxLineCharacters { return [Array(range)] }
        if let split = bestBreak(tokens, range) {
            return [Array(range.lowerBound..<split), Array(split..<range.upperBound)]
        }
        // A word too long for a line: alone on one.
        return [Array(range)]
    }

    /// Whether a word ends a clause: its last character, closing quotes and brackets aside, is
    /// clause or sentence punctuation or a dash.
    static func endsClause(_ word: String) -> Bool {
        let closing: Set<Character> = ["\"", "'", "”", "’", "»", "›", ")", "]", "}", "」", "』"]
        let ends: Set<Character> = [",", ";", ":", ".", "!", "?", "…", "—", "–", "、", "，", "；", "：", "。", "！", "？"]
        guard let last = word.reversed().first(where: { !closing.contains($0) }) else { return false }
        return ends.contains(last)
    }

    /// The sentence's tokens in cues: clauses packed greedily, a clause too long cut at spaces.
    static func pieces(_ tokens: [Token]) -> [Range<Int>] {
        let all = 0..<tokens.count
        if fits(tokens, all) { return [all] }
        var pieces: [Range<Int>] = []
        var current: Range<Int>?
        for clause in clauses(tokens) {
            if let open = current, fits(tokens, open.lowerBound..<clause.upperBound) {
                current = open.lowerBound..<clause.upperBound
                continue
            }
            if let open = current { pieces.append(open) }
            var parts = fits(tokens, clause) ? [clause] : balancedParts(tokens, clause)
            current = parts.removeLast()
            pieces += parts
        }
        if let current { pieces.append(current) }
        return pieces
    }

    /// The clauses of a sentence: runs of tokens each ending with a clause end (or the sentence's).
    static func clauses(_ tokens: [Token]) -> [Range<Int>] {
        var clauses: [Range<Int>] = []
        var start = 0
        for index in tokens.indices where endsClause(tokens[index].text) || index == tokens.count - 1 {
            clauses.append(start..<(index + 1))
            start = index + 1
        }
        return clauses
    }

    /// A clause too long for one cue cut at spaces into as few pieces as greedy filling needs, each
    /// about as long as the others (no lone word left over at the end).
    static func balancedParts(_ tokens: [Token], _ clause: Range<Int>) -> [Range<Int>] {
        let greedy = greedyParts(tokens, clause, limit: Int.max)
        guard greedy.count > 1 else { return greedy }
        let total = length(tokens, clause)
        var limit = (total + greedy.count - 1) / greedy.count
        while limit < total {
            let parts = greedyParts(tokens, clause, limit: limit)
            if parts.count <= greedy.count { return parts }
            limit += 1
        }
        return greedy
    }

    /// `clause` filled greedily into cues that fit and hold at most `limit` characters.
    static func greedyParts(_ tokens: [Token], _ clause: Range<Int>, limit: Int) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = clause.lowerBound
        for index in clause {
            let extended = start..<(index + 1)
            if extended.count > 1, !fits(tokens, extended) || length(tokens, extended) > limit {
                parts.append(start..<index)
                start = index
            }
        }
        parts.append(start..<clause.upperBound)
        return parts
    }
}
