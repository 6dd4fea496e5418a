internal import CLibXML2
import Contracts

/// Rewrites a UTF-8 document so that libxml2 never expands an entity and never loses one.
///
/// - An internal DTD subset (`<!DOCTYPE x [ ... ]>`) is removed: entity declarations there are the
///   billion-laughs, quadratic-blowup and XXE vectors. References to entities it declared are dropped
///   (their text is not read), with a warning.
/// - HTML named entities (`&nbsp;`, `&mdash;`), which the XML parser silently drops when the DTD is
///   not loaded, become numeric references (`&#160;`).
/// - Unknown named references are dropped with a warning; a bare `&` becomes `&amp;`.
/// - Tags nested deeper than `maxDepth` are removed (their text is kept): libxml2 refuses documents
///   deeper than 256 levels without `XML_PARSE_HUGE`, and we never use that option. HTML void
///   elements (`<br>`) do not count as opening a level.
/// Comments and CDATA sections are copied untouched.
enum EntityPrepass {
    struct Result {
        var bytes: [UInt8]
        var warnings: [String]
    }

    private static let amp = UInt8(ascii: "&")
    private static let less = UInt8(ascii: "<")
    private static let semicolon = UInt8(ascii: ";")
    private static let predefined: Set<[UInt8]> = Set(["amp", "lt", "gt", "quot", "apos"].map { Array($0.utf8) })
    private static let longestEntityName = 32

    /// The index of the first `<` or `&` at or after `start` (the end when none): text between
    /// tags, most of a document, is skipped without the loop's other tests.
    private static func nextMarkup(_ input: [UInt8], from start: Int) -> Int {
        input.withUnsafeBufferPointer { bytes in
            var position = start
            while position < bytes.count, bytes[position] != less, bytes[position] != amp { position += 1 }
            return position
        }
    }

    static func rewrite(_ input: [UInt8], maxDepth: Int) -> Result {
        var warnings: [String] = []
        // Most documents need no change: the input is returned as it is, and copied only once a
        // first edit is made.
        var edits = Edits(input: input)
        var declared: Set<[UInt8]> = []
        var droppedDeclared = 0
        var unknown: [String: Int] = [:]
        var bareAmpersands = 0
        var depth = 0
        var droppedTags = 0
        var index = 0
        let count = input.count
        while index < count {
            let byte = input[index]
            if byte == less {
                if matches(input, at: index, "<!--") {
                    index = find(input, "-->", from: index + 4).map { $0 + 3 } ?? count
                    continue
                }
                if matches(input, at: index, "<![CDATA[") {
                    index = find(input, "]]>", from: index + 9).map { $0 + 3 } ?? count
                    continue
                }
                if matchesCaseInsensitive(input, at: index, "<!DOCTYPE") {
                    let (end, subset) = doctypeExtent(input, from: index)
                    if let subset {
                        let names = entityNames(in: input[subset])
                        declared.formUnion(names)
                        edits.drop(
                            (subset.lowerBound - 1)..<(subset.upperBound + 1 < end ? subset.upperBound + 1 : end))
                        warnings.append(
                            names.isEmpty
                                ? "internal DTD subset ignored"
                                : "internal DTD subset with \(Counts.of(names.count, "entity declaration")) ignored: "
                                    + "entities are never expanded")
                    }
                    index = end
                    continue
                }
                if let tag = tagExtent(input, at: index) {
                    let drop: Bool
                    if tag.isClosing {
                        drop = depth > maxDepth
                        depth = max(depth - 1, 0)
                    } else if tag.isSelfClosing {
                        drop = depth + 1 > maxDepth
                    } else {
                        depth += 1
                        drop = depth > maxDepth
                    }
                    if drop {
                        droppedTags += 1
                        edits.drop(index..<tag.end)
                        index = tag.end
                        continue
                    }
                }
                index += 1
                continue
            }
            if byte != amp {
                index = nextMarkup(input, from: index + 1)
                continue
            }
            // A reference: `&#...;`, `&name;`, or a bare `&`.
            if index + 1 < count && input[index + 1] == UInt8(ascii: "#") {
                index += 1
                continue
            }
            var end = index + 1
            while end < count, end - index <= longestEntityName, isNameByte(input[end]) { end += 1 }
            guard end < count, input[end] == semicolon, end > index + 1 else {
                bareAmpersands += 1
                edits.replace(index..<(index + 1), with: "&amp;".utf8)
                index += 1
                continue
            }
            let name = Array(input[(index + 1)..<end])
            if predefined.contains(name) {
                // kept as it is
            } else if declared.contains(name) {
                droppedDeclared += 1
                edits.drop(index..<(end + 1))
            } else if let code = htmlEntityCode(name) {
                edits.replace(index..<(end + 1), with: "&#\(code);".utf8)
            } else {
                unknown[String(decoding: name, as: UTF8.self), default: 0] += 1
                edits.drop(index..<(end + 1))
            }
            index = end + 1
        }
        if droppedDeclared > 0 {
            warnings.append(
                "\(Counts.of(droppedDeclared, "reference")) to entities declared in the document dropped")
        }
        for (name, times) in unknown.sorted(by: { $0.key < $1.key }) {
            warnings.append("unknown entity &\(name); dropped (\(times)x)")
        }
        if droppedTags > 0 {
            warnings.append(
                "nesting deeper than \(maxDepth) levels flattened into text (\(Counts.of(droppedTags, "tag")) removed)")
        }
        if bareAmpersands > 0 {
            warnings.append("\(bareAmpersands) bare '&' escaped")
        }
        return Result(bytes: edits.output, warnings: warnings)
    }

    /// The input with ranges replaced or dropped, in increasing order; built only when there is one.
    private struct Edits {
        let input: [UInt8]
        private var out: [UInt8] = []
        /// `input[..<copied]` is accounted for in `out`.
        private var copied = 0
        private var changed = false

        init(input: [UInt8]) { self.input = input }

        mutating func replace(_ range: Range<Int>, with bytes: some Collection<UInt8>) {
            if !changed {
                out.reserveCapacity(input.count + 64)
                changed = true
            }
            out.append(contentsOf: input[copied..<range.lowerBound])
            out.append(contentsOf: bytes)
            copied = range.upperBound
        }

        mutating func drop(_ range: Range<Int>) { replace(range, with: EmptyCollection()) }

        var output: [UInt8] { changed ? out + input[copied...] : input }
    }

    private struct Tag {
        var end: Int
        var isClosing: Bool
        var isSelfClosing: Bool
    }

    /// HTML elements that never have content, so `<br>` without `/` opens no level.
    private static let voidElements: [[UInt8]] =
        ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]
        .map { Array($0.utf8) }

    /// Whether a tag name is one of `voidElements`, ignoring ASCII case (compared in place: a tag
    /// is met for every element of every document).
    private static func isVoidElement(_ name: ArraySlice<UInt8>) -> Bool {
        voidElements.contains { element in
            element.count == name.count
                && zip(element, name).allSatisfy { lower, byte in
                    (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == lower
                }
        }
    }

    /// A start or end tag at `index` (which holds `<`): where it ends and what kind it is. Nil for
    /// anything else (`<!`, `<?`, a stray `<`).
    private static func tagExtent(_ input: [UInt8], at index: Int) -> Tag? {
        var cursor = index + 1
        guard cursor < input.count else { return nil }
        let isClosing = input[cursor] == UInt8(ascii: "/")
        if isClosing { cursor += 1 }
        guard cursor < input.count, isNameStart(input[cursor]) else { return nil }
        let nameStart = cursor
        while cursor < input.count, isNameByte(input[cursor]) { cursor += 1 }
        let name = nameStart..<cursor
        guard let close = tagClose(input, from: cursor) else { return nil }
        let selfClosing =
            !isClosing && (input[close - 1] == UInt8(ascii: "/") || isVoidElement(input[name]))
        return Tag(end: close + 1, isClosing: isClosing, isSelfClosing: selfClosing)
    }

    /// The `>` that closes a tag whose attributes start at `start` (quoted values may hold one),
    /// nil when a `<` or the end comes first.
    private static func tagClose(_ input: [UInt8], from start: Int) -> Int? {
        input.withUnsafeBufferPointer { bytes in
            var quote: UInt8 = 0
            var cursor = start
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == 0x22 || byte == 0x27 {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return cursor
                } else if byte == less {
                    return nil
                }
                cursor += 1
            }
            return nil
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte >= 0x80
    }

    private static func htmlEntityCode(_ name: [UInt8]) -> UInt32? {
        let entity = (name + [0]).withUnsafeBufferPointer { htmlEntityLookup($0.baseAddress) }
        return entity.map { $0.pointee.value }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A || byte >= 0x80
    }

    /// End of the DOCTYPE declaration (index after `>`), and the range inside `[` `]` when it has a
    /// subset. An unterminated subset runs to the end of the input (and is dropped with it).
    private static func doctypeExtent(_ input: [UInt8], from start: Int) -> (Int, Range<Int>?) {
        var index = start + 9
        var quote: UInt8? = nil
        while index < input.count {
            let byte = input[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                let subsetStart = index + 1
                // Declarations, quoted strings and comments inside may hold `]` and `>`.
                var inner = subsetStart
                var innerQuote: UInt8? = nil
                while inner < input.count {
                    let innerByte = input[inner]
                    if let open = innerQuote {
                        if innerByte == open { innerQuote = nil }
                    } else if innerByte == 0x22 || innerByte == 0x27 {
                        innerQuote = innerByte
                    } else if matches(input, at: inner, "<!--") {
                        inner = (find(input, "-->", from: inner + 4) ?? input.count) + 2
                    } else if innerByte == UInt8(ascii: "]") {
                        break
                    }
                    inner += 1
                }
                let subsetEnd = min(inner, input.count)
                var after = subsetEnd + 1
                while after < input.count, input[after] != UInt8(ascii: ">") { after += 1 }
                return (min(after + 1, input.count), subsetStart..<subsetEnd)
            } else if byte == UInt8(ascii: ">") {
                return (index + 1, nil)
            }
            index += 1
        }
        return (input.count, nil)
    }

    /// Names of general entities declared (`<!ENTITY name ...>`, not `<!ENTITY % name ...>`).
    private static func entityNames(in subset: ArraySlice<UInt8>) -> Set<[UInt8]> {
        var names: Set<[UInt8]> = []
        let bytes = Array(subset)
        var index = 0
        while let found = find(bytes, "<!ENTITY", from: index) {
            var cursor = found + 8
            while cursor < bytes.count,
                bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A
                    || bytes[cursor] == 0x0D
            {
                cursor += 1
            }
            if cursor < bytes.count, bytes[cursor] != UInt8(ascii: "%") {
                var end = cursor
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                if end > cursor { names.insert(Array(bytes[cursor..<end])) }
            }
            index = found + 8
        }
        return names
    }

    private static func matches(_ input: [UInt8], at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= input.count else { return false }
        return literal.withUTF8Buffer { buffer in
            for offset in 0..<count where input[index + offset] != buffer[offset] { return false }
            return true
        }
    }

    private static func matchesCaseInsensitive(_ input: [UInt8], at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= input.count else { return false }
        return literal.withUTF8Buffer { buffer in
            for offset in 0..<count {
                let inputByte = input[index + offset]
                let literalByte = buffer[offset]
                let lowerA = inputByte >= 0x41 && inputByte <= 0x5A ? inputByte + 0x20 : inputByte
                let lowerB = literalByte >= 0x41 && literalByte <= 0x5A ? literalByte + 0x20 : literalByte
                if lowerA != lowerB { return false }
            }
            return true
        }
    }

    private static func find(_ input: [UInt8], _ literal: StaticString, from start: Int) -> Int? {
        var index = start
        while index < input.count {
            if matches(input, at: index, literal) { return index }
            index += 1
        }
        return nil
    }
}
