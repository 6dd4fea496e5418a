import Contracts

/// Makes a section's timing (`SectionTiming`) from its blocks, its chunks and when each chunk was
/// heard: a pure function, run by the coordinator when the section's audio is complete.
///
/// Cues are the sentences of each block as `SentenceSegmenter` finds them in the spoken text (the
/// chunker groups them into chunks and cuts the long ones, so a sentence lies in one chunk or in
/// several that follow one another). A sentence starts at the engine's mark for its first word or
/// sentence start (never before the chunk's first sound when it opens the chunk), else at its
/// place in the chunk in proportion to its length; it ends where the next sentence of its chunk
/// starts, or where the sound of its last chunk ends. Its text is the block's text as the book
/// writes it (`TextAlignment`), cut at the sentence starts, so the cue texts of a block in order
/// are its text; its words are the engine's word marks, shown on the book's words.
enum SectionTimingBuilder {
    /// The timing of section `section`, whose file holds `frames` frames at `sampleRate`.
    ///
    /// `chunks` and `timings` go together, in order (the extra ones of the longer list are ignored);
    /// a chunk whose block is not among `blocks` gives no cue.
    static func timing(
        section: Int, sampleRate: Int, frames: Int, blocks: [SpokenBlock], chunks: [SpeechChunk],
        timings: [SpokenChunkTiming]
    ) -> SectionTiming {
        var blockIndex: [SourcePosition: Int] = [:]
        for (index, block) in blocks.enumerated() where blockIndex[block.source] == nil {
            blockIndex[block.source] = index
        }
        // The chunks of each block, in order; blocks in the order they are first heard.
        var order: [Int] = []
        var heard: [Int: [HeardChunk]] = [:]
        for (chunk, timing) in zip(chunks, timings) {
            guard let index = blockIndex[chunk.source] else { continue }
            if heard[index] == nil { order.append(index) }
            heard[index, default: []].append(HeardChunk(chunk: chunk, timing: timing))
        }
        var cues: [SpokenCue] = []
        for index in order {
            cues += blockCues(blocks[index], heard: heard[index] ?? [])
        }
        return SectionTiming(
            section: section, sampleRate: sampleRate, frames: frames, cues: ordered(cues, frames: frames))
    }

    /// A chunk and when it was heard.
    struct HeardChunk {
        var chunk: SpeechChunk
        var timing: SpokenChunkTiming

        /// Frame of a place (UTF-16 offset in the block's spoken text) inside the chunk: the engine's
        /// first mark in `range` (the sentence or word that starts there), else its share of the chunk.
        func frame(of range: Range<Int>) -> Int {
            let lower = range.lowerBound - chunk.textRange.lowerBound
            let upper = min(range.upperBound, chunk.textRange.upperBound) - chunk.textRange.lowerBound
            let opensChunk = lower <= 0
            if let mark = timing.marks.filter({ $0.textRange.lowerBound >= lower && $0.textRange.lowerBound < upper })
                .min(by: { ($0.textRange.lowerBound, $0.frame) < ($1.textRange.lowerBound, $1.frame) })
            {
                let frame = timing.startFrame + mark.frame
                return opensChunk ? max(frame, timing.soundStartFrame) : frame
            }
            if opensChunk { return timing.soundStartFrame }
            let length = max(1, chunk.textRange.count)
            let span = max(0, timing.endFrame - timing.soundStartFrame)
            return timing.soundStartFrame + span * min(lower, length) / length
        }
    }

    /// The cues of one block's sentences.
    static func blockCues(_ block: SpokenBlock, heard: [HeardChunk]) -> [SpokenCue] {
        let sentences = SentenceSegmenter.sentenceRanges(in: block.text)
        guard !sentences.isEmpty, !heard.isEmpty else { return [] }
        let alignment = TextAlignment(spoken: block.text, written: block.writtenText)
        // Where each sentence's text starts in the book's text; the first takes all before it.
        var bounds = sentences.enumerated().map { $0 == 0 ? 0 : alignment.writtenStart(ofSpokenOffset: $1.lowerBound) }
        bounds.append(alignment.writtenLength)
        for index in bounds.indices.dropFirst() { bounds[index] = max(bounds[index], bounds[index - 1]) }
        let starts = sentences.map { sentence in
            chunk(at: sentence.lowerBound, in: heard).map { heard[$0].frame(of: sentence) }
        }
        var cues: [SpokenCue] = []
        for (index, sentence) in sentences.enumerated() {
            guard let first = chunk(at: sentence.lowerBound, in: heard), let start = starts[index] else { continue }
            let last = chunk(at: max(sentence.lowerBound, sentence.upperBound - 1), in: heard) ?? first
            var end = heard[last].timing.endFrame
            if index + 1 < sentences.count, let next = starts[index + 1],
                chunk(at: sentences[index + 1].lowerBound, in: heard) == last
            {
                end = next
            }
            let (text, textStart) = trimmed(alignment, bounds[index]..<bounds[index + 1])
            let shown = text.isEmpty ? String(decoding: Array(block.text.utf16)[sentence], as: UTF16.self) : text
            let words =
                text.isEmpty
                ? []
                : wordTimings(
                    of: sentence, in: heard[first...last], alignment: alignment, textStart: textStart,
                    textLength: text.utf16.count)
            cues.append(
                SpokenCue(
                    source: block.source, text: shown, startFrame: start, endFrame: max(start, end), words: words))
        }
        return cues
    }

    /// The chunk whose text holds UTF-16 offset `offset` of the block's spoken text (else the first
    /// that starts after it).
    private static func chunk(at offset: Int, in heard: [HeardChunk]) -> Int? {
        heard.firstIndex { $0.chunk.textRange.contains(offset) }
            ?? heard.firstIndex { $0.chunk.textRange.lowerBound >= offset }
    }

    /// The written text in `range` without white space around it, and where it starts.
    private static func trimmed(_ alignment: TextAlignment, _ range: Range<Int>) -> (String, Int) {
        var lower = range.lowerBound
        var upper = range.upperBound
        let text = alignment.writtenText(range)
        let units = Array(text.utf16)
        while lower < upper, TextAlignment.isSpace(units[lower - range.lowerBound]) { lower += 1 }
        while upper > lower, TextAlignment.isSpace(units[upper - 1 - range.lowerBound]) { upper -= 1 }
        return (alignment.writtenText(lower..<upper), lower)
    }

    /// The words of `sentence` the engine marked, as ranges of the cue's text (which starts at
    /// `textStart` of the written text), in order; a written word several spoken words stand for
    /// ("1907") starts with the first of them.
    private static func wordTimings(
        of sentence: Range<Int>, in heard: ArraySlice<HeardChunk>, alignment: TextAlignment, textStart: Int,
        textLength: Int
    ) -> [SpokenWord] {
        var words: [SpokenWord] = []
        for piece in heard {
            for mark in piece.timing.marks where mark.kind == .word {
                let offset = piece.chunk.textRange.lowerBound + mark.textRange.lowerBound
                guard sentence.contains(offset), let range = alignment.writtenRange(ofSpokenWordAt: offset) else {
                    continue
                }
                let local = (range.lowerBound - textStart)..<(range.upperBound - textStart)
                guard local.lowerBound >= 0, local.upperBound <= textLength else { continue }
                let frame = piece.timing.startFrame + mark.frame
                if let last = words.last, local.lowerBound < last.textRange.upperBound || frame < last.startFrame {
                    continue
                }
                words.append(SpokenWord(textRange: local, startFrame: frame))
            }
        }
        return words
    }

    /// The cues in the order heard, none starting before the one before it ends, none past `frames`.
    private static func ordered(_ cues: [SpokenCue], frames: Int) -> [SpokenCue] {
        var result: [SpokenCue] = []
        result.reserveCapacity(cues.count)
        var previousEnd = 0
        for var cue in cues {
            cue.startFrame = min(max(cue.startFrame, previousEnd), frames)
            cue.endFrame = min(max(cue.endFrame, cue.startFrame), frames)
            cue.words = cue.words.compactMap { word in
                guard word.startFrame <= cue.endFrame else { return nil }
                return SpokenWord(textRange: word.textRange, startFrame: max(word.startFrame, cue.startFrame))
            }
            previousEnd = cue.endFrame
            result.append(cue)
        }
        return result
    }
}
