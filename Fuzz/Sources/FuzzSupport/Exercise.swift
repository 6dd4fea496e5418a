import EPUBReader
import Markup

/// What every fuzz target does with a parsed result: touch all of it, so that lazily computed values, hashing
/// of the recursive TOC and tree walks run too. Thrown errors are the expected outcome for bad input; a crash,
/// hang or unbounded allocation anywhere in here is a bug.
public enum Exercise {
    /// Opens a book from bytes and reads everything a conversion would: every spine document, every TOC,
    /// landmark and guide target.
    public static func book(_ bytes: [UInt8]) {
        guard let book = try? EPUBBook(bytes: bytes, name: "fuzz.epub") else { return }
        let package = book.package
        var sink = Hasher()
        sink.combine(package)
        for warning in package.warnings { sink.combine(warning.description) }
        _ = package.metadata.authors
        for item in package.spine {
            if let document = try? book.document(forHref: item.href) { Exercise.document(document, into: &sink) }
        }
        var links: [EPUBLink] = (package.landmarks + package.guide).map(\.target)
        var stack = package.toc
        while let entry = stack.popLast() {
            if let target = entry.target { links.append(target) }
            stack.append(contentsOf: entry.children)
        }
        for link in links.prefix(64) {
            sink.combine(link.description)
            if book.contains(href: link.path) { _ = try? book.data(forHref: link.path) }
        }
        if let cover = package.metadata.coverImage { _ = try? book.data(forHref: cover) }
        for warning in book.lookupWarnings { sink.combine(warning.description) }
        blackHole(sink.finalize())
    }

    /// Walks a parsed document: every element, attribute and text run.
    public static func document(_ document: MarkupDocument, into sink: inout Hasher) {
        sink.combine(document.recovered)
        sink.combine(document.warnings)
        sink.combine(document.root.textContent)
        for element in [document.root] + document.root.descendants {
            sink.combine(element.name)
            sink.combine(element.namespace)
            sink.combine(element.attribute("type", namespace: Namespace.epub))
            for attribute in element.attributes { sink.combine(attribute) }
        }
    }
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never)
public func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
