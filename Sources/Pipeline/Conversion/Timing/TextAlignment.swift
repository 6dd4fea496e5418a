import Contracts

/// Where the words of a block's spoken text ("In nineteen oh seven, Doctor Reed") are in its text as
/// the book writes it ("In 1907, Dr. Reed"), so a sentence or a word heard can be shown in the book's
/// words.
///
/// Both texts are cut into words (runs of letters and digits) and the words are matched in order,
/// ignoring case. Where they differ (a number or an abbreviation the normaliser wrote out), the run of
/// spoken words between two matches stands for the run of written words between the same matches,
/// word by word in proportion; a sentence start that falls in such a run goes to a sentence start of
/// the book's text inside it when there is one. Offsets are UTF-16, as in `SpeechChunk.textRange`.
struct TextAlignment {
    /// Spoken words whose written word is searched at most this far ahead: the longest run of words
    /// the normaliser writes for one written word ("1,234,567" is fifteen words) and some.
    static let spokenLookahead = 40
    /// Written words searched ahead for a match: a few written tokens make one spoken run ("p. 12").
    static let writtenLookahead = 10

    private let spokenWords: [Range<Int>]
    private let writtenWords: [Range<Int>]
    /// For each spoken word, the written words it stands for (empty: none; its lower bound is then
    /// where it would be).
    private let counterparts: [Range<Int>]
    /// For each spoken word not matched exactly, the written words of its unmatched run.
    private let runs: [Range<Int>?]
    private let written: [UInt16]
    private let writtenSentenceStarts: [Int]

    /// The alignment of `spoken` to `written`.
    init(spoken: String, written: String) {
        let writtenUnits = Array(written.utf16)
        let spokenUnits = Array(spoken.utf16)
        self.written = writtenUnits
        let spokenWords = Self.words(in: spoken)
        let writtenWords = spoken == written ? spokenWords : Self.words(in: written)
        self.spokenWords = spokenWords.map(\.range)
        self.writtenWords = writtenWords.map(\.range)
        writtenSentenceStarts = spoken == written ? [] : SentenceSegmenter.sentenceRanges(in: written).map(\.lowerBound)
        var counterparts: [Range<Int>] = []
        var runs: [Range<Int>?] = []
        counterparts.reserveCapacity(spokenWords.count)
        runs.reserveCapacity(spokenWords.count)
        let spokenKeys = spokenWords.map(\.key)
        let writtenKeys = writtenWords.map(\.key)
        var spokenIndex = 0
        var writtenIndex = 0
        while spokenIndex < spokenKeys.count {
            if writtenIndex < writtenKeys.count, spokenKeys[spokenIndex] == writtenKeys[writtenIndex] {
                counterparts.append(writtenIndex..<(writtenIndex + 1))
                runs.append(nil)
                spokenIndex += 1
                writtenIndex += 1
                continue
            }
            let (spokenSkip, writtenSkip) = Self.nextMatch(
                spokenKeys, from: spokenIndex, writtenKeys, from: writtenIndex)
            let run = writtenIndex..<(writtenIndex + writtenSkip)
            counterparts += Self.spread(
                spokenIndex..<(spokenIndex + spokenSkip), over: run, spokenWords: self.spokenWords,
                spokenUnits: spokenUnits, writtenWords: self.writtenWords, writtenUnits: writtenUnits)
            runs += Array(repeating: run, count: spokenSkip)
            spokenIndex += spokenSkip
            writtenIndex += writtenSkip
        }
        self.counterparts = counterparts
        self.runs = runs
    }

    /// The written words each spoken word of an unmatched run stands for. Punctuation between words
    /// cuts both runs into groups ("nineteen oh seven, Doctor" and "1907, Dr."): when they have as many
    /// groups, group goes to group; inside a group (or when the counts differ, over the whole run) the
    /// spoken words share the written ones in proportion. Empty ranges when the run has no written word.
    private static func spread(
        _ spoken: Range<Int>, over written: Range<Int>, spokenWords: [Range<Int>], spokenUnits: [UInt16],
        writtenWords: [Range<Int>], writtenUnits: [UInt16]
    ) -> [Range<Int>] {
        guard !written.isEmpty else { return Array(repeating: written, count: spoken.count) }
        let spokenGroups = groups(spoken, words: spokenWords, units: spokenUnits)
        let writtenGroups = groups(written, words: writtenWords, units: writtenUnits)
        let pairs =
            spokenGroups.count == writtenGroups.count
            ? Array(zip(spokenGroups, writtenGroups)) : [(spoken, written)]
        var result: [Range<Int>] = []
        for (spokenGroup, writtenGroup) in pairs {
            for step in 0..<spokenGroup.count {
                let index = writtenGroup.lowerBound + step * writtenGroup.count / spokenGroup.count
                result.append(index..<(index + 1))
            }
        }
        return result
    }

    /// `range` of `words` cut where the text between two words holds more than white space.
    private static func groups(_ range: Range<Int>, words: [Range<Int>], units: [UInt16]) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = range.lowerBound
        for index in range.dropLast() {
            let between = units[words[index].upperBound..<words[index + 1].lowerBound]
            if between.contains(where: { !isSpace($0) }) {
                groups.append(start..<(index + 1))
                start = index + 1
            }
        }
        groups.append(start..<range.upperBound)
        return groups
    }

    /// How many spoken and written words to skip from `spokenIndex` and `writtenIndex` to the next pair
    /// of equal words, nearest first (two equal pairs in a row preferred, so that a lone "and" or
    /// "oh" does not pull the match): the rest of both texts when no pair is near.
    private static func nextMatch(
        _ spoken: [String], from spokenIndex: Int, _ written: [String], from writtenIndex: Int
    )
        -> (Int, Int)
    {
        let spokenLimit = min(spokenLookahead, spoken.count - spokenIndex)
        let writtenLimit = min(writtenLookahead, written.count - writtenIndex)
        func equal(_ spokenSkip: Int, _ writtenSkip: Int) -> Bool {
            spokenIndex + spokenSkip < spoken.count && writtenIndex + writtenSkip < written.count
                && spoken[spokenIndex + spokenSkip] == written[writtenIndex + writtenSkip]
        }
        for needsTwo in [true, false] {
            for total in 1...max(1, spokenLimit + writtenLimit) {
                for writtenSkip in 0...min(total, writtenLimit) {
                    let spokenSkip = total - writtenSkip
                    guard spokenSkip <= spokenLimit, equal(spokenSkip, writtenSkip) else { continue }
                    let followed =
                        equal(spokenSkip + 1, writtenSkip + 1) || spokenIndex + spokenSkip + 1 == spoken.count
                        || writtenIndex + writtenSkip + 1 == written.count
                    if !needsTwo || followed { return (spokenSkip, writtenSkip) }
                }
            }
        }
        return (spoken.count - spokenIndex, written.count - writtenIndex)
    }

    /// Where a sentence that starts at `spokenOffset` of the spoken text starts in the written text:
    /// before the written word its first spoken word stands for, and before the quotes or brackets
    /// that open it.
    func writtenStart(ofSpokenOffset spokenOffset: Int) -> Int {
        guard let index = firstWord(atOrAfter: spokenOffset) else { return written.count }
        let counterpart = counterparts[index]
        var position =
            counterpart.lowerBound < writtenWords.count
            ? writtenWords[counterpart.lowerBound].lowerBound : written.count
        if let run = runs[index] {
            // In a run the normaliser rewrote: a sentence start of the book inside it is the better guess.
            let from = run.lowerBound > 0 ? writtenWords[run.lowerBound - 1].upperBound : 0
            let to = run.upperBound < writtenWords.count ? writtenWords[run.upperBound].lowerBound : written.count
            let inside = writtenSentenceStarts.filter { from <= $0 && $0 <= to }
            if let nearest = inside.min(by: { abs($0 - position) < abs($1 - position) }) { position = nearest }
        }
        while position > 0, Self.isOpening(written[position - 1]) { position -= 1 }
        return position
    }

    /// The written words the spoken word at (or first after) `spokenOffset` stands for, as a UTF-16
    /// range of the written text; nil when it stands for none.
    func writtenRange(ofSpokenWordAt spokenOffset: Int) -> Range<Int>? {
        guard let index = word(containing: spokenOffset) ?? firstWord(atOrAfter: spokenOffset) else { return nil }
        let counterpart = counterparts[index]
        guard !counterpart.isEmpty else { return nil }
        return writtenWords[counterpart.lowerBound].lowerBound..<writtenWords[counterpart.upperBound - 1].upperBound
    }

    /// The UTF-16 length of the written text.
    var writtenLength: Int { written.count }

    /// `written[range]` as a string.
    func writtenText(_ range: Range<Int>) -> String {
        String(decoding: written[range], as: UTF16.self)
    }

    /// Whether a UTF-16 unit is white space (where a cue's text is trimmed).
    static func isSpace(_ unit: UInt16) -> Bool {
        unit == 0x20 || unit == 0x0A || unit == 0x09 || unit == 0x0D || unit == 0xA0 || unit == 0x2009
            || unit == 0x202F || unit == 0x200B || unit == 0x3000
    }

    /// Punctuation that opens a sentence and belongs to it: quotes, brackets, dashes, inverted marks.
    private static func isOpening(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x22, 0x27, 0x28, 0x5B, 0x7B, 0xAB, 0xBF, 0xA1, 0x2018, 0x201A, 0x201C, 0x201E, 0x2039, 0x2014,
            0x2013, 0x300C, 0x300E, 0xFF08:
            true
        default: false
        }
    }

    private func firstWord(atOrAfter offset: Int) -> Int? {
        var low = 0
        var high = spokenWords.count
        while low < high {
            let middle = (low + high) / 2
            if spokenWords[middle].lowerBound < offset { low = middle + 1 } else { high = middle }
        }
        return low < spokenWords.count ? low : nil
    }

    private func word(containing offset: Int) -> Int? {
        guard let next = firstWord(atOrAfter: offset + 1) ?? (spokenWords.isEmpty ? nil : spokenWords.count),
            next > 0
        else { return nil }
        return spokenWords[next - 1].contains(offset) ? next - 1 : nil
    }

    /// The words of `text`: runs of letters, marks and digits, with their UTF-16 ranges and a
    /// lower-cased key.
    static func words(in text: String) -> [(range: Range<Int>, key: String)] {
        var words: [(range: Range<Int>, key: String)] = []
        var start: Int?
        var key = String.UnicodeScalarView()
        var offset = 0
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let properties = scalar.properties
            // "1,250" and "3.14" are one word: the normaliser reads them as one number.
            let insideNumber =
                (scalar == "," || scalar == ".") && index > 0 && index + 1 < scalars.count
                && scalars[index - 1].properties.numericType != nil && scalars[index + 1].properties.numericType != nil
            if properties.isAlphabetic || properties.numericType != nil || insideNumber
                || (start != nil && properties.generalCategory == .nonspacingMark)
            {
                if start == nil { start = offset }
                key.append(scalar)
            } else if let begun = start {
                words.append((begun..<offset, String(key).lowercased()))
                start = nil
                key = String.UnicodeScalarView()
            }
            offset += scalar.utf16.count
        }
        if let begun = start { words.append((begun..<offset, String(key).lowercased())) }
        return words
    }
}
