import Markup

/// Parses a document the book cannot be read without: a well-formedness error is an `EPUBError`.
func parseRequiredXML(_ bytes: [UInt8], file: String) throws -> MarkupDocument {
    do {
        return try MarkupParser.parseXML(bytes, documentName: file)
    } catch let error as MarkupError {
        throw EPUBError(error)
    }
}

extension EPUBError {
    /// The one place markup errors become book errors.
    init(_ error: MarkupError) {
        switch error {
        case .malformed(let document, let message): self = .malformedXML(file: document, message: message)
        case .limitExceeded(let document, let what): self = .limitExceeded(file: document, what: what)
        case .empty(let document): self = .malformedXML(file: document, message: "no root element")
        }
    }
}

extension MarkupElement {
    /// True for `name` in any namespace, or written with a prefix the parser could not resolve (`dc:title`).
    func isLocal(_ local: String) -> Bool {
        name == local || (name.hasSuffix(":" + local) && name.split(separator: ":").last.map(String.init) == local)
    }

    /// Child elements with this local name, in any namespace.
    func childElements(_ local: String) -> [MarkupElement] { elements.filter { $0.isLocal(local) } }

    /// First child element with this local name, in any namespace.
    func childElement(_ local: String) -> MarkupElement? { elements.first { $0.isLocal(local) } }

    /// Descendants with this local name, in any namespace.
    func descendantElements(_ local: String) -> [MarkupElement] { descendants.filter { $0.isLocal(local) } }

    /// Text content with whitespace runs collapsed.
    var cleanText: String { textContent.collapsingWhitespace() }

    /// The first non-empty `alt` of an image below this element, whitespace collapsed: what a reading
    /// system shows for a label drawn as a picture (`<a><img alt="Chapter One"/></a>`). Nil when none.
    var imageAltText: String? {
        for image in descendants where image.isLocal("img") || image.isLocal("image") {
            if let alt = image.anyAttribute("alt")?.collapsingWhitespace(), !alt.isEmpty { return alt }
        }
        return nil
    }

    /// An attribute by local name: unprefixed first, then in `namespace`, then any namespace.
    func anyAttribute(_ local: String, namespace: String? = nil) -> String? {
        attribute(local) ?? namespace.flatMap { attribute(local, namespace: $0) }
            ?? attributes.first { $0.name == local }?.value
    }
}

/// Resolves an href found in the document at `documentPath` into an `EPUBLink` relative to the
/// package folder. Nil for external URLs and for paths that climb out of the container.
func makeLink(_ href: String, documentPath: String, packageDirectory: String) -> EPUBLink? {
    guard let (path, fragment) = ContainerPath.split(href: href) else { return nil }
    if path.isEmpty {
        // `#id` alone points into the document itself.
        return EPUBLink(
            path: ContainerPath.relative(documentPath, to: packageDirectory), fragment: fragment)
    }
    guard let resolved = ContainerPath.resolve(path, against: ContainerPath.directory(of: documentPath)) else {
        return nil
    }
    return EPUBLink(path: ContainerPath.relative(resolved, to: packageDirectory), fragment: fragment)
}
