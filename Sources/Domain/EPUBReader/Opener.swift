import Contracts
import Markup
import ZipReader

/// The steps of opening a book, in order; each either adds warnings or throws.
struct Opener {
    let archive: ZipArchive
    let lookup: EntryLookup
    private var warnings: [EPUBWarning] = []

    static let containerPath = "META-INF/container.xml"
    static let encryptionPath = "META-INF/encryption.xml"
    static let epubMimetype = "application/epub+zip"

    init(archive: ZipArchive, lookup: EntryLookup) {
        self.archive = archive
        self.lookup = lookup
    }

    mutating func open() throws -> (EPUBPackage, [String: Int]) {
        warnings += archive.warnings.map { EPUBWarning(.minor, $0) }
        let unsafe = archive.entries.filter { entry in
            entry.name.hasPrefix("/") || entry.name.replacingBackslashes().split(separator: "/").contains("..")
        }
        if !unsafe.isEmpty {
            warnings.append(
                EPUBWarning(
                    .minor,
                    "\(Counts.of(unsafe.count, "ZIP entry name")) \(unsafe.count == 1 ? "climbs" : "climb") out of the book, "
                        + "e.g. '\(unsafe[0].name)': ignored"
                ))
        }
        try refuseEncryptedArchive()
        checkMimetype()

        // Container.
        guard let (containerIndex, containerWarning) = lookup.find(Self.containerPath) else {
            let isOffice = lookup.find("[Content_Types].xml") != nil
            throw EPUBError.missingContainer(
                reason: isOffice ? "this looks like an Office document (DOCX) renamed .epub" : "no such file")
        }
        if let containerWarning { warnings.append(containerWarning) }
        let container = try ContainerParser(bytes: try read(containerIndex), path: Self.containerPath)
        warnings += container.warnings

        // Package document.
        let packagePath = container.packagePath
        guard let (packageIndex, packageWarning) = lookup.find(packagePath) else {
            throw EPUBError.missingPackageDocument(path: packagePath)
        }
        if let packageWarning { warnings.append(packageWarning) }
        let opf = try PackageParser(bytes: try read(packageIndex), path: packagePath)
        warnings += opf.warnings
        let directory = opf.packageDirectory

        // Manifest items → ZIP entries, once, so later reads add no warnings.
        var resolved: [String: Int] = [:]
        var missing: Set<String> = []
        for item in opf.manifest {
            guard let path = ContainerPath.resolve(item.href, against: directory) else { continue }
            if let (index, warning) = lookup.find(path) {
                resolved[path] = index
                if let warning { warnings.append(warning) }
            } else {
                missing.insert(item.href)
            }
        }

        try checkEncryption(opf: opf)

        // Spine: drop items whose file is missing; refuse zip bombs now rather than mid-conversion.
        var spine: [SpineItem] = []
        for item in opf.spine {
            if missing.contains(item.href) {
                warnings.append(
                    EPUBWarning(
                        .major, path: item.href, "spine item '\(item.item.id)' is missing from the book: skipped"))
                continue
            }
            if let path = ContainerPath.resolve(item.href, against: directory), let index = resolved[path] {
                do {
                    try archive.checkReadable(index: index)
                } catch let error as ZipError {
                    throw EPUBError(error, book: archive.archiveName)
                }
            }
            var kept = item
            kept.index = spine.count
            spine.append(kept)
        }
        let otherMissing = missing.subtracting(opf.spine.map(\.href))
        if !otherMissing.isEmpty {
            warnings.append(
                EPUBWarning(
                    .minor, path: packagePath,
                    "\(Counts.of(otherMissing.count, "manifest item")) missing from the book, "
                        + "e.g. '\(otherMissing.min()!)'"))
        }
        guard !spine.isEmpty else { throw EPUBError.emptySpine(file: packagePath) }

        // Table of contents: nav, else NCX, else none.
        let lookup = self.lookup
        let exists: (EPUBLink) -> Bool = { link in
            guard let path = ContainerPath.resolve(link.path, against: directory) else { return false }
            return resolved[path] != nil || lookup.find(path) != nil
        }
        var toc: [TOCEntry] = []
        var source = TOCSource.none
        var tocDocument: String?
        var landmarks: [EPUBLandmark] = []
        if let nav = opf.navItem {
            if let (entries, found) = readTOC(
                nav, directory: directory, exists: exists, landmarks: &landmarks)
            {
                toc = entries
                source = found
                tocDocument = nav.href
            }
        } else if opf.version.hasPrefix("3") {
            warnings.append(EPUBWarning(.minor, path: packagePath, "EPUB 3 package without a navigation document"))
        }
        if source == .none, let ncx = opf.ncxItem {
            var unused: [EPUBLandmark] = []
            if let (entries, found) = readTOC(
                ncx, directory: directory, exists: exists, landmarks: &unused)
            {
                toc = entries
                source = found
                tocDocument = ncx.href
                if opf.navItem != nil {
                    warnings.append(EPUBWarning(.major, path: ncx.href, "table of contents taken from the NCX instead"))
                }
            }
        }
        if source == .none {
            warnings.append(EPUBWarning(.major, path: packagePath, "no usable table of contents"))
        }
        let navigation = Set([opf.navItem?.href, opf.ncxItem?.href].compactMap { $0 })
        spine = try addingDocumentsOnlyTheTOCLists(
            to: spine, toc: toc, manifest: opf.manifest, navigation: navigation, directory: directory,
            resolved: resolved)

        let package = EPUBPackage(
            packagePath: packagePath, packageDirectory: directory, version: opf.version, metadata: opf.metadata,
            manifest: opf.manifest, spine: spine, guide: opf.guide, landmarks: landmarks, toc: toc,
            tocSource: source, tocDocument: tocDocument, warnings: warnings)
        return (package, resolved)
    }

    // MARK: - Steps

    /// Most documents taken into the reading order from the TOC (a bound for hostile books).
    static let mostDocumentsFromTheTOC = 1_000

    /// `spine` with the content documents the TOC lists but the spine leaves out (an invalid book,
    /// edited by hand): each is read at its place in the TOC, after the spine item of the nearest
    /// entry before it (before the one of the nearest entry after, for the first), with a warning.
    /// Left out, such a chapter was lost from the audio and from `--list` with one line that `-q`
    /// hides. Only XHTML or HTML items of the manifest that are in the book, never the navigation
    /// documents.
    private mutating func addingDocumentsOnlyTheTOCLists(
        to spine: [SpineItem], toc: [TOCEntry], manifest: [ManifestItem], navigation: Set<String>, directory: String,
        resolved: [String: Int]
    ) throws -> [SpineItem] {
        let entries = toc.flatMap(\.flattened).compactMap { entry in entry.target.map { (entry.label, $0.path) } }
        var inSpine = Set(spine.map(\.href))
        guard entries.contains(where: { !inSpine.contains($0.1) }) else { return spine }
        let items = Dictionary(manifest.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        var spine = spine
        // Each path's first place in the spine, kept up to date as documents are inserted.
        var places = Dictionary(spine.enumerated().map { ($1.href, $0) }, uniquingKeysWith: { first, _ in first })
        var added = 0
        for (k, (label, path)) in entries.enumerated() where !inSpine.contains(path) {
            guard added < Self.mostDocumentsFromTheTOC, let item = items[path], !navigation.contains(path),
                ["application/xhtml+xml", "text/html"].contains(item.mediaType.lowercased()),
                let resolvedPath = ContainerPath.resolve(path, against: directory), let index = resolved[resolvedPath]
            else { continue }
            do {
                try archive.checkReadable(index: index)
            } catch let error as ZipError {
                throw EPUBError(error, book: archive.archiveName)
            }
            let position = Self.placeInSpine(places, count: spine.count, entries: entries, at: k)
            spine.insert(SpineItem(index: position, item: item), at: position)
            for (key, place) in places where place >= position { places[key] = place + 1 }
            places[path] = position
            inSpine.insert(path)
            added += 1
            warnings.append(
                EPUBWarning(
                    .major, path: path,
                    "TOC entry \"\(label)\" points at a document the spine leaves out: read at its place in the TOC"))
        }
        for i in spine.indices { spine[i].index = i }
        return spine
    }

    /// Where the document of TOC entry `k` goes in a spine of `count` items whose paths are at
    /// `places`: after the spine item of the nearest entry before it that the spine holds, else
    /// before the one of the nearest entry after it, else at the end.
    static func placeInSpine(_ places: [String: Int], count: Int, entries: [(String, String)], at k: Int) -> Int {
        for (_, path) in entries[..<k].reversed() {
            if let i = places[path] { return i + 1 }
        }
        for (_, path) in entries[(k + 1)...] {
            if let i = places[path] { return i }
        }
        return count
    }

    private func read(_ index: Int) throws -> [UInt8] {
        do {
            return try archive.read(index: index)
        } catch let error as ZipError {
            throw EPUBError(error, book: archive.archiveName)
        }
    }

    private func refuseEncryptedArchive() throws {
        if let entry = archive.entries.first(where: { $0.isEncrypted && !$0.isDirectory }) {
            let method = entry.encryptionMethod == 1 ? "ZipCrypto" : "AES or another ZIP encryption"
            throw EPUBError.encrypted(reason: "password-protected ZIP ('\(entry.name)' is encrypted with \(method))")
        }
    }

    /// The DRM scheme whose licence file the book carries (`META-INF/license.lcpl`, `rights.xml`),
    /// if any. The file alone encrypts nothing: what `encryption.xml` lists decides.
    private var knownDRMScheme: (file: String, scheme: String)? {
        for (file, scheme) in [("META-INF/license.lcpl", "Readium LCP"), ("META-INF/rights.xml", "Adobe ADEPT")]
        where lookup.find(file) != nil {
            return (file, scheme)
        }
        return nil
    }

    private mutating func checkMimetype() {
        guard let (mimetypeIndex, _) = lookup.find("mimetype"),
            let entry = archive.entries.first(where: { $0.index == mimetypeIndex })
        else {
            warnings.append(EPUBWarning(.minor, path: "mimetype", "no mimetype file"))
            return
        }
        if entry.index != archive.entries.first?.index {
            warnings.append(EPUBWarning(.minor, path: "mimetype", "mimetype is not the first file in the ZIP"))
        }
        if !entry.isStored {
            warnings.append(EPUBWarning(.minor, path: "mimetype", "mimetype is compressed"))
        }
        guard entry.uncompressedSize < 1024, let bytes = try? archive.read(index: entry.index) else {
            warnings.append(EPUBWarning(.minor, path: "mimetype", "mimetype cannot be read"))
            return
        }
        let value = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        if value != Self.epubMimetype {
            warnings.append(
                EPUBWarning(.minor, path: "mimetype", "mimetype is '\(value.prefix(60))', not \(Self.epubMimetype)"))
        }
    }

    /// Refuses books whose content is really encrypted; font obfuscation elsewhere is fine. A DRM
    /// licence file (`knownDRMScheme`) with nothing encrypted is only a warning: the book is read.
    /// With an `encryption.xml` that cannot be read, the licence file decides.
    private mutating func checkEncryption(opf: PackageParser) throws {
        let drm = knownDRMScheme
        guard let (index, _) = lookup.find(Self.encryptionPath) else {
            if let drm {
                warnings.append(
                    EPUBWarning(
                        .minor, path: drm.file, "\(drm.scheme) licence, but nothing is encrypted: read as it is"))
            }
            return
        }
        let encryption: EncryptionParser
        do {
            encryption = try EncryptionParser(bytes: try read(index), path: Self.encryptionPath)
        } catch {
            if let drm { throw EPUBError.drmProtected(scheme: drm.scheme) }
            warnings.append(EPUBWarning(.major, path: Self.encryptionPath, "unreadable: \(error)"))
            return
        }
        let directory = opf.packageDirectory
        let contentPaths = Set(opf.spine.compactMap { ContainerPath.resolve($0.href, against: directory) })
        let textPaths = Set(
            opf.manifest.filter {
                PackageParser.contentMediaTypes.contains($0.mediaType) || $0.mediaType == PackageParser.ncxMediaType
            }
            .compactMap { ContainerPath.resolve($0.href, against: directory) }
        ).union([opf.path])
        var skipped: [String] = []
        for file in encryption.files {
            let isContent = contentPaths.contains(file.path) || textPaths.contains(file.path)
            if file.isFontObfuscation {
                if contentPaths.contains(file.path) {
                    throw EPUBError.encrypted(reason: "content document '\(file.path)' is obfuscated")
                }
                let isFont = opf.manifest.contains { item in
                    ContainerPath.resolve(item.href, against: directory) == file.path
                        && (item.mediaType.contains("font") || item.mediaType.contains("opentype"))
                }
                if !isFont {
                    warnings.append(
                        EPUBWarning(.minor, path: file.path, "font obfuscation applied to a file that is not a font"))
                }
                continue
            }
            if isContent {
                let scheme =
                    file.keyReference?.contains("license.lcpl") == true
                    ? "Readium LCP"
                    : drm?.scheme
                        ?? "encrypted content documents (\(file.algorithm.isEmpty ? "unknown algorithm" : file.algorithm))"
                throw EPUBError.drmProtected(scheme: scheme)
            }
            skipped.append(file.path)
        }
        if !skipped.isEmpty {
            warnings.append(
                EPUBWarning(
                    .major, path: Self.encryptionPath,
                    "\(Counts.of(skipped.count, "encrypted resource")) cannot be read, e.g. '\(skipped.min()!)'"))
        }
    }

    /// Parses a nav or NCX item; nil (with a warning) when it is missing, broken or points at nothing.
    private mutating func readTOC(
        _ item: ManifestItem, directory: String, exists: (EPUBLink) -> Bool, landmarks: inout [EPUBLandmark]
    ) -> ([TOCEntry], TOCSource)? {
        guard let path = ContainerPath.resolve(item.href, against: directory),
            let (index, _) = lookup.find(path)
        else {
            warnings.append(EPUBWarning(.major, path: item.href, "navigation file is missing from the book"))
            return nil
        }
        let isNCX = item.mediaType == PackageParser.ncxMediaType || item.href.lowercased().hasSuffix(".ncx")
        let entries: [TOCEntry]
        do {
            let bytes = try read(index)
            if isNCX {
                let ncx = try NCXParser(bytes: bytes, path: path, packageDirectory: directory)
                warnings += ncx.warnings
                entries = ncx.toc
            } else {
                let nav = try NavigationParser(bytes: bytes, path: path, packageDirectory: directory)
                warnings += nav.warnings
                landmarks = nav.landmarks
                entries = nav.toc
            }
        } catch {
            warnings.append(EPUBWarning(.major, path: item.href, "navigation file unreadable: \(error)"))
            return nil
        }
        let all = entries.flatMap(\.flattened)
        let targets = all.compactMap(\.target)
        let broken = targets.filter { !exists($0) }
        guard !targets.isEmpty, broken.count < targets.count else {
            warnings.append(
                EPUBWarning(
                    .major, path: item.href,
                    targets.isEmpty
                        ? "table of contents is empty" : "no table-of-contents link points at a file in the book"))
            return nil
        }
        if !broken.isEmpty {
            warnings.append(
                EPUBWarning(
                    .major, path: item.href,
                    "\(Counts.of(broken.count, "table-of-contents link")) \(broken.count == 1 ? "points" : "point") "
                        + "at missing files, e.g. '\(broken[0].path)'"))
        }
        // Links to documents outside the spine: the content documents among them join the reading
        // order (`addingDocumentsOnlyTheTOCLists`), each with a warning; the section index ignores
        // the rest, saying so.
        return (entries, isNCX ? .ncx : .nav)
    }
}
