/// When one spoken sentence is heard in its section's audio, and which words of the book it says.
///
/// What read-along outputs are made of: a subtitle cue shows `text` from `startFrame` to
/// `endFrame`; a read-along EPUB highlights `text` where it stands in the content document of
/// `source.spineIndex` for the same span of audio.
public struct SpokenCue: Hashable, Sendable, Codable {
    /// The block the sentence comes from. `blockIndex` -1: a text the book does not contain
    /// (a section's spoken title that no heading repeats).
    public var source: SourcePosition
    /// The sentence as the book writes it, not the normalised words spoken ("1907", not "nineteen
    /// oh seven"); citations and note references removed from the speech are removed here too.
    public var text: String
    /// First frame of the sentence in the section's audio (frames at `SectionTiming.sampleRate`).
    public var startFrame: Int
    /// The frame after its last sound, before the pause that follows.
    public var endFrame: Int
    /// When each word starts, in order; empty when the engine gives no word timing.
    public var words: [SpokenWord]

    /// A cue.
    public init(source: SourcePosition, text: String, startFrame: Int, endFrame: Int, words: [SpokenWord] = []) {
        self.source = source
        self.text = text
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.words = words
    }
}

/// When one word of a cue starts.
public struct SpokenWord: Hashable, Sendable, Codable {
    /// Where the word is in `SpokenCue.text`, as UTF-16 offsets (as `SpeechChunk.textRange`).
    public var textRange: Range<Int>
    /// First frame of the word in the section's audio.
    public var startFrame: Int

    /// A word of a cue.
    public init(textRange: Range<Int>, startFrame: Int) {
        self.textRange = textRange
        self.startFrame = startFrame
    }
}

/// The timing of every sentence of one section's audio, in order.
///
/// Made by the worker that speaks the section and kept in the output folder beside its audio
/// (`.epub2audio-timing-NNN.json`), so outputs built from it (subtitles, a read-along EPUB) can be
/// made again for sections finished in an earlier run.
public struct SectionTiming: Hashable, Sendable, Codable {
    /// The section number.
    public var section: Int
    /// Frames per second of the section's audio.
    public var sampleRate: Int
    /// Frames in the section's audio, silences included.
    public var frames: Int
    /// The sentences, in the order they are heard; they do not overlap.
    public var cues: [SpokenCue]

    /// A section's timing.
    public init(section: Int, sampleRate: Int, frames: Int, cues: [SpokenCue]) {
        self.section = section
        self.sampleRate = sampleRate
        self.frames = frames
        self.cues = cues
    }

    /// The name of the file that keeps the timing of section `section` in the output folder
    /// (`.epub2audio-timing-007.json`): JSON of this type.
    public static func fileName(section: Int) -> String {
        let digits = String(section)
        return ".epub2audio-timing-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits + ".json"
    }

    /// `frame` in seconds.
    public func seconds(_ frame: Int) -> Double {
        sampleRate > 0 ? Double(frame) / Double(sampleRate) : 0
    }
}
