/// What the text of a content document needs from its CSS: which elements a reading system does not
/// show (`display: none`, `visibility: hidden`) and which it floats (a drop capital set beside its word).
///
/// Parsed from the bytes of one stylesheet (`init(bytes:)`), pure: the book's stylesheets are read
/// once (`BookStyles`) and a document's are merged in the order it links them (`merged`). Only
/// compound selectors of an element name, classes and an id are understood (`.note`, `p.hidden`,
/// `#guide`, `span.a.b`, and lists of them); a selector with a combinator, an attribute or a pseudo-class
/// is left out, and so is a bare element name (`span { display: none }` would hide every span: too
/// broad to trust). Rules under `@media` apply when the query names `screen` or `all` without
/// conditions; `@media print` and conditional queries do not, nor does any other at-rule. Later and
/// more specific declarations win, `!important` above all, as in the cascade.
struct StyleRules: Sendable, Hashable {
    /// The properties read.
    enum Property: UInt8, Sendable, Hashable {
        /// `display`: true for `none`.
        case display
        /// `visibility`: true for `hidden` or `collapse`.
        case visibility
        /// `float`: true for `left`, `right`, `inline-start` or `inline-end`.
        case float
    }

    /// A compound selector: an element name (lower case), classes (lower case, as `MarkupElement.classes`
    /// gives them) and an id, each optional but at least one class or the id.
    struct Selector: Sendable, Hashable {
        var element: String?
        var id: String?
        var classes: [String]
    }

    /// One declaration of a property for a selector.
    struct Rule: Sendable, Hashable {
        var selector: Selector
        var property: Property
        /// Whether the value hides (or floats) the element.
        var value: Bool
        /// Specificity, `!important` above every specificity.
        var weight: Int
        /// Position in the document's stylesheets: a later rule of equal weight wins.
        var order: Int
    }

    /// Rules by one class of their selector (the first), and by id for selectors without a class.
    private(set) var byClass: [String: [Rule]] = [:]
    private(set) var byID: [String: [Rule]] = [:]
    /// How many rules are kept.
    private(set) var count = 0
    /// The greatest `Rule.order` kept.
    private var lastOrder = 0

    /// Bytes of a stylesheet read; the rest is ignored (a stylesheet of a book is a few kilobytes).
    static let maxBytes = 512 * 1024
    /// Rules kept from one stylesheet; further ones are ignored.
    static let maxRules = 5_000
    /// `@media` blocks nested deeper are skipped.
    static let maxDepth = 4
    /// Rules filed under one class or id; further ones (with other selectors) are ignored. A book
    /// declares `display` for a class a few times; thousands would make every element slow to decide.
    static let maxRulesPerName = 32
    /// Classes of a selector, and of an element, looked at.
    static let maxClasses = 8

    /// No rules.
    init() {}

    /// The rules of one stylesheet's bytes (UTF-8 or ASCII-compatible). Never fails: what cannot be
    /// understood is skipped.
    init(bytes: [UInt8]) {
        let clean = Self.withoutComments(bytes.prefix(Self.maxBytes))
        var parser = Parser(bytes: clean)
        parser.parseRules(in: 0..<clean.count, depth: 0)
        for rule in parser.rules { add(rule) }
    }

    /// The rules of CSS text (a `<style>` element).
    init(css: String) { self.init(bytes: Array(css.utf8)) }

    var isEmpty: Bool { count == 0 }

    /// Files `rule` under its first class, else its id. Of two rules for the same selector and
    /// property only the one that wins the cascade is kept.
    private mutating func add(_ rule: Rule) {
        if let first = rule.selector.classes.first {
            Self.file(rule, in: &byClass[first, default: []], count: &count)
        } else if let id = rule.selector.id {
            Self.file(rule, in: &byID[id, default: []], count: &count)
        }
        lastOrder = max(lastOrder, rule.order)
    }

    private static func file(_ rule: Rule, in rules: inout [Rule], count: inout Int) {
        if let existing = rules.firstIndex(where: { $0.selector == rule.selector && $0.property == rule.property }) {
            if (rule.weight, rule.order) >= (rules[existing].weight, rules[existing].order) { rules[existing] = rule }
        } else if rules.count < maxRulesPerName {
            rules.append(rule)
            count += 1
        }
    }

    /// These rules followed by `later`'s (which win over these at equal weight).
    func merged(with later: StyleRules) -> StyleRules {
        guard !isEmpty else { return later }
        guard !later.isEmpty else { return self }
        var out = self
        for rules in [later.byClass.values, later.byID.values].joined() {
            for var rule in rules {
                rule.order += lastOrder
                out.add(rule)
            }
        }
        return out
    }

    /// Whether the rules hide an element, and whether they float it.
    func decide(element name: String, id: String?, classes: [String]) -> (hidden: Bool, floated: Bool) {
        guard !isEmpty else { return (false, false) }
        var best: [Property: Rule] = [:]
        func consider(_ rules: [Rule]) {
            for rule in rules where Self.matches(rule.selector, name: name, id: id, classes: classes) {
                if let current = best[rule.property],
                    (current.weight, current.order) > (rule.weight, rule.order)
                {
                    continue
                }
                best[rule.property] = rule
            }
        }
        for className in classes.prefix(Self.maxClasses) { if let rules = byClass[className] { consider(rules) } }
        if let id, let rules = byID[id] { consider(rules) }
        let hidden = best[.display]?.value == true || best[.visibility]?.value == true
        return (hidden, best[.float]?.value == true)
    }

    private static func matches(_ selector: Selector, name: String, id: String?, classes: [String]) -> Bool {
        if let element = selector.element, element != name { return false }
        if let wanted = selector.id, wanted != id { return false }
        return selector.classes.allSatisfy(classes.contains)
    }

    // MARK: parsing

    /// The bytes with `/* … */` comments removed (strings kept as they are).
    static func withoutComments(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var offset = bytes.startIndex
        var quote: UInt8?
        while offset < bytes.endIndex {
            let byte = bytes[offset]
            if let open = quote {
                out.append(byte)
                if byte == UInt8(ascii: "\\"), offset + 1 < bytes.endIndex {
                    out.append(bytes[offset + 1])
                    offset += 2
                    continue
                }
                if byte == open || byte == UInt8(ascii: "\n") { quote = nil }  // an unclosed string ends at the line
                offset += 1
            } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.endIndex, bytes[offset + 1] == UInt8(ascii: "*") {
                offset += 2
                while offset + 1 < bytes.endIndex,
                    !(bytes[offset] == UInt8(ascii: "*") && bytes[offset + 1] == UInt8(ascii: "/"))
                {
                    offset += 1
                }
                offset = min(offset + 2, bytes.endIndex)
                out.append(UInt8(ascii: " "))
            } else {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
                out.append(byte)
                offset += 1
            }
        }
        return out
    }

    /// Whether a media query list (`screen`, `print`, `only screen and (min-width: 40em)`) applies to
    /// a reading system's first rendering: one query that is `screen` or `all` (or `not print`) with
    /// no condition. An empty list applies.
    static func mediaApplies(_ query: String) -> Bool {
        let queries = query.lowercased().split(separator: ",").map { $0.split(whereSeparator: \.isWhitespace) }
        if queries.isEmpty || (queries.count == 1 && queries[0].isEmpty) { return true }
        return queries.contains { words in
            var words = words[...]
            if words.first == "only" { words = words.dropFirst() }
            if words.first == "not" { return words.count == 2 && (words.last == "print" || words.last == "speech") }
            return words.count == 1 && (words.first == "screen" || words.first == "all")
        }
    }

    /// The compound selector of one item of a selector list, or nil when it is anything else.
    static func selector(_ text: Substring) -> Selector? {
        let bytes = Array(text.utf8)
        var offset = 0
        func name() -> String? {
            let start = offset
            while offset < bytes.count, isNameByte(bytes[offset]) { offset += 1 }
            return offset > start ? String(decoding: bytes[start..<offset], as: UTF8.self) : nil
        }
        var selector = Selector(element: nil, id: nil, classes: [])
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "*") {
            offset += 1
        } else if let element = name() {
            selector.element = element.lowercased()
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "."), let className = name() {
                selector.classes.append(className.lowercased())
            } else if byte == UInt8(ascii: "#"), selector.id == nil, let id = name() {
                selector.id = id
            } else {
                return nil  // a combinator, an attribute, a pseudo-class, an escape
            }
        }
        guard !selector.classes.isEmpty || selector.id != nil, selector.classes.count <= maxClasses else { return nil }
        return selector
    }

    /// Letters, digits, `-`, `_` and any non-ASCII byte: what a CSS name is made of (escapes aside).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// Specificity as one number: ids, then classes, then the element name.
    static func specificity(_ selector: Selector) -> Int {
        (selector.id == nil ? 0 : 10_000) + 100 * selector.classes.count + (selector.element == nil ? 0 : 1)
    }

    /// What one declaration (`display: none !important`) says about a property read, if anything.
    static func declaration(_ text: Substring) -> (Property, value: Bool, important: Bool)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let property = text[..<colon].trimmingSpaces().lowercased()
        var value = text[text.index(after: colon)...].trimmingSpaces().lowercased()
        var important = false
        if let bang = value.firstIndex(of: "!") {
            important = value[value.index(after: bang)...].trimmingSpaces() == "important"
            value = String(value[..<bang]).trimmingSpaces()
        }
        switch property {
        case "display": return (.display, value == "none", important)
        case "visibility": return (.visibility, value == "hidden" || value == "collapse", important)
        case "float":
            return (.float, ["left", "right", "inline-start", "inline-end"].contains(value), important)
        default: return nil
        }
    }

    /// Walks the rules of a stylesheet (comments removed).
    private struct Parser {
        let bytes: [UInt8]
        var rules: [Rule] = []
        private var order = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// Parses the rules in `range`, descending into `@media` blocks that apply.
        mutating func parseRules(in range: Range<Int>, depth: Int) {
            var offset = range.lowerBound
            while offset < range.upperBound, rules.count < StyleRules.maxRules {
                while offset < range.upperBound, isSpace(bytes[offset]) || bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                }
                guard offset < range.upperBound else { return }
                let preludeStart = offset
                let stop = scan(from: offset, to: range.upperBound, until: [UInt8(ascii: "{"), UInt8(ascii: ";")])
                let prelude = String(decoding: bytes[preludeStart..<stop], as: UTF8.self)
                guard stop < range.upperBound, bytes[stop] == UInt8(ascii: "{") else {
                    offset = stop + 1  // a statement at-rule (`@import …;`) or a stray declaration
                    continue
                }
                let blockEnd = matchingBrace(from: stop, to: range.upperBound)
                let inner = (stop + 1)..<blockEnd
                if prelude.hasPrefix("@") {
                    let media = prelude.dropFirst(6)
                    if prelude.lowercased().hasPrefix("@media"), depth < StyleRules.maxDepth,
                        StyleRules.mediaApplies(String(media))
                    {
                        parseRules(in: inner, depth: depth + 1)
                    }
                } else {
                    styleRule(selectors: prelude, block: inner)
                }
                offset = blockEnd + 1
            }
        }

        /// A style rule: every understood selector of its list gets every read declaration.
        private mutating func styleRule(selectors: String, block: Range<Int>) {
            var declarations: [(Property, value: Bool, important: Bool)] = []
            var start = block.lowerBound
            while start < block.upperBound {
                let end = scan(from: start, to: block.upperBound, until: [UInt8(ascii: ";")])
                let text = String(decoding: bytes[start..<end], as: UTF8.self)
                if let declaration = StyleRules.declaration(text[...]) { declarations.append(declaration) }
                start = end + 1
            }
            guard !declarations.isEmpty else { return }
            for item in selectors.split(separator: ",") {
                guard let selector = StyleRules.selector(item.trimmingSpaces()[...]) else { continue }
                let specificity = StyleRules.specificity(selector)
                for (property, value, important) in declarations where rules.count < StyleRules.maxRules {
                    order += 1
                    rules.append(
                        Rule(
                            selector: selector, property: property, value: value,
                            weight: specificity + (important ? 1_000_000 : 0), order: order))
                }
            }
        }

        /// The index of the first byte of `stops` at nesting level zero from `start` (outside strings,
        /// parentheses and brackets), else `end`.
        private func scan(from start: Int, to end: Int, until stops: [UInt8]) -> Int {
            var offset = start
            var nesting = 0
            while offset < end {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    offset = skipString(from: offset, to: end)
                    continue
                }
                if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
                    nesting += 1
                } else if (byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]")) && nesting > 0 {
                    nesting -= 1
                } else if nesting == 0, stops.contains(byte) || byte == UInt8(ascii: "}") {
                    return offset
                }
                offset += 1
            }
            return end
        }

        /// The index of the `}` closing the block opened at `open`, else `end`.
        private func matchingBrace(from open: Int, to end: Int) -> Int {
            var depth = 0
            var offset = open
            while offset < end {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    offset = skipString(from: offset, to: end)
                    continue
                }
                if byte == UInt8(ascii: "{") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { return offset }
                }
                offset += 1
            }
            return end
        }

        /// The index after the string that opens at `start`.
        private func skipString(from start: Int, to end: Int) -> Int {
            let quote = bytes[start]
            var offset = start + 1
            while offset < end, bytes[offset] != quote {
                if bytes[offset] == UInt8(ascii: "\n") { return offset }  // an unclosed string ends at the line
                offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(offset + 1, end)
        }

        private func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
        }
    }
}

extension StringProtocol {
    /// Without ASCII spaces, tabs and line breaks at either end.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
