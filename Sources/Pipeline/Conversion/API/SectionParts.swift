import Contracts

/// One part of a long section: a run of its chunks, made by a fresh worker of its own.
///
/// A section whose spoken text holds more than `SectionParts.defaultWords` words is split at chunk
/// boundaries into parts of about that many words, so that one long section keeps every job slot
/// busy. Where parts start depends only on the section's chunks (its text and the chunking
/// settings) and the part size, never on `--jobs`: every part starts from the same freshly
/// initialised engine state whichever worker makes it, so the joined file is byte-identical for any
/// number of jobs and after any interruption.
package struct SectionPart: Hashable, Sendable, Codable {
    /// The part's position in its section, from 0.
    package var index: Int
    /// The section's chunks it speaks, by position in the section's chunk list (end excluded).
    package var firstChunk: Int
    /// One past its last chunk.
    package var endChunk: Int
    /// Words it speaks.
    package var words: Int

    /// A part of chunks `firstChunk..<endChunk`.
    package init(index: Int, firstChunk: Int, endChunk: Int, words: Int) {
        self.index = index
        self.firstChunk = firstChunk
        self.endChunk = endChunk
        self.words = words
    }

    /// The chunks it speaks, as a range.
    package var chunks: Range<Int> { firstChunk..<endChunk }
}

/// Where a long section is split into parts: a pure function of its chunks.
package enum SectionParts {
    /// Words per part, and the length above which a section is split: 2,000 words is about 11
    /// minutes of speech and 0.5 s of one core for espeak-ng, long enough that starting a worker
    /// and joining cost nothing by comparison, short enough that a one-section book of 50,000 words
    /// gives 25 parts to share between cores. Changing it changes where parts start, so it is a
    /// constant: a request may override it (`ConversionRequest.partWords`) only for tests.
    package static let defaultWords = ConversionRequest.defaultPartWords

    /// The parts of a section whose chunks speak `chunkWords[i]` words each; one part (the whole
    /// section) when it has at most `partWords` words.
    ///
    /// Chunks are taken in order until a part holds at least `partWords` words; a last part shorter
    /// than half of `partWords` is folded into the one before, so no part is tiny.
    package static func split(chunkWords: [Int], partWords: Int = defaultWords) -> [SectionPart] {
        let total = chunkWords.reduce(0, +)
        let size = max(1, partWords)
        guard total > size, chunkWords.count > 1 else {
            return [SectionPart(index: 0, firstChunk: 0, endChunk: chunkWords.count, words: total)]
        }
        var parts: [SectionPart] = []
        var first = 0
        var words = 0
        for (index, count) in chunkWords.enumerated() {
            words += count
            if words >= size {
                parts.append(SectionPart(index: parts.count, firstChunk: first, endChunk: index + 1, words: words))
                first = index + 1
                words = 0
            }
        }
        if first < chunkWords.count {
            if words * 2 < size, var last = parts.popLast() {
                last.endChunk = chunkWords.count
                last.words += words
                parts.append(last)
            } else {
                parts.append(
                    SectionPart(index: parts.count, firstChunk: first, endChunk: chunkWords.count, words: words))
            }
        }
        return parts
    }

    /// The parts of a section's chunks.
    static func split(_ chunks: [SpeechChunk], partWords: Int) -> [SectionPart] {
        split(chunkWords: chunks.map { WorkerSession.wordCount($0.text) }, partWords: partWords)
    }

    /// The recorded parts that can be used again: made from the same text (`textSHA256`) with the
    /// same settings, and covering exactly the chunks of the part at their index in `parts`.
    static func reusable(
        _ recorded: [PartRecord], parts: [SectionPart], textSHA256: String, settingsSHA256: String
    ) -> [PartRecord] {
        recorded.filter { record in
            record.textSHA256 == textSHA256 && record.settingsSHA256 == settingsSHA256
                && parts.indices.contains(record.index)
                && parts[record.index].firstChunk == record.firstChunk
                && parts[record.index].endChunk == record.endChunk
        }
    }

    /// Prefix of the PCM files of finished parts (`.epub2audio-part-007-03.pcm`), kept across runs
    /// while the manifest records them; any other file with this prefix is stale.
    static let filePrefix = ".epub2audio-part-"

    /// The file name of a finished part.
    static func fileName(section: Int, index: Int) -> String {
        "\(filePrefix)\(pad(section, 3))-\(pad(index, 3)).pcm"
    }

    /// The file beside a finished part that keeps when its chunks are heard in it (JSON of
    /// `[SpokenChunkTiming]`), so that a later run can make the section's timing from parts it did not make.
    static func timingFileName(ofPart file: String) -> String {
        file + ".timing"
    }

    /// The file name of a part being written: a temp file, removed as stale at the next start.
    static func tempFileName(section: Int, index: Int) -> String {
        AtomicFile.tempPrefix + "part-\(pad(section, 3))-\(pad(index, 3)).pcm"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
