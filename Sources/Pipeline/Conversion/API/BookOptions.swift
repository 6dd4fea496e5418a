public import BookText

/// How a book is read: which sections it is cut into, what of their text is spoken, and how that
/// text is normalised. One typed value from the CLI's flags (or a server's request) through the
/// `ConversionRequest` and the worker job to the section source; the compiler finds every place a
/// new option touches.
public struct BookOptions: Hashable, Sendable, Codable {
    /// Table-of-contents depth and the section kinds read besides the body (`--toc-depth`, `--include`).
    public var sections: SectionOptions
    /// Notes, tables, code, images, equations, and the language the text is read in (`--notes`; the
    /// language when the text contradicts `dc:language`). `text.notes` is also part of the audio
    /// settings the manifest fingerprints.
    public var text: SpokenTextOptions
    /// Whether numbers, years and abbreviations are spoken as words (`--no-normalize` turns it off).
    public var normalize: Bool
    /// Path of a user pronunciation lexicon (`--lexicon`), applied when `normalize` is on.
    public var lexiconPath: String?

    /// Options; the defaults read the body sections with notes skipped and the text normalised.
    public init(
        sections: SectionOptions = SectionOptions(), text: SpokenTextOptions = SpokenTextOptions(),
        normalize: Bool = true, lexiconPath: String? = nil
    ) {
        self.sections = sections
        self.text = text
        self.normalize = normalize
        self.lexiconPath = lexiconPath
    }
}
