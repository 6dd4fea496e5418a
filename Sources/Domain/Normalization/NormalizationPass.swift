// The rules. One left-to-right walk over the tokens; each handler either recognises a written form starting at
// the current token, emits its spoken form and returns the index after it, or emits the token unchanged.

/// A number as written: its integer digits, whether it had thousands separators, and its decimals.
struct NumberLiteral {
    var digits: [Unicode.Scalar]
    var grouped: Bool
    var fraction: ArraySlice<Unicode.Scalar>?
    /// The index of its last token.
    var last: Int
    /// Its value, when it has at most 15 digits and no leading zero.
    var value: Int?

    var isPlainInteger: Bool { !grouped && fraction == nil }
}

struct NormalizationPass {
    /// The most digits read as a number; longer runs are read digit by digit (they are references, not amounts).
    static let maximumNumberDigits = 15

    let s: [Unicode.Scalar]
    let tokens: [Token]
    let rules: LanguageRules?
    let phrases: PhraseTable<PhraseValue>
    let context: NormalizationContext
    /// The output as UTF-8.
    var out: [UInt8] = []

    /// The cue left by the previous word or abbreviation, valid for the token after `cueToken` (and one space).
    var cue: Cue = .none
    var cueToken = -10
    var cueCapitalized = false
    var cueIsMonth = false
    /// The last token of the most recent number read as a year.
    var lastYearToken = -10
    /// Whether any word or number has been emitted yet (for numerals that open a heading).
    var seenContent = false

    init(text: String, rules: LanguageRules?, phrases: PhraseTable<PhraseValue>, context: NormalizationContext) {
        s = Array(text.unicodeScalars)
        tokens = tokenize(s)
        self.rules = rules
        self.phrases = phrases
        self.context = context
        out.reserveCapacity(s.count + s.count / 8)
    }

    mutating func run() -> String {
        var i = 0
        while i < tokens.count {
            switch tokens[i].kind {
            case .space:
                emitRaw(i)
                i += 1
            case .word:
                i = handleWord(i)
                seenContent = true
            case .number:
                i = handleNumber(i)
                seenContent = true
            case .symbol:
                i = handleSymbol(i)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Token helpers

    func text(_ i: Int) -> String {
        let t = tokens[i]
        var ascii = true
        for k in t.start..<t.end where s[k].value >= 0x80 {
            ascii = false
            break
        }
        guard ascii else { return String(String.UnicodeScalarView(s[t.start..<t.end])) }
        // Most tokens are short ASCII words: build them without going through the scalar view.
        return String(unsafeUninitializedCapacity: t.length) { buffer in
            for k in 0..<t.length { buffer[k] = UInt8(truncatingIfNeeded: s[t.start + k].value) }
            return t.length
        }
    }

    func scalars(_ i: Int) -> ArraySlice<Unicode.Scalar> { s[tokens[i].start..<tokens[i].end] }

    func kind(_ i: Int) -> TokenKind? { i >= 0 && i < tokens.count ? tokens[i].kind : nil }

    /// The single scalar of symbol token `i`, if it is one.
    func symbol(_ i: Int) -> Unicode.Scalar? { kind(i) == .symbol ? s[tokens[i].start] : nil }

    func isSymbol(_ i: Int, _ c: Unicode.Scalar) -> Bool { symbol(i) == c }

    /// White space within a line (no line break).
    func isInlineSpace(_ i: Int) -> Bool {
        guard kind(i) == .space else { return false }
        return !scalars(i).contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    /// The token after `i`, skipping one stretch of white space within the line.
    func next(after i: Int) -> Int? {
        let j = i + 1
        guard j < tokens.count else { return nil }
        if isInlineSpace(j) { return j + 1 < tokens.count ? j + 1 : nil }
        return kind(j) == .space ? nil : j
    }

    /// The token before `i`, skipping one stretch of white space within the line.
    func previous(before i: Int) -> Int? {
        let j = i - 1
        guard j >= 0 else { return nil }
        if isInlineSpace(j) { return j - 1 >= 0 ? j - 1 : nil }
        return kind(j) == .space ? nil : j
    }

    func startsUpper(_ i: Int) -> Bool { kind(i) == .word && Scalars.isUpper(s[tokens[i].start]) }

    func startsLower(_ i: Int) -> Bool { kind(i) == .word && Scalars.isLower(s[tokens[i].start]) }

    /// A capitalised word such as a name: upper-case first letter, then at least one lower-case letter.
    func isCapitalizedName(_ i: Int) -> Bool {
        guard kind(i) == .word, tokens[i].length >= 2, Scalars.isUpper(s[tokens[i].start]) else { return false }
        return s[tokens[i].start + 1..<tokens[i].end].contains(where: Scalars.isLower)
    }

    func isAllUpper(_ i: Int) -> Bool {
        kind(i) == .word && scalars(i).allSatisfy { !Scalars.isLower($0) }
    }

    /// The cue in force for token `i`.
    func cue(at i: Int) -> Cue {
        guard cue != .none else { return .none }
        if cueToken == i - 1 || (cueToken == i - 2 && isInlineSpace(i - 1)) { return cue }
        return .none
    }

    mutating func setCue(_ newCue: Cue, at i: Int, capitalized: Bool = false, month: Bool = false) {
        cue = newCue
        cueToken = i
        cueCapitalized = capitalized
        cueIsMonth = month
    }

    // MARK: Emitting

    mutating func emitRaw(_ i: Int) {
        emitScalars(scalars(i))
    }

    mutating func emitRaw(_ range: ClosedRange<Int>) {
        emitScalars(s[tokens[range.lowerBound].start..<tokens[range.upperBound].end])
    }

    mutating func emitScalars(_ scalars: ArraySlice<Unicode.Scalar>) {
        for scalar in scalars {
            if scalar.value < 0x80 {
                out.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                out.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
    }

    mutating func emit(_ string: String) {
        out.append(contentsOf: string.utf8)
    }
}
