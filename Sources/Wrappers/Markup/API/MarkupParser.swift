internal import CLibXML2

/// Parses untrusted XML and HTML into the immutable `MarkupDocument` tree, with libxml2.
///
/// Safety: the network is never used (`XML_PARSE_NONET`), the DTD is never loaded, entities are
/// never expanded (an internal DTD subset is removed before parsing, see `EntityPrepass`), the tree
/// is walked iteratively with caps on depth (deeper content flattened into text), element count and
/// text size. Documents are converted to UTF-8 first (BOMs, UTF-16/32, Latin-1, declared legacy
/// encodings; invalid UTF-8 is read as Windows-1252 with a warning).
///
/// Thread safety: each call uses its own parser context; libxml2's error hook is per thread.
public enum MarkupParser {
    /// Parses a well-formed XML document (container.xml, OPF, NCX, XHTML).
    /// - Throws: `MarkupError.malformed` with libxml2's first error when the document is not
    ///   well-formed; `MarkupError.limitExceeded`; `MarkupError.empty`.
    public static func parseXML(
        _ bytes: [UInt8], documentName: String, limits: MarkupLimits = .default, attributes: AttributeSelection = .all
    ) throws -> MarkupDocument {
        if TextEncoding.isUTF8ByLabel(bytes) {
            // libxml2 checks every character of UTF-8 input and refuses a document with a bad one,
            // so a document it parses needs no check of ours; one it refuses is prepared again,
            // its encoding checked (and mended), below.
            let input = try prepare(bytes, documentName: documentName, limits: limits, html: false, trustUTF8: true)
            do {
                return try parse(input, documentName: documentName, limits: limits, attributes: attributes, html: false)
            } catch MarkupError.malformed {}
        }
        let input = try prepare(bytes, documentName: documentName, limits: limits, html: false)
        return try parse(input, documentName: documentName, limits: limits, attributes: attributes, html: false)
    }

    /// Parses HTML (or broken XHTML) with libxml2's recovering HTML parser.
    ///
    /// Element and attribute names come back in lower case without namespaces, except that
    /// `epub:*` and `xml:*` attributes get their namespaces back. Never throws for bad markup,
    /// only for limits and empty input.
    public static func parseHTML(
        _ bytes: [UInt8], documentName: String, limits: MarkupLimits = .default, attributes: AttributeSelection = .all
    ) throws -> MarkupDocument {
        let input = try prepare(bytes, documentName: documentName, limits: limits, html: true)
        var document = try parse(input, documentName: documentName, limits: limits, attributes: attributes, html: true)
        document.recovered = true
        return document
    }

    /// Parses an XHTML content document: as XML first; when that fails for well-formedness, with
    /// the HTML parser (`recovered` true and a warning saying why).
    public static func parseXHTML(
        _ bytes: [UInt8], documentName: String, limits: MarkupLimits = .default, attributes: AttributeSelection = .all
    ) throws -> MarkupDocument {
        do {
            return try parseXML(bytes, documentName: documentName, limits: limits, attributes: attributes)
        } catch MarkupError.malformed(_, let message) {
            var document = try parseHTML(bytes, documentName: documentName, limits: limits, attributes: attributes)
            document.warnings.insert("not well-formed XML (\(message)): read with the HTML parser", at: 0)
            return document
        }
    }

    // MARK: - Steps

    private struct Prepared {
        var bytes: [UInt8]
        var warnings: [String]
    }

    /// The bytes in UTF-8 with no internal DTD subset; `trustUTF8`: as they are, their encoding
    /// left to libxml2 to check (`TextEncoding.isUTF8ByLabel` must hold).
    private static func prepare(
        _ bytes: [UInt8], documentName: String, limits: MarkupLimits, html: Bool, trustUTF8: Bool = false
    ) throws -> Prepared {
        if bytes.count > limits.maxDocumentBytes {
            throw MarkupError.limitExceeded(
                document: documentName, what: "\(bytes.count) bytes (limit \(limits.maxDocumentBytes))")
        }
        let decoded =
            trustUTF8
            ? TextEncoding.Decoded(utf8: bytes, warnings: []) : TextEncoding.toUTF8(bytes, lookForMetaCharset: html)
        let rewritten = EntityPrepass.rewrite(decoded.utf8, maxDepth: min(limits.maxDepth, libxml2MaxDepth))
        return Prepared(bytes: rewritten.bytes, warnings: decoded.warnings + rewritten.warnings)
    }

    /// libxml2 refuses nesting deeper than 256 without `XML_PARSE_HUGE`; stay below it.
    static let libxml2MaxDepth = 250

    private static let initialize: Void = { xmlInitParser() }()

    private static func parse(
        _ input: Prepared, documentName: String, limits: MarkupLimits, attributes: AttributeSelection, html: Bool
    ) throws -> MarkupDocument {
        _ = initialize
        let collector = ErrorCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        // The structured error hook is thread-local in libxml2: set it around this parse only.
        xmlSetStructuredErrorFunc(context.toOpaque(), collectError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }

        let document: xmlDocPtr? = input.bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                .assumingMemoryBound(to: CChar.self)
            if html {
                let options = Int32(
                    HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
                        | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | HTML_PARSE_COMPACT.rawValue)
                return htmlReadMemory(base, Int32(buffer.count), documentName, "UTF-8", options)
            } else {
                let options = Int32(
                    XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                        | XML_PARSE_NOCDATA.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_COMPACT.rawValue)
                return xmlReadMemory(base, Int32(buffer.count), documentName, "UTF-8", options)
            }
        }
        guard let document else {
            let message = collector.firstError ?? "unreadable document"
            if html { throw MarkupError.empty(document: documentName) }
            throw MarkupError.malformed(document: documentName, message: message)
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw MarkupError.empty(document: documentName)
        }
        var builder = TreeBuilder(documentName: documentName, limits: limits, attributes: attributes, html: html)
        let tree = try builder.build(root)
        var warnings = input.warnings
        if !html {
            // With NOERROR, namespace and other recoverable errors do not fail the parse; keep them.
            warnings += collector.messages.prefix(20)
        }
        warnings += builder.warnings
        return MarkupDocument(root: tree, warnings: warnings, recovered: false)
    }
}

/// Collects libxml2's messages for one parse (`MarkupParser`, `EditableMarkup`).
final class ErrorCollector {
    var messages: [String] = []
    var firstError: String?
}

let collectError: xmlStructuredErrorFunc = { userData, error in
    guard let userData, let error else { return }
    let collector = Unmanaged<ErrorCollector>.fromOpaque(userData).takeUnretainedValue()
    guard collector.messages.count < 100 else { return }
    var text = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
    while text.last == "\n" || text.last == " " { text.removeLast() }
    // libxml2's advice is for programmers; a reader of the message needs what is wrong.
    if error.pointee.code == XML_ERR_INTERNAL_ERROR.rawValue, text.hasPrefix("Excessive depth in document") {
        text = "elements nested more than 256 deep"
    }
    let line = error.pointee.line
    let message = line > 0 ? "line \(line): \(text)" : text
    collector.messages.append(message)
    if collector.firstError == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
        collector.firstError = message
    }
}
