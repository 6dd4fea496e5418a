import Contracts
import Conversion
import EPUBReader
import Foundation
import Markup
import ZipReader

#if canImport(Glibc)
    import Glibc
#endif

/// The making of one read-along book (`ReadAlongEPUB.write`): what changes, what is added, then the
/// archive. One value per book; `build` then `writeArchive`.
struct ReadAlongAssembly {
    /// A file added to the book: bytes, or a file on disk read when the archive is written.
    struct Addition {
        var name: String
        var bytes: [UInt8]?
        var file: String?
        var compressed: Bool
    }

    /// A content document's overlay, for the package document.
    struct Overlay {
        var itemID: String
        var smilPath: String
        var durationMS: Int
    }

    let book: EPUBBook
    let archive: ZipArchive
    let sections: [ReadAlongSection]
    let audioMediaType: String
    let audioExtension: String

    private(set) var warnings: [String] = []
    private(set) var placedSentences = 0
    private(set) var overlays: [Overlay] = []
    /// New content of existing entries, by entry name.
    private var replaced: [String: [UInt8]] = [:]
    private var additions: [Addition] = []

    /// The stylesheet that shows the sentence being read.
    static let styleSheet = """
        /* epub2audio: the sentence being read aloud */
        .\(ReadAlongEPUB.activeClass) { background-color: #ffe97f; }

        """

    init(
        book: EPUBBook, archive: ZipArchive, sections: [ReadAlongSection], audioMediaType: String,
        audioExtension: String
    ) {
        self.book = book
        self.archive = archive
        self.sections = sections
        self.audioMediaType = audioMediaType
        self.audioExtension = audioExtension
    }

    private var package: EPUBPackage { book.package }

    // MARK: - What changes

    mutating func build(modified: Date) throws(ReadAlongError) {
        let folder = unusedFolder()
        let cssPath = folder + "read-along.css"
        var spans = sections.map { $0.timing.cues.map { _ in [SentenceSpan]() } }
        let documents = wrapSentences(into: &spans)
        var parsByDocument: [Int: [OverlayPar]] = [:]
        var audioPaths: [Int: String] = [:]
        for (position, section) in sections.enumerated() {
            let audioPath = folder + "section-" + OutputNaming.paddedNumber(section.number) + "." + audioExtension
            let clips = MediaOverlay.clips(
                for: section.timing.cues, spans: spans[position], sampleRate: section.timing.sampleRate)
            for (index, cue) in section.timing.cues.enumerated() where !clips[index].isEmpty {
                placedSentences += 1
                audioPaths[position] = audioPath
                for clip in clips[index] {
                    parsByDocument[cue.source.spineIndex, default: []].append(
                        OverlayPar(
                            textID: clip.id, audioHref: Self.href(audioPath, from: folder), begin: clip.begin,
                            end: clip.end))
                }
            }
        }
        for (spineIndex, pars) in parsByDocument.sorted(by: { $0.key < $1.key }) {
            guard let document = documents[spineIndex] else { continue }
            let smilPath = folder + "overlay-" + OutputNaming.paddedNumber(spineIndex + 1) + ".smil"
            let smil = MediaOverlay.smil(textHref: Self.href(document.path, from: folder), pars: pars)
            additions.append(Addition(name: smilPath, bytes: Array(smil.utf8), file: nil, compressed: true))
            Self.linkStyleSheet(cssPath, in: document.markup, documentPath: document.path)
            replaced[document.path] = document.markup.serialized()
            overlays.append(
                Overlay(
                    itemID: package.spine[spineIndex].item.id, smilPath: smilPath,
                    durationMS: pars.reduce(0) { $0 + $1.end - $1.begin }))
        }
        guard !overlays.isEmpty else { return }
        additions.append(Addition(name: cssPath, bytes: Array(Self.styleSheet.utf8), file: nil, compressed: true))
        for (position, path) in audioPaths.sorted(by: { $0.key < $1.key }) {
            // Audio is compressed already: stored, it is read in place by a reading system.
            additions.append(Addition(name: path, bytes: nil, file: sections[position].audioPath, compressed: false))
        }
        let upgrade = package.version.hasPrefix("2") ? upgradeToEPUB3(folder: folder) : nil
        try updatePackageDocument(
            cssPath: cssPath, audioPaths: audioPaths.values.sorted(), upgrade: upgrade, modified: modified)
    }

    /// What the package document of an EPUB 2 book needs to become EPUB 3: the navigation document
    /// added (nil when the book has one) and the `properties` of content documents, by item id.
    struct Upgrade {
        var navPath: String?
        var properties: [String: [String]]
    }

    /// Makes the content documents of an EPUB 2 book EPUB 3 ones (`EPUB3Upgrade`) and adds a
    /// navigation document made from its NCX, in `folder`.
    private mutating func upgradeToEPUB3(folder: String) -> Upgrade {
        var properties: [String: [String]] = [:]
        var titles: [String: String] = [:]
        let bookTitle = package.metadata.title ?? ""
        for item in package.manifest where item.mediaType.lowercased() == "application/xhtml+xml" {
            guard let path = ContainerPath.resolve(item.href, against: package.packageDirectory),
                archive.entry(named: path) != nil
            else { continue }
            do {
                let document = try EditableMarkup(xml: try replaced[path] ?? archive.read(path), documentName: path)
                properties[item.id] = EPUB3Upgrade.contentProperties(of: document)
                var changed = EPUB3Upgrade.upgradeDocumentType(of: document)
                if EPUB3Upgrade.replaceTableSummaries(in: document) { changed = true }
                if ObsoleteHTML.update(document, title: bookTitle) { changed = true }
                if changed { replaced[path] = document.serialized() }
                titles[path] = document.elements(named: "title").first.map { document.text(of: $0) }
            } catch {
                warnings.append("\(error): left as it is, with its EPUB 2 document type")
            }
        }
        guard !package.manifest.contains(where: { $0.properties.contains("nav") }) else {
            return Upgrade(navPath: nil, properties: properties)
        }
        let navPath = folder + "nav.xhtml"
        let documents = package.spine.compactMap {
            ContainerPath.resolve($0.item.href, against: package.packageDirectory)
        }
        let nonLinear = package.spine.filter { !$0.linear }.compactMap { itemref -> (path: String, label: String)? in
            guard let path = ContainerPath.resolve(itemref.item.href, against: package.packageDirectory) else {
                return nil
            }
            let title = (titles[path] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return (path, title.isEmpty ? (path as NSString).lastPathComponent : title)
        }
        let nav = EPUB3Upgrade.navigationDocument(
            toc: package.tocSource == .ncx ? package.toc : [], title: package.metadata.title ?? "Contents",
            language: package.metadata.languages.first, navPath: navPath,
            packageDirectory: package.packageDirectory, documents: documents, unlisted: nonLinear)
        additions.append(Addition(name: navPath, bytes: nav, file: nil, compressed: true))
        return Upgrade(navPath: navPath, properties: properties)
    }

    /// Wraps the sentences of every content document the sections read; returns the documents that
    /// could be edited, by spine index, and fills each cue's spans.
    private mutating func wrapSentences(into spans: inout [[[SentenceSpan]]]) -> [Int: (
        path: String, markup: EditableMarkup
    )] {
        var byDocument: [Int: [(section: Int, cue: Int)]] = [:]
        for (position, section) in sections.enumerated() {
            for (index, cue) in section.timing.cues.enumerated() {
                byDocument[cue.source.spineIndex, default: []].append((position, index))
            }
        }
        var documents: [Int: (path: String, markup: EditableMarkup)] = [:]
        for (spineIndex, references) in byDocument.sorted(by: { $0.key < $1.key }) {
            guard let markup = editableDocument(spineIndex) else { continue }
            let texts = references.map { reference -> String? in
                let cue = sections[reference.section].timing.cues[reference.cue]
                return cue.source.blockIndex < 0 ? nil : cue.text
            }
            let found = SentenceSpans.wrap(texts, in: markup.markup)
            for (position, reference) in references.enumerated() {
                spans[reference.section][reference.cue] = found[position]
            }
            documents[spineIndex] = markup
        }
        return documents
    }

    /// The content document at `spineIndex`, parsed for editing; nil (with a warning) when it is not
    /// an XHTML document of the archive that parses as XML.
    private mutating func editableDocument(_ spineIndex: Int) -> (path: String, markup: EditableMarkup)? {
        guard package.spine.indices.contains(spineIndex) else { return nil }
        let item = package.spine[spineIndex].item
        guard item.mediaType.lowercased() == "application/xhtml+xml",
            let path = ContainerPath.resolve(item.href, against: package.packageDirectory),
            archive.entry(named: path) != nil
        else {
            warnings.append("\(item.href): not an XHTML document of the book: left without a read-along overlay")
            return nil
        }
        do {
            let bytes = try archive.read(path)
            return (path, try EditableMarkup(xml: bytes, documentName: path))
        } catch {
            warnings.append("\(error): left as it is, without a read-along overlay")
            return nil
        }
    }

    /// A folder beside the package document that no entry of the book is in.
    private func unusedFolder() -> String {
        let names = archive.entries.map(\.name)
        var candidate = package.packageDirectory + ReadAlongEPUB.folderName + "/"
        var number = 1
        while names.contains(where: { $0.hasPrefix(candidate) }) {
            number += 1
            candidate = package.packageDirectory + ReadAlongEPUB.folderName + "-\(number)/"
        }
        return candidate
    }

    private static func linkStyleSheet(_ cssPath: String, in document: EditableMarkup, documentPath: String) {
        guard let head = document.elements(named: "head").first else { return }
        document.appendElement(
            "link",
            attributes: [
                ("rel", "stylesheet"), ("type", "text/css"),
                ("href", href(cssPath, from: ContainerPath.directory(of: documentPath))),
            ], to: head, indent: "\n  ")
    }

    /// The URL of the container path `path` from the folder `directory`, percent-encoded.
    static func href(_ path: String, from directory: String) -> String {
        let relative = ContainerPath.relative(path, to: directory)
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";?#")
        return relative.addingPercentEncoding(withAllowedCharacters: allowed) ?? relative
    }

    // MARK: - The package document

    private mutating func updatePackageDocument(
        cssPath: String, audioPaths: [String], upgrade: Upgrade?, modified: Date
    ) throws(ReadAlongError) {
        let opf: EditableMarkup
        do {
            opf = try EditableMarkup(xml: try archive.read(package.packagePath), documentName: package.packagePath)
        } catch {
            throw .unreadableBook("\(error)")
        }
        guard let manifest = opf.elements(named: "manifest").first,
            let metadata = opf.elements(named: "metadata").first
        else { throw .unreadableBook("\(package.packagePath): no manifest or metadata") }
        var ids = UniqueIDs(taken: opf.ids)
        let items = opf.children(of: manifest).filter { opf.name(of: $0) == "item" }
        let itemsByID = Dictionary(
            items.compactMap { item in opf.attribute("id", of: item).map { ($0, item) } },
            uniquingKeysWith: { first, _ in first })
        let base = package.packageDirectory
        func addItem(_ path: String, _ mediaType: String, id: String) {
            opf.appendElement(
                "item", attributes: [("id", id), ("href", Self.href(path, from: base)), ("media-type", mediaType)],
                to: manifest, indent: "\n    ")
        }
        if let upgrade {
            EPUB3Upgrade.upgradePackage(opf, metadata: metadata, ids: &ids)
            for (id, properties) in upgrade.properties where !properties.isEmpty {
                guard let item = itemsByID[id] else { continue }
                let existing = (opf.attribute("properties", of: item) ?? "").split(separator: " ").map(String.init)
                let all = existing + properties.filter { !existing.contains($0) }
                opf.setAttribute("properties", all.joined(separator: " "), of: item)
            }
            if let navPath = upgrade.navPath {
                opf.appendElement(
                    "item",
                    attributes: [
                        ("id", ids.next("e2a-nav")), ("href", Self.href(navPath, from: base)),
                        ("media-type", "application/xhtml+xml"), ("properties", "nav"),
                    ], to: manifest, indent: "\n    ")
            }
        }
        addItem(cssPath, "text/css", id: ids.next("e2a-read-along-css"))
        for path in audioPaths {
            addItem(path, audioMediaType, id: ids.next("e2a-" + Self.stem(path)))
        }
        var total = 0
        for overlay in overlays {
            let smilID = ids.next("e2a-" + Self.stem(overlay.smilPath))
            addItem(overlay.smilPath, "application/smil+xml", id: smilID)
            if let item = itemsByID[overlay.itemID] { opf.setAttribute("media-overlay", smilID, of: item) }
            opf.appendElement(
                "meta", attributes: [("property", "media:duration"), ("refines", "#" + smilID)],
                text: MediaOverlay.clock(overlay.durationMS), to: metadata, indent: "\n    ")
            total += overlay.durationMS
        }
        opf.appendElement(
            "meta", attributes: [("property", "media:duration")], text: MediaOverlay.clock(total), to: metadata,
            indent: "\n    ")
        opf.appendElement(
            "meta", attributes: [("property", "media:active-class")], text: ReadAlongEPUB.activeClass, to: metadata,
            indent: "\n    ")
        let stamp = Self.timestamp(modified)
        let modifiedMetas = opf.children(of: metadata).filter {
            opf.name(of: $0) == "meta" && opf.attribute("property", of: $0) == "dcterms:modified"
                && opf.attribute("refines", of: $0) == nil
        }
        if let first = modifiedMetas.first {
            opf.setText(stamp, of: first)
        } else {
            opf.appendElement(
                "meta", attributes: [("property", "dcterms:modified")], text: stamp, to: metadata, indent: "\n    ")
        }
        replaced[package.packagePath] = opf.serialized()
    }

    private static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.split(separator: ".").first.map(String.init) ?? name
    }

    /// `CCYY-MM-DDThh:mm:ssZ`, as EPUB 3 wants `dcterms:modified`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    // MARK: - The archive

    /// Writes the book: `mimetype` first and stored, then every entry of the original in its order
    /// (changed ones replaced), then the additions; into a temporary file beside `path`, renamed.
    func writeArchive(to path: String, modified: Date) throws(ReadAlongError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temp = OutputPaths.join(
            directory.isEmpty ? "." : directory, "\(AtomicFile.tempPrefix)\(getpid())-\(name)")
        do {
            let writer = try ZipWriter(path: temp, modificationTime: Int(modified.timeIntervalSince1970))
            try writer.add("mimetype", bytes: Array("application/epub+zip".utf8), compressed: false)
            for entry in archive.entries where !entry.isDirectory && entry.name != "mimetype" {
                if let bytes = replaced[entry.name] {
                    try writer.add(entry.name, bytes: bytes)
                } else {
                    try writer.add(entry.name, bytes: try archive.read(index: entry.index), compressed: !entry.isStored)
                }
            }
            for addition in additions {
                if let file = addition.file {
                    try writer.add(addition.name, contentsOf: file, compressed: addition.compressed)
                } else {
                    try writer.add(addition.name, bytes: addition.bytes ?? [], compressed: addition.compressed)
                }
            }
            try writer.close()
            guard rename(temp, path) == 0 else {
                throw ReadAlongError.unwritable(path: path, reason: String(cString: strerror(errno)))
            }
        } catch let error as ReadAlongError {
            unlink(temp)
            throw error
        } catch {
            unlink(temp)
            throw .unwritable(path: path, reason: "\(error)")
        }
    }
}
