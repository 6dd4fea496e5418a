import BookText
import EPUBReader
import Markup

/// A book held in memory: XHTML bodies by href, a spine in the given order, a hand-built TOC.
struct MemoryBook: BookContent {
    var package: EPUBPackage
    var files: [String: String]

    /// `spine`: (href, body markup, linear). Each body is wrapped in an XHTML document whose `<html>`
    /// declares `documentLanguages[href]`, else `documentLanguage` (nothing when nil), and whose
    /// `<head>` holds `head` after the title; `language` is the `dc:language`. `stylesheets` are CSS
    /// files by href, listed in the manifest.
    init(
        title: String = "A Test Book", spine: [(String, String, Bool)], toc: [TOCEntry], landmarks: [EPUBLandmark] = [],
        language: String = "en", documentLanguage: String? = "en", documentLanguages: [String: String] = [:],
        head: String = "", stylesheets: [String: String] = [:]
    ) {
        var files: [String: String] = [:]
        var items: [SpineItem] = []
        for (i, (href, body, linear)) in spine.enumerated() {
            let lang = (documentLanguages[href] ?? documentLanguage).map { " xml:lang=\"\($0)\"" } ?? ""
            files[href] = """
                <?xml version="1.0" encoding="utf-8"?>
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(lang)>
                <head><title>\(title)</title>\(head)</head><body>\(body)</body></html>
                """
            let item = ManifestItem(id: "i\(i)", href: href, mediaType: "application/xhtml+xml")
            items.append(SpineItem(index: i, item: item, linear: linear))
        }
        let sheets = stylesheets.keys.sorted().enumerated().map {
            ManifestItem(id: "s\($0)", href: $1, mediaType: "text/css")
        }
        files.merge(stylesheets) { first, _ in first }
        self.files = files
        package = EPUBPackage(
            packagePath: "OEBPS/content.opf", packageDirectory: "OEBPS/", version: "3.0",
            metadata: EPUBMetadata(titles: [title], title: title, languages: [language]),
            manifest: items.map(\.item) + sheets, spine: items, landmarks: landmarks, toc: toc,
            tocSource: toc.isEmpty ? .none : .nav)
    }

    init(
        title: String = "A Test Book", spine: [(String, String)], toc: [TOCEntry], landmarks: [EPUBLandmark] = [],
        language: String = "en", documentLanguage: String? = "en", documentLanguages: [String: String] = [:],
        head: String = "", stylesheets: [String: String] = [:]
    ) {
        self.init(
            title: title, spine: spine.map { ($0.0, $0.1, true) }, toc: toc, landmarks: landmarks, language: language,
            documentLanguage: documentLanguage, documentLanguages: documentLanguages, head: head,
            stylesheets: stylesheets)
    }

    func document(forHref href: String) throws -> MarkupDocument {
        guard let text = files[href] else { throw BookTextError.emptySpine }
        return try MarkupParser.parseXHTML(Array(text.utf8), documentName: href)
    }

    func data(forHref href: String) throws -> [UInt8] {
        guard let text = files[href] else { throw BookTextError.emptySpine }
        return Array(text.utf8)
    }
}

func entry(_ label: String, _ href: String?, _ children: [TOCEntry] = []) -> TOCEntry {
    TOCEntry(label: label, target: href.map { EPUBLink(string: $0) }, children: children)
}

/// A paragraph of `n` filler words.
func prose(_ n: Int, _ word: String = "word") -> String {
    "<p>" + Array(repeating: word, count: n).joined(separator: " ") + ".</p>"
}
