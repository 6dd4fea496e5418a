/// `--subtitles`: the subtitle formats written beside the audio.
public enum SubtitleFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// SubRip: numbered cues, `00:01:02,345` times, plain text.
    case srt
    /// WebVTT: `00:01:02.345` times, `&`, `<` and `>` escaped; can time each word (`SubtitleOptions.words`).
    case vtt

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }
}

/// What subtitles a conversion writes (`--subtitles`, `--subtitles-words`).
public struct SubtitleOptions: Hashable, Sendable, Codable {
    /// The format of the files.
    public var format: SubtitleFormat
    /// A WebVTT cue timestamp (`<00:01:02.345>`) before each word the engine timed; WebVTT only
    /// (`problem` says why not with SRT).
    public var words: Bool

    /// Subtitles in `format`, with word timing when `words`.
    public init(format: SubtitleFormat, words: Bool = false) {
        self.format = format
        self.words = words
    }

    /// Why these options cannot be honoured, or nil: SRT has no way to time a word inside a cue.
    public var problem: String? {
        words && format != .vtt ? "word timing needs WebVTT (vtt): SRT cannot time a word inside a cue" : nil
    }
}
