/// Turns the spoken blocks of one section into speech chunks with the silence around them.
///
/// - A chunk never crosses a block: block structure decides the pauses. Inside a block, whole
///   sentences are grouped up to `targetCharacters`; a sentence longer than `maxCharacters` is split
///   at clause punctuation, else at a space (see `SentenceSegmenter`).
/// - Silence between two chunks is stored once, in the first chunk's `pauseAfterMS`, and is the
///   largest pause that applies there: the end of the block (`ChunkerOptions.pauseAfter(_:)`), the
///   `headingBeforeMS` of a following heading, any scene or stanza break in between, the stanza
///   pause after the last line of a poem, the paragraph pause after the last item of a list.
///   `pauseBeforeMS` is only set on the first chunk of a section, when the section opens with a break.
///   The last chunk of a section gets at least `sectionEndMS`.
/// - Ids are `s<section>-b<spine>.<block>-c<ordinal>`, the ordinal counting the chunks of that block
///   from 0, so they depend only on the block's position, its text and the options.
/// - With `ChunkerOptions.scriptSwitching`, a run of text in a script the block's voice cannot speak
///   is a chunk of its own (no pause around it) whose `language` names the voice that reads it.
///
/// Deterministic: the same blocks and options always give the same chunks.
public struct Chunker: Sendable {
    /// Chunk sizes and pauses.
    public var options: ChunkerOptions

    /// A chunker with `options` (the defaults suit espeak-ng at normal rates).
    public init(options: ChunkerOptions = ChunkerOptions()) {
        self.options = options
    }

    /// All chunks of a section.
    public func chunks(section: Int, blocks: [SpokenBlock]) -> [SpeechChunk] {
        Array(lazyChunks(section: section, blocks: blocks))
    }

    /// The chunks of a section, produced as they are iterated: memory holds one block's chunks at a
    /// time, whatever the length of the section.
    public func lazyChunks<Blocks: Sequence>(section: Int, blocks: Blocks) -> SpeechChunkSequence<Blocks>
    where Blocks.Element == SpokenBlock {
        SpeechChunkSequence(chunker: self, section: section, blocks: blocks)
    }

    /// The chunks of one block, without the pauses that depend on its neighbours (the last one
    /// carries the block's own pause after).
    public func chunks(section: Int, block: SpokenBlock) -> [SpeechChunk] {
        guard !Self.isPauseOnly(block.kind) else { return [] }
        let text = ScalarText(block.text)
        let groupLimit = Swift.max(1, min(options.targetCharacters, options.maxCharacters))
        var pieces: [Range<Int>] = []
        for sentence in SentenceSegmenter.sentences(in: text) {
            pieces += SentenceSegmenter.split(sentence, in: text.scalars, maxLength: options.maxCharacters)
        }
        var groups: [Range<Int>] = []
        for piece in pieces {
            if let last = groups.last, piece.upperBound - last.lowerBound <= groupLimit {
                groups[groups.count - 1] = last.lowerBound..<piece.upperBound
            } else {
                groups.append(piece)
            }
        }
        let voiced = voicedPieces(groups, of: text, language: block.language)
        let position = block.source
        return voiced.enumerated().map { ordinal, piece in
            SpeechChunk(
                id: "s\(section)-b\(position.spineIndex).\(position.blockIndex)-c\(ordinal)", section: section,
                source: position, textRange: text.utf16Range(piece.range), text: text.string(piece.range),
                language: piece.language,
                pauseAfterMS: ordinal == voiced.count - 1 ? options.pauseAfter(block.kind) : 0)
        }
    }

    /// The groups of a block cut where `options.scriptSwitching` hands a run to another voice, each
    /// with the language that reads it (the block's own where nothing switches).
    private func voicedPieces(_ groups: [Range<Int>], of text: ScalarText, language: String?)
        -> [ScriptSwitching.Run]
    {
        guard let switching = options.scriptSwitching else {
            return groups.map { ScriptSwitching.Run(range: $0, language: language) }
        }
        return groups.flatMap { switching.runs(text.scalars, in: $0, blockLanguage: language) }
    }

    /// Blocks that carry no text, only a pause.
    public static func isPauseOnly(_ kind: BlockKind) -> Bool {
        kind == .sceneBreak || kind == .stanzaBreak
    }

    /// The pause before the first chunk of a block, folded into the previous chunk's pause after.
    func pauseBefore(_ kind: BlockKind, after previous: BlockKind?) -> Int {
        var pause = kind == .heading ? options.headingBeforeMS : 0
        if let previous, previous != kind {
            // The end of a poem is the end of a stanza; the end of a list, the end of a paragraph.
            if previous == .poemLine { pause = Swift.max(pause, options.stanzaMS) }
            if previous == .listItem { pause = Swift.max(pause, options.paragraphMS) }
        }
        return pause
    }
}

/// The chunks of one section, computed lazily from its blocks (see `Chunker`).
public struct SpeechChunkSequence<Blocks: Sequence>: Sequence where Blocks.Element == SpokenBlock {
    let chunker: Chunker
    let section: Int
    let blocks: Blocks

    /// An iterator that makes the chunks one at a time, so a long section never holds them all.
    public func makeIterator() -> Iterator {
        Iterator(chunker: chunker, section: section, blocks: blocks.makeIterator())
    }

    /// Holds back one chunk until the next one is known, because the pause after a chunk depends
    /// on what follows it.
    public struct Iterator: IteratorProtocol {
        let chunker: Chunker
        let section: Int
        var blocks: Blocks.Iterator
        /// Chunks of the current block not yet returned, in reverse order.
        var queue: [SpeechChunk] = []
        var pending: SpeechChunk?
        var pendingKind: BlockKind?
        /// Breaks met before the first chunk of the section.
        var leadingPause = 0
        var finished = false

        init(chunker: Chunker, section: Int, blocks: Blocks.Iterator) {
            self.chunker = chunker
            self.section = section
            self.blocks = blocks
        }

        /// The next chunk, or nil after the last block.
        public mutating func next() -> SpeechChunk? {
            while !finished {
                if let chunk = queue.popLast() {
                    if let previous = pending {
                        pending = chunk
                        return previous
                    }
                    pending = chunk
                    continue
                }
                guard let block = blocks.next() else {
                    finished = true
                    guard var last = pending else { return nil }
                    last.pauseAfterMS = Swift.max(last.pauseAfterMS, chunker.options.sectionEndMS)
                    pending = nil
                    return last
                }
                if Chunker.isPauseOnly(block.kind) {
                    let pause = chunker.options.pauseAfter(block.kind)
                    if pending != nil {
                        pending!.pauseAfterMS = Swift.max(pending!.pauseAfterMS, pause)
                    } else {
                        leadingPause = Swift.max(leadingPause, pause)
                    }
                    continue
                }
                var chunks = chunker.chunks(section: section, block: block)
                guard !chunks.isEmpty else { continue }
                if pending != nil {
                    let before = chunker.pauseBefore(block.kind, after: pendingKind)
                    pending!.pauseAfterMS = Swift.max(pending!.pauseAfterMS, before)
                } else {
                    chunks[0].pauseBeforeMS = leadingPause
                }
                pendingKind = block.kind
                queue = chunks.reversed()
            }
            return nil
        }
    }
}
