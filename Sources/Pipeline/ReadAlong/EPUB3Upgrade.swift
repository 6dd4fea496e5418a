import EPUBReader
import Foundation
import Markup

/// What makes the read-along copy of an EPUB 2 book an EPUB 3 package (Media Overlays are EPUB 3):
/// the package document's version and metadata, a navigation document made from the NCX, and the
/// content documents' HTML5 document type and manifest `properties`. The NCX is kept for EPUB 2
/// reading systems.
enum EPUB3Upgrade {
    static let opfNamespace = "http://www.idpf.org/2007/opf"
    static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"
    static let dcNamespace = "http://purl.org/dc/elements/1.1/"
    static let svgNamespace = "http://www.w3.org/2000/svg"
    static let mathMLNamespace = "http://www.w3.org/1998/Math/MathML"
    static let schemaInstanceNamespace = "http://www.w3.org/2001/XMLSchema-instance"

    // MARK: - Content documents

    /// Gives a content document the HTML5 document type in place of an XHTML 1 one (EPUB 3 content
    /// documents are HTML5; EPUBCheck refuses the XHTML 1.1 DTD there). True when it changed.
    static func upgradeDocumentType(of document: EditableMarkup) -> Bool {
        guard let type = document.documentType, !(type.publicID.isEmpty && type.systemID.isEmpty) else {
            return false
        }
        document.setDocumentType(name: "html")
        return true
    }

    /// Moves a table's `summary` (XHTML 1, obsolete in HTML5) to `aria-description`, which keeps it
    /// for assistive technology, unless the table is described already. True when it changed.
    static func replaceTableSummaries(in document: EditableMarkup) -> Bool {
        var changed = false
        for table in document.elements(named: "table") {
            guard let summary = document.attribute("summary", of: table) else { continue }
            document.removeAttribute("summary", of: table)
            let described =
                document.attribute("aria-description", of: table) != nil
                || document.attribute("aria-describedby", of: table) != nil
            let text = summary.trimmingCharacters(in: .whitespacesAndNewlines)
            if !described, !text.isEmpty { document.setAttribute("aria-description", text, of: table) }
            changed = true
        }
        return changed
    }

    /// The manifest `properties` an EPUB 3 content document needs for what it holds: `svg` and
    /// `mathml` for inline SVG and MathML, `scripted` for scripts and forms (EPUB 3.3, "Item
    /// properties").
    static func contentProperties(of document: EditableMarkup) -> [String] {
        var properties: [String] = []
        if !document.elements(named: "svg", namespace: svgNamespace).isEmpty
            || document.name(of: document.root) == "svg"
        {
            properties.append("svg")
        }
        if !document.elements(named: "math", namespace: mathMLNamespace).isEmpty { properties.append("mathml") }
        if !document.elements(named: "script").isEmpty || !document.elements(named: "form").isEmpty {
            properties.append("scripted")
        }
        return properties
    }

    // MARK: - The package document

    /// Makes an OPF 2 package document an EPUB 3 one: `version="3.0"`; the OPF 2 attributes of the
    /// metadata (`opf:role`, `opf:file-as` become `refines` metas, `opf:scheme`, `opf:event` and any
    /// other dropped, as are `xsi:type`s, which OPF 3 does not allow); one `dc:date` (the publication date: EPUB 3 allows one, the modification date
    /// is `dcterms:modified`).
    static func upgradePackage(_ opf: EditableMarkup, metadata: EditableNode, ids: inout UniqueIDs) {
        opf.setAttribute("version", "3.0", of: opf.root)
        keepOneDate(opf, metadata: metadata)
        var refinements: [(id: String, property: String, scheme: String?, value: String)] = []
        for element in opf.children(of: metadata) {
            for attribute in opf.attributes(of: element) where attribute.namespace == schemaInstanceNamespace {
                opf.removeAttribute(attribute.name, namespace: schemaInstanceNamespace, of: element)
            }
            let opfAttributes = opf.attributes(of: element).filter { $0.namespace == opfNamespace }
            guard !opfAttributes.isEmpty else { continue }
            var id = opf.attribute("id", of: element)
            for attribute in opfAttributes {
                opf.removeAttribute(attribute.name, namespace: opfNamespace, of: element)
                let value = attribute.value.trimmingCharacters(in: .whitespacesAndNewlines)
                guard ["role", "file-as"].contains(attribute.name), !value.isEmpty,
                    opf.namespace(of: element) == dcNamespace
                else { continue }
                if id == nil {
                    let new = ids.next("e2a-" + opf.name(of: element))
                    opf.setAttribute("id", new, of: element)
                    id = new
                }
                refinements.append(
                    (id ?? "", attribute.name, attribute.name == "role" ? "marc:relators" : nil, value))
            }
        }
        for refinement in refinements {
            var attributes = [("refines", "#" + refinement.id), ("property", refinement.property)]
            if let scheme = refinement.scheme { attributes.append(("scheme", scheme)) }
            opf.appendElement(
                "meta", attributes: attributes, text: refinement.value, to: metadata, indent: "\n    ")
        }
    }

    /// Removes every `dc:date` but one: the first marked as the publication date, else the first
    /// without an event, else the first.
    private static func keepOneDate(_ opf: EditableMarkup, metadata: EditableNode) {
        let dates = opf.children(of: metadata).filter {
            opf.name(of: $0) == "date" && opf.namespace(of: $0) == dcNamespace
        }
        guard dates.count > 1 else { return }
        func event(_ date: EditableNode) -> String {
            opf.attributes(of: date).first { $0.name == "event" }?.value.lowercased() ?? ""
        }
        let kept = dates.first { event($0) == "publication" } ?? dates.first { event($0).isEmpty } ?? dates[0]
        for date in dates where date != kept { opf.remove(date) }
    }

    // MARK: - The navigation document

    /// An EPUB 3 navigation document at container path `navPath` whose `toc` nav is `toc` (an NCX's
    /// navMap as `EPUBPackage.toc` holds it, links relative to the package folder), in nested `<ol>`s
    /// with hrefs relative to `navPath`. Links to files that are not `documents` (the spine's content
    /// documents) are dropped (a nav `toc` may only point into the spine); an entry left with neither
    /// link nor children is dropped, its label without a link kept as a `<span>` over its children.
    /// With no entry left, one links the first document under the title. `unlisted` (container path
    /// and label) are the spine's non-linear documents, which EPUB 3 wants reachable by a link: those
    /// the `toc` does not link get one in a hidden `nav` of their own.
    static func navigationDocument(
        toc: [TOCEntry], title: String, language: String?, navPath: String, packageDirectory: String,
        documents: [String], unlisted: [(path: String, label: String)] = []
    ) -> [UInt8] {
        let navDirectory = ContainerPath.directory(of: navPath)
        let spine = Set(documents)
        var linked: Set<String> = []
        func href(_ link: EPUBLink) -> String? {
            guard let path = ContainerPath.resolve(link.path, against: packageDirectory), spine.contains(path) else {
                return nil
            }
            linked.insert(path)
            let relative = ReadAlongAssembly.href(path, from: navDirectory)
            return link.fragment.map { relative + "#" + $0 } ?? relative
        }
        func list(_ entries: [TOCEntry], depth: Int) -> [String] {
            let indent = String(repeating: "  ", count: depth + 2)
            var items: [String] = []
            for entry in entries {
                let children = entry.children.isEmpty ? [] : list(entry.children, depth: depth + 2)
                let target = entry.target.flatMap(href)
                var label = entry.label.trimmingCharacters(in: .whitespacesAndNewlines)
                if label.isEmpty, let target = entry.target { label = (target.path as NSString).lastPathComponent }
                let open: String
                if let target {
                    open = indent + "  <li><a href=\"\(XMLText.escaped(target))\">\(XMLText.escaped(label))</a>"
                } else if !children.isEmpty, !label.isEmpty {
                    open = indent + "  <li><span>\(XMLText.escaped(label))</span>"
                } else {
                    // Neither a link nor a label over children: the children take its place.
                    items += children.dropFirst().dropLast()
                    continue
                }
                if children.isEmpty {
                    items.append(open + "</li>")
                } else {
                    items += [open] + children + [indent + "  </li>"]
                }
            }
            guard !items.isEmpty else { return [] }
            return [indent + "<ol>"] + items + [indent + "</ol>"]
        }
        var lines = list(toc, depth: 0)
        if lines.isEmpty, let first = documents.first {
            let link = ReadAlongAssembly.href(first, from: navDirectory)
            lines = [
                "    <ol>", "      <li><a href=\"\(XMLText.escaped(link))\">\(XMLText.escaped(title))</a></li>",
                "    </ol>",
            ]
            linked.insert(first)
        }
        let others = unlisted.filter { !linked.contains($0.path) }
        if !others.isEmpty {
            lines += ["  </nav>", "  <nav hidden=\"hidden\">", "    <ol>"]
            for document in others {
                let link = ReadAlongAssembly.href(document.path, from: navDirectory)
                lines.append(
                    "      <li><a href=\"\(XMLText.escaped(link))\">\(XMLText.escaped(document.label))</a></li>")
            }
            lines.append("    </ol>")
        }
        let languageAttributes =
            language.map { " xml:lang=\"\(XMLText.escaped($0))\" lang=\"\(XMLText.escaped($0))\"" } ?? ""
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(languageAttributes)>
            <head>
              <title>\(XMLText.escaped(title))</title>
            </head>
            <body>
              <nav epub:type="toc" id="toc">

            """ + lines.joined(separator: "\n") + """

                  </nav>
                </body>
                </html>

                """
        return Array(text.utf8)
    }

}
