/// sherpa-onnx's `tokens.txt` for a Piper voice: one `SYMBOL ID` line per phoneme.
///
/// The rules are those of sherpa-onnx 1.13.8's reader (`piper-phonemize-lexicon.cc`, `ReadTokens`), which ends
/// the process on a line it cannot read: each symbol is one Unicode scalar; the space is written as a line
/// holding only its id; no symbol twice; and `_`, `^`, `$` (pad, start, end) must be there or generation throws
/// a C++ exception nothing catches. So a table is checked here, where a bad one is a readable error.
struct TokenTable: Sendable, Equatable {
    /// Symbol and id, in the order written.
    let entries: [(symbol: Unicode.Scalar, id: Int)]

    static func == (lhs: TokenTable, rhs: TokenTable) -> Bool {
        lhs.entries.elementsEqual(rhs.entries, by: { $0 == $1 })
    }

    /// The symbols Piper's phoneme ids always include: pad, start and end of an utterance.
    static let requiredSymbols: [Unicode.Scalar] = ["_", "^", "$"]
    /// The most entries accepted (Piper's maps have about 150; a model has a few hundred symbols at most).
    static let maximumEntries = 10_000

    /// A table from a Piper phoneme map (phoneme, first id).
    init(phonemeIDs: [(phoneme: String, id: Int)]) throws(Reason) {
        var entries: [(Unicode.Scalar, Int)] = []
        for (phoneme, id) in phonemeIDs {
            let scalars = Array(phoneme.unicodeScalars)
            guard scalars.count == 1 else { throw .notOneCharacter(phoneme) }
            entries.append((scalars[0], id))
        }
        try self.init(checking: entries)
    }

    /// A table read from a `tokens.txt` as sherpa-onnx reads it.
    init(text: String) throws(Reason) {
        var entries: [(Unicode.Scalar, Int)] = []
        // "\r\n" is one Character in Swift: a split at "\n" alone would keep a CRLF file in one line.
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            switch fields.count {
            case 1:
                guard let id = Int(fields[0]) else { throw .unreadableLine(String(line)) }
                entries.append((" ", id))
            case 2:
                let symbol = Array(fields[0].unicodeScalars)
                guard let id = Int(fields[1]) else { throw .unreadableLine(String(line)) }
                // Coqui's tables end with <BLNK>, which sherpa-onnx skips.
                if fields[0] == "<BLNK>" { continue }
                guard symbol.count == 1 else { throw .notOneCharacter(String(fields[0])) }
                entries.append((symbol[0], id))
            default:
                throw .unreadableLine(String(line))
            }
        }
        try self.init(checking: entries)
    }

    private init(checking entries: [(Unicode.Scalar, Int)]) throws(Reason) {
        guard entries.count <= Self.maximumEntries else { throw .tooManyEntries }
        var seen = Set<Unicode.Scalar>()
        for (symbol, id) in entries {
            // sherpa-onnx splits a line at ASCII white space (C++ `>>`): of those, only the space itself can be
            // written (as a bare id).
            guard symbol == " " || !(symbol.isASCII && symbol.properties.isWhitespace) else {
                throw .whitespaceSymbol(symbol.value)
            }
            guard id >= 0 else { throw .negativeID(id) }
            guard seen.insert(symbol).inserted else { throw .duplicate(String(symbol)) }
        }
        for required in Self.requiredSymbols where !seen.contains(required) {
            throw .missingSymbol(String(required))
        }
        self.entries = entries
    }

    /// The file's text: `SYMBOL ID` lines, the space as ` ID`.
    var text: String {
        entries.map { $0.symbol == " " ? " \($0.id)" : "\(Character($0.symbol)) \($0.id)" }.joined(separator: "\n")
            + "\n"
    }

    /// Why a phoneme map or a tokens file cannot be used.
    enum Reason: Error, Equatable, CustomStringConvertible {
        case notOneCharacter(String)
        case whitespaceSymbol(UInt32)
        case duplicate(String)
        case missingSymbol(String)
        case negativeID(Int)
        case unreadableLine(String)
        case tooManyEntries

        var description: String {
            switch self {
            case .notOneCharacter(let symbol):
                "the phoneme '\(symbol)' is not one character (sherpa-onnx reads one Unicode scalar per token)"
            case .whitespaceSymbol(let value):
                "a phoneme is the white space U+\(String(value, radix: 16, uppercase: true)), which tokens.txt cannot hold"
            case .duplicate(let symbol): "the phoneme '\(symbol)' is listed twice"
            case .missingSymbol(let symbol): "the phoneme map has no '\(symbol)' (Piper's pad, start and end are _ ^ $)"
            case .negativeID(let id): "a phoneme has the negative id \(id)"
            case .unreadableLine(let line): "the line '\(line.prefix(40))' is not 'SYMBOL ID'"
            case .tooManyEntries: "it has more than \(TokenTable.maximumEntries) tokens"
            }
        }
    }
}
