/// Why a book cannot be read. Problems the reader can work around are `EPUBWarning`s instead.
///
/// Every case names the book or the file inside it.
public enum EPUBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not a ZIP archive (empty, truncated, an image or HTML page renamed `.epub`, ...).
    case notAZip(path: String, reason: String)
    /// No `META-INF/container.xml`: not an EPUB (a renamed DOCX, a bare ZIP).
    case missingContainer(reason: String)
    /// `container.xml` names no usable package document.
    case missingRootfile(container: String, reason: String)
    /// The rootfile path leaves the container (`../`) or points at `container.xml` itself.
    case invalidRootfile(path: String, reason: String)
    /// The package document named by `container.xml` is not in the archive.
    case missingPackageDocument(path: String)
    /// A document the book cannot be read without is not well-formed XML.
    case malformedXML(file: String, message: String)
    /// The package document has no `<spine>`.
    case missingSpine(file: String)
    /// The spine lists nothing readable (no itemrefs, or none that point at content).
    case emptySpine(file: String)
    /// The book is DRM-protected (Readium LCP, Adobe ADEPT, or encrypted content documents).
    case drmProtected(scheme: String)
    /// The archive or its content documents are encrypted (a password-protected ZIP, ...).
    case encrypted(reason: String)
    /// A size, ratio or count limit was hit: a zip bomb or a hostile document.
    case limitExceeded(file: String, what: String)
    /// A file inside the book could not be read (corrupt data, unsupported compression).
    case unreadableFile(file: String, reason: String)
    /// No file in the book matches this href (relative to the package folder).
    case resourceNotFound(href: String)

    /// One line naming the file inside the book and what went wrong.
    public var description: String {
        switch self {
        case .notAZip(_, let reason):
            // The book's name is the caller's to give: every line already starts with it.
            return "not an EPUB: not a readable ZIP archive (\(reason))"
        case .missingContainer(let reason):
            return "META-INF/container.xml: missing, so this is not an EPUB (\(reason))"
        case .missingRootfile(let container, let reason):
            return "\(container): names no package document (\(reason))"
        case .invalidRootfile(let path, let reason):
            return "META-INF/container.xml: rootfile '\(path)' is invalid (\(reason))"
        case .missingPackageDocument(let path):
            return "\(path): package document named in META-INF/container.xml is missing from the book"
        case .malformedXML(let file, let message):
            return "\(file): not well-formed XML (\(message))"
        case .missingSpine(let file):
            return "\(file): package document has no <spine>, so the book has no readable content"
        case .emptySpine(let file):
            return "\(file): the spine lists no readable content documents"
        case .drmProtected(let scheme):
            return "the book is DRM-protected (\(scheme)) and cannot be read"
        case .encrypted(let reason):
            return "the book is encrypted and cannot be read: \(reason)"
        case .limitExceeded(let file, let what):
            return "\(file): exceeds a safety limit: \(what)"
        case .unreadableFile(let file, let reason):
            return "\(file): cannot be read (\(reason))"
        case .resourceNotFound(let href):
            return "\(href): no such file in the book"
        }
    }
}
