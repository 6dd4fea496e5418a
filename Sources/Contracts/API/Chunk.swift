/// A piece of text handed to the speech engine in one call, with the silence around it.
///
/// Chunks end at sentence boundaries and carry where they come from, so a run can resume at a
/// chunk and subtitles or read-along can be produced later.
public struct SpeechChunk: Hashable, Sendable, Codable {
    /// Stable id: `s<section>-b<spine>.<block>-c<ordinal>`; the same for the same book and settings.
    public var id: String
    /// The section number (as `--list` shows it).
    public var section: Int
    /// The first block the chunk's text comes from.
    public var source: SourcePosition
    /// UTF-16 offsets of the chunk's text inside that block's text (`lowerBound..<upperBound`).
    public var textRange: Range<Int>
    /// Plain text to speak (never markup).
    public var text: String
    /// Language of this chunk when it differs from the section's voice.
    public var language: String?
    /// Silence before the chunk, in milliseconds.
    public var pauseBeforeMS: Int
    /// Silence after the chunk, in milliseconds.
    public var pauseAfterMS: Int

    /// A chunk of `text` with its place in the book and the silences around it.
    public init(
        id: String, section: Int, source: SourcePosition, textRange: Range<Int>, text: String, language: String? = nil,
        pauseBeforeMS: Int = 0, pauseAfterMS: Int = 0
    ) {
        self.id = id
        self.section = section
        self.source = source
        self.textRange = textRange
        self.text = text
        self.language = language
        self.pauseBeforeMS = pauseBeforeMS
        self.pauseAfterMS = pauseAfterMS
    }
}
