import Foundation
import TestSupport

// Small EPUBs built by the tests, plus scratch folders and file helpers.
// (The ZIP writing follows Tests/Domain/EPUBReaderTests/TestZipWriter.swift, stored entries only:
// test targets cannot share code without a new target.)

/// A book to build: metadata and chapters, each a title and paragraphs.
struct TestBook {
    struct Chapter {
        var title: String
        var paragraphs: [String]
        /// The `epub:type` of the file's `<section>`: `appendix`, `preface`... make front or back matter.
        var epubType = "chapter"
        /// A quotation in another language, after the first paragraph: `(xml:lang, text)`.
        var quotation: (language: String, text: String)?
        /// XHTML written as is after the paragraphs (`<p>Known<sup>3–5</sup>.</p>`).
        var markup = ""
    }

    var title: String
    var authors: [String] = ["Test Author"]
    var language = "en"
    /// The `xml:lang` of every content document's `<html>` (none when nil).
    var documentLanguage: String?
    var identifier = "urn:test:e2e"
    var chapters: [Chapter]
    /// `dc:date` and `dc:description`, when set.
    var date: String?
    var summary: String?
    /// 3: a navigation document and `epub:type`; 2: an NCX, an OPF 2.0 and no `epub:type`.
    var version = 3
    /// The cover image (`OEBPS/cover.png` or `cover.svg`: `cover-image` in EPUB 3, `meta name="cover"`
    /// in EPUB 2).
    var cover: Cover?

    /// A cover image file of the book.
    struct Cover {
        var data: [UInt8]
        var fileName: String
        var mediaType: String

        static func png(_ data: [UInt8]) -> Cover { Cover(data: data, fileName: "cover.png", mediaType: "image/png") }
        static func svg(_ text: String) -> Cover {
            Cover(data: Array(text.utf8), fileName: "cover.svg", mediaType: "image/svg+xml")
        }
    }

    /// The EPUB bytes: mimetype, container, OPF, nav (or NCX), one XHTML file per chapter.
    func epub() -> [UInt8] {
        var files: [(String, String)] = [("mimetype", "application/epub+zip")]
        files.append(
            (
                "META-INF/container.xml",
                """
                <?xml version="1.0"?>
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
                </container>
                """
            ))
        var manifest = chapters.indices.map {
            "<item id=\"c\($0 + 1)\" href=\"c\($0 + 1).xhtml\" media-type=\"application/xhtml+xml\"/>"
        }.joined()
        let spine = chapters.indices.map { "<itemref idref=\"c\($0 + 1)\"/>" }.joined()
        let isEPUB2 = version == 2
        if let cover {
            manifest +=
                "<item id=\"cover\" href=\"\(cover.fileName)\" media-type=\"\(cover.mediaType)\""
                + "\(isEPUB2 ? "" : " properties=\"cover-image\"")/>"
        }
        let coverMeta = cover != nil && isEPUB2 ? "<meta name=\"cover\" content=\"cover\"/>" : ""
        let creators =
            authors.map { "<dc:creator>\(escaped($0))</dc:creator>" }.joined()
            + (date.map { "<dc:date>\(escaped($0))</dc:date>" } ?? "")
            + (summary.map { "<dc:description>\(escaped($0))</dc:description>" } ?? "")
        files.append(
            (
                "OEBPS/content.opf",
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <package xmlns="http://www.idpf.org/2007/opf" version="\(isEPUB2 ? "2.0" : "3.0")" unique-identifier="id">
                <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">\(identifier)</dc:identifier>
                <dc:title>\(escaped(title))</dc:title>\(creators)<dc:language>\(language)</dc:language>
                <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>\(coverMeta)</metadata>
                <manifest>\(isEPUB2 ? Self.ncxItem : Self.navItem)\(manifest)</manifest>
                <spine\(isEPUB2 ? " toc=\"ncx\"" : "")>\(spine)</spine>
                </package>
                """
            ))
        let links = chapters.enumerated().map {
            "<li><a href=\"c\($0.offset + 1).xhtml\">\(escaped($0.element.title))</a></li>"
        }.joined()
        files.append(isEPUB2 ? ncx() : nav(links: links))
        for (index, chapter) in chapters.enumerated() {
            var paragraphs = chapter.paragraphs.map { "<p>\(escaped($0))</p>" }
            if let quotation = chapter.quotation {
                paragraphs.insert(
                    "<blockquote xml:lang=\"\(quotation.language)\"><p>\(escaped(quotation.text))</p></blockquote>",
                    at: min(1, paragraphs.count))
            }
            let body = paragraphs.joined(separator: "\n") + chapter.markup
            let section = isEPUB2 ? "<div>" : "<section epub:type=\"\(escaped(chapter.epubType))\">"
            files.append(
                (
                    "OEBPS/c\(index + 1).xhtml",
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(htmlLanguage)>
                    <head><title>\(escaped(chapter.title))</title></head>
                    <body>\(section)<h1>\(escaped(chapter.title))</h1>
                    \(body)
                    \(isEPUB2 ? "</div>" : "</section>")</body></html>
                    """
                ))
        }
        return makeStoredZip(
            files.map { ($0.0, Array($0.1.utf8)) } + (cover.map { [("OEBPS/" + $0.fileName, $0.data)] } ?? []))
    }

    /// ` xml:lang="de"` for `documentLanguage`, or nothing.
    private var htmlLanguage: String { documentLanguage.map { " xml:lang=\"\(escaped($0))\"" } ?? "" }

    private static let navItem =
        "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>"
    private static let ncxItem = "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>"

    private func nav(links: String) -> (String, String) {
        (
            "OEBPS/nav.xhtml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
            <head><title>Contents</title></head>
            <body><nav epub:type="toc"><h1>Contents</h1><ol>\(links)</ol></nav></body></html>
            """
        )
    }

    private func ncx() -> (String, String) {
        let points = chapters.enumerated().map {
            "<navPoint id=\"p\($0.offset + 1)\" playOrder=\"\($0.offset + 1)\"><navLabel><text>\(escaped($0.element.title))"
                + "</text></navLabel><content src=\"c\($0.offset + 1).xhtml\"/></navPoint>"
        }.joined()
        return (
            "OEBPS/toc.ncx",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head><meta name="dtb:uid" content="\(identifier)"/></head>
            <docTitle><text>\(escaped(title))</text></docTitle><navMap>\(points)</navMap></ncx>
            """
        )
    }

    /// Writes the book to `url`.
    func write(to url: URL) throws {
        try Data(epub()).write(to: url)
    }

    private func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 cannot carry most C0 controls even as references: a book "containing" one writes
            // it as the nearest thing a real book could hold, a character reference libxml2 may refuse.
            default:
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" {
                    out += "&#x\(String(scalar.value, radix: 16));"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// Deterministic prose of about `words` words, varied enough to sound like text.
func prose(words: Int, seed: Int = 0) -> [String] {
    let sentences = [
        "The keeper climbed the narrow stairs at dusk and lit the great lamp above the sea.",
        "Wind pressed against the glass while the gulls settled on the rocks below.",
        "She counted the ships that passed and wrote their names in the heavy log book.",
        "Far out on the water a small boat turned slowly toward the harbour lights.",
        "Her father had kept the light for thirty years and never once let it fail.",
        "In the morning the fog lifted and the whole coast shone silver and grey.",
        "They ate bread and salted fish at the long table by the kitchen fire.",
        "Nobody on the island could remember a winter as cold as that one.",
    ]
    var paragraphs: [String] = []
    var current: [String] = []
    var count = 0
    var index = seed
    while count < words {
        let sentence = sentences[index % sentences.count]
        current.append(sentence)
        count += sentence.split(separator: " ").count
        index += 1
        if current.count == 4 {
            paragraphs.append(current.joined(separator: " "))
            current = []
        }
    }
    if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
    return paragraphs
}

/// An EPUB with only stored entries (no compression needed for tests).
func makeStoredZip(_ entries: [(String, [UInt8])]) -> [UInt8] {
    makeZip(entries.map { TestZipEntry.stored($0.0, $0.1) })
}

/// A temporary folder removed when the value goes away.
final class Scratch: Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "e2e") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("e2a-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Restore permissions a test may have removed, then delete.
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// What identifies a file's contents and identity on disk: used to prove a re-run left it alone.
struct FileIdentity: Equatable {
    var inode: UInt64
    var size: Int64
    var modified: timespec

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
            && a.modified.tv_nsec == b.modified.tv_nsec
    }
}

func identity(_ path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
}

/// Every path under `directory` (relative, sorted), folders included.
func tree(_ directory: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
    return (enumerator.allObjects as? [String] ?? []).sorted()
}

/// Names of the entries directly in `directory`, sorted.
func listing(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

func jsonObject(_ text: String) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
}

func jsonObject(file path: String) -> [String: Any]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
}

/// The properties of a PCM WAV file read back from its header.
struct WAVInfo {
    var format: UInt16
    var channels: UInt16
    var sampleRate: UInt32
    var bitsPerSample: UInt16
    var dataBytes: Int
    /// Where the samples start in the file.
    var dataOffset = 0
    var frames: Int { dataBytes / max(1, Int(channels) * Int(bitsPerSample) / 8) }
    var seconds: Double { Double(frames) / Double(sampleRate) }
}

enum WAVError: Error { case notRIFF, noFormat, noData, truncated }

/// Reads a RIFF/WAVE header, walking the chunks (libsndfile may add LIST or PEAK chunks).
func readWAV(_ data: Data) throws -> WAVInfo {
    let bytes = [UInt8](data)
    func u32(_ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
    guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw WAVError.notRIFF }
    guard Int(u32(4)) + 8 == bytes.count else { throw WAVError.truncated }
    var offset = 12
    var format: (UInt16, UInt16, UInt32, UInt16)?
    var dataBytes: Int?
    var dataOffset = 0
    while offset + 8 <= bytes.count {
        let id = tag(offset)
        let size = Int(u32(offset + 4))
        let body = offset + 8
        guard body + size <= bytes.count else { throw WAVError.truncated }
        if id == "fmt " && size >= 16 {
            format = (u16(body), u16(body + 2), u32(body + 4), u16(body + 14))
        } else if id == "data" {
            dataBytes = size
            dataOffset = body
        }
        offset = body + size + (size & 1)
    }
    guard let format else { throw WAVError.noFormat }
    guard let dataBytes else { throw WAVError.noData }
    return WAVInfo(
        format: format.0, channels: format.1, sampleRate: format.2, bitsPerSample: format.3, dataBytes: dataBytes,
        dataOffset: dataOffset)
}
