import Contracts
import Markup

/// Parses a package document (OPF 2.0 and 3.x): metadata, manifest, spine, guide, and which items
/// are the navigation document and the NCX.
///
/// Pure over bytes. Hrefs are resolved against the package document's folder and percent-decoded.
/// Repeated itemrefs, unknown idrefs and non-XHTML spine items without a usable fallback are
/// dropped with warnings; fallback chains are followed with cycle detection. A scripted spine item
/// with an unscripted content document along its fallback chain is read from that fallback.
public struct PackageParser: Sendable {
    /// The longest `dc:language` taken: a language tag is a few subtags ("en", "zh-Hant-TW",
    /// "sr-Latn-RS"), a name ("English") a word or two. Longer text is no language, and matching it
    /// against every voice name cost time in proportion to its length (a 3 MB value took minutes).
    static let longestLanguage = 64

    /// Whether a `dc:language` value can name a language: not empty, at most `longestLanguage`.
    static func mayBeLanguage(_ value: String) -> Bool {
        !value.isEmpty && value.count <= longestLanguage
    }

    /// Container path of the package document.
    public let path: String
    /// Its folder, with a trailing `/`, or "".
    public let packageDirectory: String
    /// `version` of `<package>` (`2.0`, `3.0`), "" when missing.
    public let version: String
    /// Title, authors, language, identifier...
    public let metadata: EPUBMetadata
    /// Items in document order (items without id or href, duplicate ids and hrefs leaving the
    /// container are dropped with warnings).
    public let manifest: [ManifestItem]
    /// Reading order after repeats, unknown ids and unreadable items were dropped.
    public let spine: [SpineItem]
    /// OPF 2 `<guide>` references.
    public let guide: [EPUBLandmark]
    /// The EPUB 3 navigation document (`properties="nav"`), if declared.
    public let navItem: ManifestItem?
    /// The NCX (`<spine toc>`, else the first item of type `application/x-dtbncx+xml`), if any.
    public let ncxItem: ManifestItem?
    /// Problems worked around while reading the package document.
    public let warnings: [EPUBWarning]

    /// Media types read as content documents without a fallback (XHTML and SVG content documents,
    /// plus the HTML and OEB 1 types old books use).
    public static let contentMediaTypes: Set<String> = [
        "application/xhtml+xml", "image/svg+xml", "text/html", "text/x-oeb1-document",
    ]
    /// The media type of an EPUB 2 NCX.
    public static let ncxMediaType = "application/x-dtbncx+xml"

    /// - Parameters:
    ///   - bytes: the package document as stored.
    ///   - path: container path of the package document (`OEBPS/content.opf`).
    /// - Throws: `EPUBError.malformedXML` (also when the root is not `<package>`), `.missingSpine`,
    ///   `.limitExceeded`. An empty spine is not an error here (the book decides).
    public init(bytes: [UInt8], path: String) throws {
        let document = try parseRequiredXML(bytes, file: path)
        let root = document.root
        guard root.isLocal("package") else {
            throw EPUBError.malformedXML(file: path, message: "root element is <\(root.name)>, not <package>")
        }
        self.path = path
        let directory = ContainerPath.directory(of: path)
        packageDirectory = directory
        var warnings = document.warnings.map { EPUBWarning(.minor, path: path, $0) }
        version = root.anyAttribute("version") ?? ""

        // Manifest.
        var manifest: [ManifestItem] = []
        var itemsByID: [String: ManifestItem] = [:]
        for element in root.childElement("manifest")?.childElements("item") ?? [] {
            guard let id = element.anyAttribute("id"), let href = element.anyAttribute("href") else {
                warnings.append(EPUBWarning(.minor, path: path, "manifest item without id or href ignored"))
                continue
            }
            guard let link = makeLink(href, documentPath: path, packageDirectory: directory), !link.path.isEmpty else {
                warnings.append(
                    EPUBWarning(.major, path: path, "manifest item '\(id)': href '\(href)' is outside the book"))
                continue
            }
            if itemsByID[id] != nil {
                warnings.append(EPUBWarning(.minor, path: path, "duplicate manifest id '\(id)': first one kept"))
                continue
            }
            let item = ManifestItem(
                id: id, href: link.path, mediaType: (element.anyAttribute("media-type") ?? "").trimmingWhitespace(),
                properties: element.anyAttribute("properties")?.tokens() ?? [],
                fallback: element.anyAttribute("fallback"))
            manifest.append(item)
            itemsByID[id] = item
        }
        if root.childElement("manifest") == nil {
            warnings.append(EPUBWarning(.major, path: path, "package document has no <manifest>"))
        }
        self.manifest = manifest

        // Spine.
        guard let spineElement = root.childElement("spine") else { throw EPUBError.missingSpine(file: path) }
        var spine: [SpineItem] = []
        var seenIDs: Set<String> = []
        // Two manifest items naming one file (`Text/ch1.xhtml` and `Text/./ch1.xhtml`, or an
        // escaped name) are one document: read twice, its text would be heard twice.
        var seenFiles: [String: String] = [:]
        var repeats: [String: Int] = [:]
        for itemref in spineElement.childElements("itemref") {
            guard let idref = itemref.anyAttribute("idref") else {
                warnings.append(EPUBWarning(.minor, path: path, "itemref without idref ignored"))
                continue
            }
            guard let declared = itemsByID[idref] else {
                warnings.append(
                    EPUBWarning(.major, path: path, "spine itemref '\(idref)' is not in the manifest: skipped"))
                continue
            }
            guard let item = Self.readableItem(declared, itemsByID: itemsByID, path: path, warnings: &warnings) else {
                continue
            }
            guard seenIDs.insert(item.id).inserted else {
                repeats[idref, default: 0] += 1
                continue
            }
            if let first = seenFiles[item.href] {
                warnings.append(
                    EPUBWarning(
                        .minor, path: path,
                        "spine items '\(first)' and '\(item.id)' are the same file '\(item.href)': read once"))
                continue
            }
            seenFiles[item.href] = item.id
            spine.append(
                SpineItem(
                    index: spine.count, item: item,
                    linear: itemref.anyAttribute("linear")?.trimmingWhitespace() != "no",
                    properties: itemref.anyAttribute("properties")?.tokens() ?? []))
        }
        for (idref, count) in repeats.sorted(by: { $0.key < $1.key }) {
            warnings.append(
                EPUBWarning(
                    .minor, path: path, "spine itemref '\(idref)' repeated \(Counts.of(count, "more time")): kept once")
            )
        }
        self.spine = spine

        // Navigation.
        navItem = manifest.first { $0.properties.contains("nav") }
        if let tocID = spineElement.anyAttribute("toc") {
            if let item = itemsByID[tocID] {
                ncxItem = item
            } else {
                warnings.append(EPUBWarning(.minor, path: path, "spine toc '\(tocID)' is not in the manifest"))
                ncxItem = manifest.first { $0.mediaType == Self.ncxMediaType }
            }
        } else {
            ncxItem = manifest.first { $0.mediaType == Self.ncxMediaType }
        }

        // Guide.
        guide = (root.childElement("guide")?.childElements("reference") ?? []).compactMap { reference in
            guard let type = reference.anyAttribute("type"), let href = reference.anyAttribute("href"),
                let link = makeLink(href, documentPath: path, packageDirectory: directory)
            else { return nil }
            return EPUBLandmark(
                type: type, title: reference.anyAttribute("title")?.collapsingWhitespace(), target: link)
        }

        // Metadata last: the cover needs the manifest.
        if let metadataElement = root.childElement("metadata") {
            metadata = Self.parseMetadata(
                metadataElement, uniqueIdentifier: root.anyAttribute("unique-identifier"), manifest: manifest,
                itemsByID: itemsByID)
        } else {
            warnings.append(EPUBWarning(.major, path: path, "package document has no <metadata>"))
            metadata = EPUBMetadata()
        }
        if metadata.title == nil {
            warnings.append(EPUBWarning(.minor, path: path, "no title in the metadata"))
        }
        self.warnings = warnings
    }

    /// The item itself when it is a content document, else the first content document along its
    /// fallback chain; nil (with a warning) when there is none or the chain loops.
    private static func readableItem(
        _ item: ManifestItem, itemsByID: [String: ManifestItem], path: String, warnings: inout [EPUBWarning]
    ) -> ManifestItem? {
        var current = item
        var visited: Set<String> = [item.id]
        while !contentMediaTypes.contains(current.mediaType.lowercased()) {
            guard let next = current.fallback.flatMap({ itemsByID[$0] }) else {
                warnings.append(
                    EPUBWarning(
                        .major, path: path,
                        "spine item '\(item.id)' (\(item.mediaType)) is not a content document and has no usable "
                            + "fallback: skipped"))
                return nil
            }
            guard visited.insert(next.id).inserted else {
                warnings.append(
                    EPUBWarning(.major, path: path, "spine item '\(item.id)': fallback chain loops: skipped"))
                return nil
            }
            current = next
        }
        return unscriptedFallback(of: current, itemsByID: itemsByID) ?? current
    }

    /// For a scripted content document (`properties="scripted"`), the first content document along its
    /// fallback chain that is not scripted: what a reading system without scripting shows (EPUB 3
    /// §3.4.5 manifest fallbacks). Nil when the item is not scripted or no such fallback exists (the
    /// scripted document is then read as it is: its text is there without the script).
    private static func unscriptedFallback(of item: ManifestItem, itemsByID: [String: ManifestItem]) -> ManifestItem? {
        guard item.properties.contains("scripted") else { return nil }
        var current = item
        var visited: Set<String> = [item.id]
        while let next = current.fallback.flatMap({ itemsByID[$0] }), visited.insert(next.id).inserted {
            if contentMediaTypes.contains(next.mediaType.lowercased()), !next.properties.contains("scripted") {
                return next
            }
            current = next
        }
        return nil
    }

    private static func parseMetadata(
        _ element: MarkupElement, uniqueIdentifier: String?, manifest: [ManifestItem],
        itemsByID: [String: ManifestItem]
    ) -> EPUBMetadata {
        // Every element, also inside OPF 2 <dc-metadata>/<x-metadata> wrappers.
        let all = element.descendants
        // EPUB 3 refinements: id → [(property, value)]. One level only, so `refines` cycles cannot loop.
        var refinements: [String: [(String, String)]] = [:]
        var coverID: String?
        for meta in all where meta.isLocal("meta") {
            if let refines = meta.anyAttribute("refines"), let property = meta.anyAttribute("property") {
                let id = refines.hasPrefix("#") ? String(refines.dropFirst()) : refines
                refinements[id, default: []].append((property, meta.cleanText))
            }
            if meta.anyAttribute("name") == "cover", let content = meta.anyAttribute("content") {
                coverID = content.trimmingWhitespace()
            }
        }
        func refined(_ element: MarkupElement, _ property: String) -> String? {
            guard let id = element.anyAttribute("id") else { return nil }
            return refinements[id]?.first { $0.0 == property }?.1
        }
        func dc(_ local: String) -> [MarkupElement] { all.filter { $0.isLocal(local) && !$0.isLocal("meta") } }
        func creators(_ local: String) -> [EPUBCreator] {
            dc(local).compactMap { creator in
                let name = creator.cleanText
                guard !name.isEmpty else { return nil }
                // A creator may be refined with several roles ("ann" and "aut"): an author among them is an author.
                let roles =
                    creator.anyAttribute("id").map { id in
                        (refinements[id] ?? []).filter { $0.0 == "role" }.map { $0.1.trimmingWhitespace() }
                    } ?? []
                let role =
                    creator.anyAttribute("role", namespace: Namespace.opf)
                    ?? (roles.contains("aut") ? "aut" : roles.first)
                let fileAs = creator.anyAttribute("file-as", namespace: Namespace.opf) ?? refined(creator, "file-as")
                return EPUBCreator(name: name, role: role?.trimmingWhitespace(), fileAs: fileAs)
            }
        }

        var metadata = EPUBMetadata()
        let titleElements = dc("title").filter { !$0.cleanText.isEmpty }
        metadata.titles = titleElements.map(\.cleanText)
        metadata.title = (titleElements.first { refined($0, "title-type") == "main" } ?? titleElements.first)?.cleanText
        metadata.creators = creators("creator")
        metadata.contributors = creators("contributor")
        metadata.languages = dc("language").map(\.cleanText).filter(Self.mayBeLanguage)
        let identifiers = dc("identifier")
        metadata.identifier =
            (identifiers.first { $0.anyAttribute("id") == uniqueIdentifier && uniqueIdentifier != nil }
            ?? identifiers.first)?.cleanText
        metadata.publisher = dc("publisher").first?.cleanText
        metadata.date = dc("date").first?.cleanText
        metadata.description = dc("description").first.map(PlainText.text(of:)).flatMap { $0.isEmpty ? nil : $0 }
        if let cover = manifest.first(where: { $0.properties.contains("cover-image") }) {
            metadata.coverImage = cover.href
        } else if let coverID {
            metadata.coverImage = itemsByID[coverID]?.href ?? manifest.first { $0.href == coverID }?.href
        }
        return metadata
    }
}
