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

    let source: [Unicode.Scalar]
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
        source = Array(text.unicodeScalars)
        tokens = tokenize(source)
        self.rules = rules
        self.phrases = phrases
        self.context = context
        out.reserveCapacity(source.count + source.count / 8)
    }

    mutating func run() -> String {
        var index = 0
        while index < tokens.count {
            switch tokens[index].kind {
            case .space:
                emitRaw(index)
                index += 1
            case .word:
                index = handleWord(index)
                seenContent = true
            case .number:
                index = handleNumber(index)
                seenContent = true
            case .symbol:
                index = handleSymbol(index)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Token helpers

    func text(_ index: Int) -> String {
        let token = tokens[index]
        var ascii = true
        for k in token.start..<token.end where source[k].value >= 0x80 {
            ascii = false
            break
        }
        guard ascii else { return String(String.UnicodeScalarView(source[token.start..<token.end])) }
        // Most tokens are short ASCII words: build them without going through the scalar view.
        return String(unsafeUninitializedCapacity: token.length) { buffer in
            for k in 0..<token.length { buffer[k] = UInt8(truncatingIfNeeded: source[token.start + k].value) }
            return token.length
        }
    }

    func scalars(_ index: Int) -> ArraySlice<Unicode.Scalar> { source[tokens[index].start..<tokens[index].end] }

    func kind(_ index: Int) -> TokenKind? { index >= 0 && index < tokens.count ? tokens[index].kind : nil }

    /// The single scalar of symbol token `index`, if it is one.
    func symbol(_ index: Int) -> Unicode.Scalar? { kind(index) == .symbol ? source[tokens[index].start] : nil }

    func isSymbol(_ index: Int, _ scalar: Unicode.Scalar) -> Bool { symbol(index) == scalar }

    /// White space within a line (no line break).
    func isInlineSpace(_ index: Int) -> Bool {
        guard kind(index) == .space else { return false }
        return !scalars(index).contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    /// The token after `index`, skipping one stretch of white space within the line.
    func next(after index: Int) -> Int? {
        let following = index + 1
        guard following < tokens.count else { return nil }
        if isInlineSpace(following) { return following + 1 < tokens.count ? following + 1 : nil }
        return kind(following) == .space ? nil : following
    }

    /// The token before `index`, skipping one stretch of white space within the line.
    func previous(before index: Int) -> Int? {
        let preceding = index - 1
        guard preceding >= 0 else { return nil }
        if isInlineSpace(preceding) { return preceding - 1 >= 0 ? preceding - 1 : nil }
        return kind(preceding) == .space ? nil : preceding
    }

    func startsUpper(_ index: Int) -> Bool { kind(index) == .word && Scalars.isUpper(source[tokens[index].start]) }

    func startsLower(_ index: Int) -> Bool { kind(index) == .word && Scalars.isLower(source[tokens[index].start]) }

    /// A capitalised word such as a name: upper-case first letter, then at least one lower-case letter.
    func isCapitalizedName(_ index: Int) -> Bool {
        guard kind(index) == .word, tokens[index].length >= 2, Scalars.isUpper(source[tokens[index].start]) else {
            return false
        }
        return source[tokens[index].start + 1..<tokens[index].end].contains(where: Scalars.isLower)
    }

    func isAllUpper(_ index: Int) -> Bool {
        kind(index) == .word && scalars(index).allSatisfy { !Scalars.isLower($0) }
    }

    /// The cue in force for token `index`.
    func cue(at index: Int) -> Cue {
        guard cue != .none else { return .none }
        if cueToken == index - 1 || (cueToken == index - 2 && isInlineSpace(index - 1)) { return cue }
        return .none
    }

    mutating func setCue(_ newCue: Cue, at index: Int, capitalized: Bool = false, month: Bool = false) {
        cue = newCue
        cueToken = index
        cueCapitalized = capitalized
        cueIsMonth = month
    }

    // MARK: Emitting

    mutating func emitRaw(_ index: Int) {
        emitScalars(scalars(index))
    }

    mutating func emitRaw(_ range: ClosedRange<Int>) {
        emitScalars(source[tokens[range.lowerBound].start..<tokens[range.upperBound].end])
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
