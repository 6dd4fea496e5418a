import EPUBReader

/// The book's own stylesheets, as the text needs them: which elements they hide (`display: none`,
/// `visibility: hidden` on a class, an id, or an element name with a class) and which they float.
///
/// Build it once per book: it reads every stylesheet the manifest lists (at most `maxStyleSheets`,
/// each parsed up to `StyleRules.maxBytes`) and parses each once. A content document applies the ones
/// it links (`<link rel="stylesheet">`, not an alternate one nor one for print) and its own `<style>`
/// elements, in order; a stylesheet that cannot be read hides nothing. The indexer builds its own;
/// a caller extracting the text of many sections passes one to every `SpokenTextExtractor.blocks` call.
public struct BookStyles: Sendable {
    /// Parsed rules by the stylesheet's path (relative to the package folder, as manifest hrefs).
    private var sheets: [String: StyleRules] = [:]

    /// Stylesheets read from one book; a book's CSS is a handful of files.
    public static let maxStyleSheets = 64

    /// No stylesheet: nothing is hidden but by the document itself.
    public init() {}

    /// Reads and parses the stylesheets of `book`'s manifest (`text/css`).
    public init(_ book: some BookContent) {
        let items = book.package.manifest.filter { $0.mediaType.lowercased() == "text/css" }
        for item in items.prefix(Self.maxStyleSheets) {
            guard let bytes = try? book.data(forHref: item.href) else { continue }
            let rules = StyleRules(bytes: bytes)
            if !rules.isEmpty { sheets[item.href] = rules }
        }
    }

    /// The rules of the stylesheet at `path` (relative to the package folder), if it hides or floats anything.
    func rules(forPath path: String) -> StyleRules? {
        sheets[path] ?? sheets.first { $0.key.lowercased() == path.lowercased() }?.value
    }
}
