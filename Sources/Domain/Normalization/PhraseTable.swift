// Written forms (abbreviations, lexicon entries, unit symbols) found by the text of their first token, then
// compared scalar by scalar: one dictionary lookup per word, no regular expressions.

struct Phrase<Value: Sendable>: Sendable {
    var written: [Unicode.Scalar]
    var caseInsensitive: Bool
    var value: Value
    /// Higher wins among phrases that all match (user entries over built-in ones), then the longer one.
    var priority: Int
}

struct PhraseTable<Value: Sendable>: Sendable {
    private var exact: [String: [Phrase<Value>]] = [:]
    private var folded: [String: [Phrase<Value>]] = [:]
    private(set) var isEmpty = true

    init(_ phrases: [Phrase<Value>]) {
        for phrase in phrases {
            guard let first = tokenize(phrase.written).first else { continue }
            let key = String(String.UnicodeScalarView(phrase.written[first.start..<first.end]))
            if phrase.caseInsensitive {
                folded[key.lowercased(), default: []].append(phrase)
            } else {
                exact[key, default: []].append(phrase)
            }
            isEmpty = false
        }
        let order: (Phrase<Value>, Phrase<Value>) -> Bool = {
            $0.priority != $1.priority ? $0.priority > $1.priority : $0.written.count > $1.written.count
        }
        for key in exact.keys { exact[key]!.sort(by: order) }
        for key in folded.keys { folded[key]!.sort(by: order) }
    }

    /// Phrases whose first token is `key`, best first.
    func candidates(for key: String) -> [Phrase<Value>] {
        if isEmpty { return [] }
        let direct = exact[key] ?? []
        if folded.isEmpty { return direct }
        guard let loose = folded[key.lowercased()] else { return direct }
        if direct.isEmpty { return loose }
        return (direct + loose).sorted {
            $0.priority != $1.priority ? $0.priority > $1.priority : $0.written.count > $1.written.count
        }
    }
}

extension Phrase {
    /// The end of a whole-word match of this phrase in `scalars` at `start`, or nil.
    /// `afterDigits` allows a digit just before the match, as for a unit glued to its number ("5km").
    func match(in scalars: [Unicode.Scalar], at start: Int, afterDigits: Bool = false) -> Int? {
        let end = start + written.count
        guard end <= scalars.count else { return nil }
        if caseInsensitive {
            for k in 0..<written.count where !Phrase.sameIgnoringCase(scalars[start + k], written[k]) { return nil }
        } else {
            for k in 0..<written.count where scalars[start + k] != written[k] { return nil }
        }
        if let first = written.first, Scalars.isAlphanumeric(first), start > 0,
            afterDigits ? Scalars.isLetter(scalars[start - 1]) : Scalars.isAlphanumeric(scalars[start - 1])
        {
            return nil
        }
        if let last = written.last, Scalars.isAlphanumeric(last), end < scalars.count,
            Scalars.isAlphanumeric(scalars[end])
        {
            return nil
        }
        return end
    }

    private static func sameIgnoringCase(_ left: Unicode.Scalar, _ right: Unicode.Scalar) -> Bool {
        if left == right { return true }
        if left.value < 0x80, right.value < 0x80 {
            return (left.value | 0x20) == (right.value | 0x20) && Scalars.isLetter(left)
        }
        return left.properties.lowercaseMapping == right.properties.lowercaseMapping
    }
}
