import Markup

/// Parses an EPUB 3 navigation document: the `toc` nav and the `landmarks` nav (`page-list` is ignored).
///
/// Pure over bytes. Hrefs are resolved against the navigation document's own folder (it may live
/// elsewhere than the package document) and expressed relative to the package folder. Broken
/// markup is read with the HTML parser (a warning says so).
public struct NavigationParser: Sendable {
    /// The table of contents; empty when the document has no usable `toc` nav.
    public let toc: [TOCEntry]
    /// Landmarks (`epub:type` of each link as the type).
    public let landmarks: [EPUBLandmark]
    /// True when a `toc` nav was found (even an empty one).
    public let hasTOCNav: Bool
    /// Problems worked around while reading the navigation document.
    public let warnings: [EPUBWarning]

    /// - Parameters:
    ///   - bytes: the navigation document as stored.
    ///   - path: container path of the navigation document.
    ///   - packageDirectory: the package folder (`OEBPS/`), which links are made relative to.
    /// - Throws: `EPUBError.limitExceeded`, or `.malformedXML` when not even the HTML parser finds a root.
    public init(bytes: [UInt8], path: String, packageDirectory: String) throws {
        let document: MarkupDocument
        do {
            document = try MarkupParser.parseXHTML(bytes, documentName: path)
        } catch let error as MarkupError {
            throw EPUBError(error)
        }
        var warnings = document.warnings.map { EPUBWarning(.minor, path: path, $0) }
        let navs = document.root.all(named: "nav")
        func types(_ element: MarkupElement) -> [String] {
            (element.attribute("type", namespace: Namespace.epub) ?? element.attribute("role") ?? "").tokens()
        }
        let tocNav = navs.first { types($0).contains("toc") || types($0).contains("doc-toc") }
        let builder = Builder(path: path, packageDirectory: packageDirectory)
        if let tocNav, let list = tocNav.first(named: "ol") ?? tocNav.first(named: "ul") {
            toc = builder.entries(of: list)
        } else {
            toc = []
        }
        hasTOCNav = tocNav != nil
        if tocNav == nil {
            warnings.append(EPUBWarning(.major, path: path, "navigation document has no toc nav"))
        }
        if let landmarksNav = navs.first(where: { types($0).contains("landmarks") }) {
            landmarks = landmarksNav.all(named: "a").compactMap { anchor in
                guard let href = anchor.attribute("href"),
                    let target = makeLink(href, documentPath: path, packageDirectory: packageDirectory)
                else { return nil }
                let text = anchor.cleanText
                let label = text.isEmpty ? anchor.imageAltText ?? "" : text
                return EPUBLandmark(
                    type: types(anchor).first ?? "", title: label.isEmpty ? nil : label, target: target)
            }
        } else {
            landmarks = []
        }
        self.warnings = warnings
    }

    private struct Builder {
        let path: String
        let packageDirectory: String

        /// Entries of an `<ol>`. Recursion depth is bounded by the markup depth limit.
        func entries(of list: MarkupElement) -> [TOCEntry] {
            var result: [TOCEntry] = []
            for item in list.elements where item.isNamed("li") {
                let sublist = item.elements.first { $0.isNamed("ol") || $0.isNamed("ul") }
                let children = sublist.map(entries(of:)) ?? []
                let labelElement =
                    item.elements.first { $0.isNamed("a") || $0.isNamed("span") }
                    ?? item.elements.first { !($0.isNamed("ol") || $0.isNamed("ul")) }?.first(named: "a")
                guard let labelElement else {
                    // No label: keep the children at this level.
                    result += children
                    continue
                }
                var label = labelElement.cleanText
                if label.isEmpty { label = labelElement.imageAltText ?? "" }
                if label.isEmpty { label = (labelElement.attribute("title") ?? "").collapsingWhitespace() }
                let target = labelElement.attribute("href").flatMap {
                    makeLink($0, documentPath: path, packageDirectory: packageDirectory)
                }
                result.append(TOCEntry(label: label, target: target, children: children))
            }
            return result
        }
    }
}

/// Parses an EPUB 2 NCX: the `navMap`'s nested `navPoint`s (`playOrder` is ignored: document order
/// is the order).
///
/// Pure over bytes. Hrefs are resolved against the NCX's own folder and expressed relative to the
/// package folder.
public struct NCXParser: Sendable {
    /// The table of contents; empty when the navMap is empty or missing.
    public let toc: [TOCEntry]
    /// Problems worked around while reading the NCX.
    public let warnings: [EPUBWarning]

    /// - Parameters:
    ///   - bytes: the NCX as stored.
    ///   - path: container path of the NCX.
    ///   - packageDirectory: the package folder, which links are made relative to.
    /// - Throws: `EPUBError.malformedXML` when the NCX is not well-formed XML, `.limitExceeded`.
    public init(bytes: [UInt8], path: String, packageDirectory: String) throws {
        let document = try parseRequiredXML(bytes, file: path)
        var warnings = document.warnings.map { EPUBWarning(.minor, path: path, $0) }
        guard document.root.isLocal("ncx"), let navMap = document.root.childElement("navMap") else {
            warnings.append(EPUBWarning(.major, path: path, "NCX has no navMap"))
            toc = []
            self.warnings = warnings
            return
        }
        func entries(of parent: MarkupElement) -> [TOCEntry] {
            parent.childElements("navPoint").map { point in
                let navLabel = point.childElement("navLabel")
                var label = navLabel?.childElement("text")?.cleanText ?? navLabel?.cleanText ?? ""
                // A label drawn as a picture (`<navLabel><img alt="..."/></navLabel>`) reads as its alt text.
                if label.isEmpty { label = navLabel?.imageAltText ?? "" }
                let target = point.childElement("content")?.anyAttribute("src").flatMap {
                    makeLink($0, documentPath: path, packageDirectory: packageDirectory)
                }
                return TOCEntry(label: label, target: target, children: entries(of: point))
            }
        }
        toc = entries(of: navMap)
        self.warnings = warnings
    }
}

extension TOCEntry {
    /// This entry and all below it, depth first, without recursion.
    public var flattened: [TOCEntry] {
        var result: [TOCEntry] = []
        var stack = [self]
        while let entry = stack.popLast() {
            result.append(entry)
            stack.append(contentsOf: entry.children.reversed())
        }
        return result
    }
}
