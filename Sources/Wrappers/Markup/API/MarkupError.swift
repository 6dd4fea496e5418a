/// Why a document could not be parsed. Every case names the document (its path inside the book).
public enum MarkupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The XML parser refused the document (not well-formed) and no fallback was tried or possible.
    case malformed(document: String, message: String)
    /// The document, its text or its element count exceeds `MarkupLimits`.
    case limitExceeded(document: String, what: String)
    /// The document has no root element (empty, or only a declaration).
    case empty(document: String)

    /// One line naming the document and the problem.
    public var description: String {
        switch self {
        case .malformed(let document, let message): return "\(document): not well-formed (\(message))"
        case .limitExceeded(let document, let what): return "\(document): exceeds a safety limit: \(what)"
        case .empty(let document): return "\(document): no root element"
        }
    }
}
