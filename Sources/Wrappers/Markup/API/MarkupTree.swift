/// Well-known namespace URIs.
public enum Namespace {
    /// XHTML.
    public static let xhtml = "http://www.w3.org/1999/xhtml"
    /// EPUB's `epub:` attributes (`epub:type`).
    public static let epub = "http://www.idpf.org/2007/ops"
    /// The OPF package document.
    public static let opf = "http://www.idpf.org/2007/opf"
    /// Dublin Core metadata.
    public static let dc = "http://purl.org/dc/elements/1.1/"
    /// The EPUB 2 NCX.
    public static let ncx = "http://www.daisy.org/z3986/2005/ncx/"
    /// `META-INF/container.xml`.
    public static let container = "urn:oasis:names:tc:opendocument:xmlns:container"
    /// MathML.
    public static let mathML = "http://www.w3.org/1998/Math/MathML"
    /// The `xml:` prefix (`xml:lang`).
    public static let xml = "http://www.w3.org/XML/1998/namespace"
}

/// An attribute of a parsed element.
public struct MarkupAttribute: Hashable, Sendable {
    /// Local name, without prefix (`type` for `epub:type`).
    public var name: String
    /// Namespace URI, nil for unprefixed attributes.
    public var namespace: String?
    /// The attribute's value, entities resolved.
    public var value: String

    /// An attribute.
    public init(name: String, namespace: String?, value: String) {
        self.name = name
        self.namespace = namespace
        self.value = value
    }
}

/// A node of a parsed document: an element or a run of text.
public enum MarkupNode: Sendable {
    case element(MarkupElement)
    case text(String)
}

/// An element of a parsed XML or HTML document: an immutable Swift tree, detached from libxml2.
///
/// Names are local names in lower case for HTML-parsed documents and as written for XML.
/// Documents parsed in HTML recovery mode have no namespaces; `attribute(_:namespace:)` still
/// finds `epub:type` there by its prefixed name.
public final class MarkupElement: Sendable {
    /// Local name (`p`, `navPoint`, `rootfile`).
    public let name: String
    /// Namespace URI, nil when none.
    public let namespace: String?
    /// The element's attributes, in document order.
    public let attributes: [MarkupAttribute]
    /// The element's children (elements and text), in document order.
    public let children: [MarkupNode]
    /// 1-based line in the source document, 0 when unknown.
    public let line: Int

    /// An element.
    public init(name: String, namespace: String?, attributes: [MarkupAttribute], children: [MarkupNode], line: Int) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
        self.line = line
    }
}

/// A parsed document and what the parser had to say about it.
public struct MarkupDocument: Sendable {
    /// The document element.
    public var root: MarkupElement
    /// Problems that did not stop parsing (recovered markup, unknown entities, flattened nesting).
    public var warnings: [String]
    /// True when the XML parser refused the document and the HTML parser recovered it.
    public var recovered: Bool

    /// A parsed document.
    public init(root: MarkupElement, warnings: [String] = [], recovered: Bool = false) {
        self.root = root
        self.warnings = warnings
        self.recovered = recovered
    }
}

/// The attributes a parse keeps.
///
/// Books carry attributes no reader of their text looks at (a transliteration in the `title` of
/// every line of verse, styling, ARIA labels): a reader that names the few it reads is spared a
/// string for each of the rest. The bytes of dropped values still count against
/// `MarkupLimits.maxTextBytes`, so a document exceeds the limits whatever is kept.
public struct AttributeSelection: Sendable {
    /// The local names kept (`type` for `epub:type`), nil for all.
    let names: Set<String>?

    /// Every attribute: what a general reader of the document needs.
    public static let all = AttributeSelection(names: nil)

    /// Only attributes whose local name is one of `names` (as written: XML keeps case, the HTML
    /// parser lower-cases). A prefixed name the HTML parser keeps whole (`epub:type`) is matched
    /// by the part after its colon.
    public static func named(_ names: Set<String>) -> AttributeSelection { AttributeSelection(names: names) }

    /// Whether an attribute with this name, as libxml2 wrote it, is kept.
    public func keeps(_ name: String) -> Bool {
        guard let names else { return true }
        if names.contains(name) { return true }
        guard let colon = name.lastIndex(of: ":") else { return false }
        return names.contains(String(name[name.index(after: colon)...]))
    }
}

/// Bounds on untrusted markup.
public struct MarkupLimits: Sendable {
    /// Largest document accepted, in bytes.
    public var maxDocumentBytes: Int
    /// Deepest element nesting kept as a tree; deeper content is flattened into its ancestor
    /// (text kept) with a warning, so a hostile document cannot exhaust the stack.
    public var maxDepth: Int
    /// Most text accepted from one document, in bytes.
    public var maxTextBytes: Int
    /// Most elements accepted from one document.
    public var maxElements: Int

    /// Limits; exceeding one is a `MarkupError`.
    public init(maxDocumentBytes: Int, maxDepth: Int, maxTextBytes: Int, maxElements: Int) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
        self.maxElements = maxElements
    }

    /// Generous for any real book (the largest real XHTML files are a few MB), small enough that
    /// a hostile one cannot take the process down.
    public static let `default` = MarkupLimits(
        maxDocumentBytes: 64 << 20, maxDepth: 256, maxTextBytes: 64 << 20, maxElements: 2_000_000)
}
