import Markup
import ZipReader

/// An open EPUB: the package model plus access to the files inside, read straight from the ZIP.
///
/// Opening reads the container, the package document, the encryption and rights files, the
/// navigation document and/or NCX, and checks that the spine's files exist. Every problem it could
/// work around is in `package.warnings`; it throws `EPUBError` only when the book cannot be read
/// (not a ZIP, no container or package document, nothing in the spine, DRM, encryption).
///
/// Not `Sendable`: it owns a `ZipArchive` (one libzip handle). Use one `EPUBBook` per task, or open
/// the file again; the `package` value is `Sendable` and can be shared freely.
public final class EPUBBook {
    /// Everything learnt when opening, as values.
    public let package: EPUBPackage
    /// The path the book was opened from, or the name given to `init(bytes:name:)`.
    public let source: String
    /// Warnings from `data(forHref:)` lookups of files outside the manifest (wrong case, backslashes).
    public private(set) var lookupWarnings: [EPUBWarning] = []

    private let archive: ZipArchive
    private let lookup: EntryLookup
    /// Container path → entry index for every manifest item found when opening.
    private let resolvedEntries: [String: Int]

    /// Opens the book at `path`.
    /// - Throws: `EPUBError`.
    public static func open(path: String, limits: ZipLimits = .default) throws -> EPUBBook {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(path: path, limits: limits)
        } catch let error as ZipError {
            throw EPUBError(error, book: path)
        }
        return try EPUBBook(archive: archive, source: path)
    }

    /// Opens a book held in memory (tests, fuzzing). The bytes are copied.
    /// - Throws: `EPUBError`.
    public convenience init(bytes: [UInt8], name: String = "<memory>", limits: ZipLimits = .default) throws {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes: bytes, name: name, limits: limits)
        } catch let error as ZipError {
            throw EPUBError(error, book: name)
        }
        try self.init(archive: archive, source: name)
    }

    private init(archive: ZipArchive, source: String) throws {
        self.archive = archive
        self.source = source
        let lookup = EntryLookup(archive.entries)
        self.lookup = lookup
        var opener = Opener(archive: archive, lookup: lookup)
        let (package, resolved) = try opener.open()
        self.package = package
        self.resolvedEntries = resolved
    }

    /// The bytes of the file at `href`: a percent-decoded path relative to the package folder, as in
    /// `ManifestItem.href`, `SpineItem.href` and `EPUBLink.path` (no fragment).
    ///
    /// Lookup is tolerant: exact name, then with backslashes as separators, then ignoring case; the
    /// fallbacks add a warning (to `package.warnings` for manifest items at open, else to `lookupWarnings`).
    /// - Throws: `EPUBError.resourceNotFound`, `.encrypted`, `.limitExceeded`, `.unreadableFile`.
    public func data(forHref href: String) throws -> [UInt8] {
        guard let path = ContainerPath.resolve(href, against: package.packageDirectory) else {
            throw EPUBError.resourceNotFound(href: href)
        }
        let index: Int
        if let known = resolvedEntries[path] {
            index = known
        } else if let (found, warning) = lookup.find(path) {
            index = found
            if let warning { lookupWarnings.append(warning) }
        } else {
            throw EPUBError.resourceNotFound(href: href)
        }
        do {
            return try archive.read(index: index)
        } catch let error as ZipError {
            throw EPUBError(error, book: source)
        }
    }

    /// True when a file exists at `href` (relative to the package folder), found tolerantly.
    public func contains(href: String) -> Bool {
        guard let path = ContainerPath.resolve(href, against: package.packageDirectory) else { return false }
        return resolvedEntries[path] != nil || lookup.find(path) != nil
    }

    /// Parses the content document at `href` as XHTML (falling back to the HTML parser for broken
    /// markup: the document's `recovered` flag and `warnings` say so).
    /// - Throws: `EPUBError` (missing file, limits).
    public func document(forHref href: String) throws -> MarkupDocument {
        let bytes = try data(forHref: href)
        let name = ContainerPath.resolve(href, against: package.packageDirectory) ?? href
        return try Self.parseDocument(bytes, name: name)
    }

    /// Parses a content document's bytes (`name` is its path in the container, for messages),
    /// keeping `attributes`; thread-safe: each call has a parser of its own.
    /// - Throws: `EPUBError` (limits, unreadable markup).
    public static func parseDocument(
        _ bytes: [UInt8], name: String, attributes: AttributeSelection = .all
    ) throws -> MarkupDocument {
        do {
            return try MarkupParser.parseXHTML(bytes, documentName: name, attributes: attributes)
        } catch let error as MarkupError {
            throw EPUBError(error)
        }
    }
}

extension EPUBError {
    /// The one place ZIP errors become book errors.
    init(_ error: ZipError, book: String) {
        switch error {
        case .cannotOpen(_, let reason): self = .notAZip(path: book, reason: reason)
        case .entryNotFound(_, let name): self = .resourceNotFound(href: name)
        case .indexOutOfRange(_, let index): self = .resourceNotFound(href: "#\(index)")
        case .encryptedEntry(_, let name, let method):
            self = .encrypted(reason: "password-protected ZIP: '\(name)' is encrypted with \(method)")
        case .unsupportedCompression(_, let name, let method):
            self = .unreadableFile(file: name, reason: "compression method \(method) is not supported")
        case .limitExceeded(_, let name, let what): self = .limitExceeded(file: name, what: what)
        case .readFailed(_, let name, let reason), .writeFailed(_, let name, let reason):
            self = .unreadableFile(file: name, reason: reason)
        }
    }
}

/// Finds ZIP entries by container path: exactly, then with `\` read as `/`, then ignoring case.
struct EntryLookup {
    private var exact: [String: Int] = [:]
    private var slashed: [String: (Int, String)] = [:]
    private var folded: [String: (Int, String)] = [:]

    init(_ entries: [ZipEntry]) {
        for entry in entries where !entry.isDirectory {
            if exact[entry.name] == nil { exact[entry.name] = entry.index }
            let normalized = entry.name.replacingBackslashes()
            if slashed[normalized] == nil { slashed[normalized] = (entry.index, entry.name) }
            let lower = normalized.lowercased()
            if folded[lower] == nil { folded[lower] = (entry.index, entry.name) }
        }
    }

    /// The entry index and, when a fallback was needed, a warning saying which.
    func find(_ path: String) -> (Int, EPUBWarning?)? {
        if let index = exact[path] { return (index, nil) }
        if let (index, name) = slashed[path] {
            return (index, EPUBWarning(.minor, path: path, "found as ZIP entry '\(name)' (backslash separators)"))
        }
        if let (index, name) = folded[path.lowercased()] {
            return (index, EPUBWarning(.minor, path: path, "found as ZIP entry '\(name)' (letter case differs)"))
        }
        return nil
    }
}

extension String {
    func replacingBackslashes() -> String {
        contains("\\") ? String(map { $0 == "\\" ? "/" : $0 }) : self
    }
}
