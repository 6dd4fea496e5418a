import Contracts

// FALLBACK CHUNKER: a minimal stand-in until the Contracts `Chunker` (branch wip/audio) is merged.
// It exists only so the pipeline can be built and tested now; replace its one call site in
// `SectionRenderer.chunks` with `Chunker(options:).chunks(section:blocks:)` once available.
enum FallbackChunker {
    static func chunks(section: Int, blocks: [SpokenBlock], settings: ChunkingSettings) -> [SpeechChunk] {
        var chunks: [SpeechChunk] = []
        var pendingPauseBefore = 0
        for block in blocks {
            switch block.kind {
            case .sceneBreak, .stanzaBreak:
                let pause = block.kind == .sceneBreak ? settings.sceneBreakPauseMS : settings.stanzaBreakPauseMS
                if chunks.isEmpty {
                    pendingPauseBefore = max(pendingPauseBefore, pause)
                } else {
                    chunks[chunks.count - 1].pauseAfterMS = max(chunks[chunks.count - 1].pauseAfterMS, pause)
                }
                continue
            default: break
            }
            let pieces = split(block.text, limit: max(settings.maxChunkCharacters, 40))
            for (index, piece) in pieces.enumerated() {
                let isLast = index == pieces.count - 1
                let after: Int
                switch block.kind {
                case .title: after = settings.titlePauseMS
                case .heading: after = settings.headingPauseMS
                case .poemLine: after = settings.paragraphPauseMS / 2
                default: after = settings.paragraphPauseMS
                }
                chunks.append(
                    SpeechChunk(
                        id: "s\(section)-b\(block.source.spineIndex).\(block.source.blockIndex)-c\(chunks.count)",
                        section: section, source: block.source, textRange: piece.range, text: piece.text,
                        language: block.language, pauseBeforeMS: chunks.isEmpty ? pendingPauseBefore : 0,
                        pauseAfterMS: isLast ? after : settings.sentencePauseMS))
            }
        }
        if !chunks.isEmpty {
            chunks[chunks.count - 1].pauseAfterMS = max(chunks[chunks.count - 1].pauseAfterMS, settings.sectionEndPauseMS)
        }
        return chunks
    }

    /// Splits at sentence ends (then at spaces) into pieces of at most `limit` UTF-16 units.
    private static func split(_ text: String, limit: Int) -> [(text: String, range: Range<Int>)] {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return [] }
        var pieces: [(String, Range<Int>)] = []
        var start = 0
        while start < units.count {
            var end = min(start + limit, units.count)
            if end < units.count {
                // Prefer the last sentence end, else the last space, inside the window.
                let window = start..<end
                if let cut = window.reversed().first(where: { i in
                    i > start && (units[i - 1] == 0x2E || units[i - 1] == 0x21 || units[i - 1] == 0x3F) && units[i] == 0x20
                }) ?? window.reversed().first(where: { $0 > start && units[$0] == 0x20 }) {
                    end = cut
                }
                // Never split a surrogate pair.
                if end < units.count, UTF16.isTrailSurrogate(units[end]) { end -= 1 }
            }
            let piece = String(decoding: units[start..<end], as: UTF16.self)
            let trimmed = piece.trimmingCharacters(in: " ")
            if !trimmed.isEmpty { pieces.append((trimmed, start..<end)) }
            start = end
            while start < units.count && units[start] == 0x20 { start += 1 }
        }
        return pieces
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var slice = self[...]
        while slice.first == character { slice.removeFirst() }
        while slice.last == character { slice.removeLast() }
        return String(slice)
    }
}
