import Foundation
import Markup

/// Reads a simple MathML expression without alternative text the way a person says it: `x²` is
/// "x squared", a fraction "a over b", a root "the square root of x". An expression too large to
/// follow by ear (more than `maxTokens` tokens), or using a construct not covered here (tables,
/// scripts under and over, multiscripts), gives nil and the caller announces an equation instead.
enum MathSpeech {
    /// The most tokens (identifiers, numbers, operators) an expression read aloud may hold.
    static let maxTokens = 24

    /// The words of one language: only the few an expression needs.
    struct Words: Sendable {
        var squared, cubed, inverse, toThePower, over, squareRoot, rootOf, sub: String
        /// Said for an expression too large to follow by ear.
        var equation: String
        var operators: [String: String]
        /// "the cube root of": the index before "root".
        var ordinalRoot: @Sendable (String) -> String
    }

    static let english = Words(
        squared: "squared", cubed: "cubed", inverse: "inverse", toThePower: "to the power", over: "over",
        squareRoot: "the square root of",
        rootOf: "root of", sub: "sub", equation: "equation",
        operators: [
            "+": "plus", "-": "minus", "−": "minus", "=": "equals", "×": "times", "·": "times", "⋅": "times",
            "*": "times", "/": "over", "÷": "divided by", "<": "is less than", ">": "is greater than",
            "≤": "is at most", "≥": "is at least", "≠": "is not equal to", "±": "plus or minus", "≈": "is about",
            "∈": "is in", "∉": "is not in", "⊂": "is a subset of", "⊆": "is a subset of", "→": "to", "∞": "infinity",
            "!": "factorial", "%": "percent", "′": "prime",
        ],
        ordinalRoot: { $0 == "3" ? "the cube" : "the \($0)th" })
    static let french = Words(
        squared: "au carré", cubed: "au cube", inverse: "inverse", toThePower: "puissance", over: "sur",
        squareRoot: "la racine carrée de",
        rootOf: "de", sub: "indice", equation: "équation",
        operators: [
            "+": "plus", "-": "moins", "−": "moins", "=": "égale", "×": "fois", "·": "fois", "⋅": "fois", "*": "fois",
            "/": "sur", "÷": "divisé par", "<": "est inférieur à", ">": "est supérieur à", "≤": "est au plus",
            "≥": "est au moins", "≠": "est différent de", "±": "plus ou moins", "≈": "vaut environ",
        ],
        ordinalRoot: { $0 == "3" ? "la racine cubique" : "la racine \($0)-ième" })
    static let german = Words(
        squared: "Quadrat", cubed: "hoch drei", inverse: "invers", toThePower: "hoch", over: "durch",
        squareRoot: "die Wurzel aus",
        rootOf: "aus", sub: "Index", equation: "Gleichung",
        operators: [
            "+": "plus", "-": "minus", "−": "minus", "=": "gleich", "×": "mal", "·": "mal", "⋅": "mal", "*": "mal",
            "/": "durch", "÷": "geteilt durch", "<": "kleiner als", ">": "größer als", "≤": "höchstens",
            "≥": "mindestens", "≠": "ungleich", "±": "plus minus", "≈": "ungefähr",
        ],
        ordinalRoot: { $0 == "3" ? "die dritte Wurzel" : "die \($0). Wurzel" })
    static let spanish = Words(
        squared: "al cuadrado", cubed: "al cubo", inverse: "inversa", toThePower: "elevado a", over: "entre",
        squareRoot: "la raíz cuadrada de",
        rootOf: "de", sub: "sub", equation: "ecuación",
        operators: [
            "+": "más", "-": "menos", "−": "menos", "=": "igual a", "×": "por", "·": "por", "⋅": "por", "*": "por",
            "/": "entre", "÷": "dividido entre", "<": "es menor que", ">": "es mayor que", "≤": "es como mucho",
            "≥": "es al menos", "≠": "es distinto de", "±": "más o menos", "≈": "es aproximadamente",
        ],
        ordinalRoot: { $0 == "3" ? "la raíz cúbica" : "la raíz \($0)" })

    /// The words for a language tag; English for any other language (its numbers are still read by
    /// the voice of the block's language).
    static func words(for language: String?) -> Words {
        switch LanguageDetector.primaryLanguage(language ?? "") {
        case "fr": french
        case "de": german
        case "es": spanish
        default: english
        }
    }

    /// The expression read aloud, or nil when it is too large or not covered.
    static func spoken(_ math: MarkupElement, language: String?) -> String? {
        var tokens = 0
        guard let text = read(math, words(for: language), tokens: &tokens, depth: 0), !text.isEmpty else { return nil }
        return text.split(separator: " ").joined(separator: " ").replacingOccurrences(of: " ,", with: ",")
    }

    private static func read(_ element: MarkupElement, _ words: Words, tokens: inout Int, depth: Int) -> String? {
        guard depth < 12 else { return nil }
        let parts = element.elements
        func arg(_ position: Int) -> String? {
            guard position < parts.count else { return nil }
            return read(parts[position], words, tokens: &tokens, depth: depth + 1)
        }
        switch element.localName {
        case "mi", "mn", "mtext":
            tokens += 1
            let text = TextCleaner.normalize(element.rawText)
            return tokens > maxTokens || text.isEmpty ? nil : text
        case "mo":
            tokens += 1
            let op = TextCleaner.normalize(element.rawText)
            guard tokens <= maxTokens else { return nil }
            if op == "(" || op == ")" || op == "[" || op == "]" || op == "," || op == "\u{2061}" || op == "\u{2062}" {
                return op == "," ? "," : ""
            }
            return words.operators[op] ?? english.operators[op] ?? (op.contains(where: \.isLetter) ? op : nil)
        case "math", "mrow", "mstyle", "mpadded", "semantics", "mfenced":
            let annotations: Set<String> = ["annotation", "annotation-xml"]
            var out: [String] = []
            for part in parts where !annotations.contains(part.localName) {
                guard let spoken = read(part, words, tokens: &tokens, depth: depth + 1) else { return nil }
                out.append(spoken)
            }
            return out.joined(separator: " ")
        case "msup":
            guard parts.count == 2, let base = arg(0), let exponent = arg(1) else { return nil }
            if exponent == "2" { return "\(base) \(words.squared)" }
            if exponent == "3" { return "\(base) \(words.cubed)" }
            if exponent == "\(words.operators["-"] ?? "minus") 1" { return "\(base) \(words.inverse)" }
            return "\(base) \(words.toThePower) \(exponent)"
        case "msub":
            guard parts.count == 2, let base = arg(0), let index = arg(1) else { return nil }
            return "\(base) \(words.sub) \(index)"
        case "mfrac":
            guard parts.count == 2, let numerator = arg(0), let denominator = arg(1) else { return nil }
            return "\(numerator) \(words.over) \(denominator)"
        case "msqrt":
            var out: [String] = []
            for position in parts.indices {
                guard let spoken = arg(position) else { return nil }
                out.append(spoken)
            }
            return "\(words.squareRoot) \(out.joined(separator: " "))"
        case "mroot":
            guard parts.count == 2, let radicand = arg(0), let index = arg(1) else { return nil }
            return "\(words.ordinalRoot(index)) \(words.rootOf) \(radicand)"
        case "mspace", "none":
            return ""
        default:
            return nil
        }
    }
}
