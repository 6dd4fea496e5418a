import Contracts

/// One `<par>` of a Media Overlay: a span of the content document and the audio clip that says it.
struct OverlayPar: Hashable {
    /// The span's id in the content document.
    var textID: String
    /// The audio file, as the SMIL document links it.
    var audioHref: String
    /// Clip start and end, in milliseconds of the audio file.
    var begin: Int
    var end: Int
}

/// Media Overlays (EPUB 3.3, "Media Overlays"): the clips of each sentence and the SMIL documents.
enum MediaOverlay {
    /// The clips of a section's sentences: for each cue (in order), one clip per span it got, in
    /// milliseconds of the section's audio, as `(span id, begin, end)`.
    ///
    /// No gaps: a clip ends where the next found sentence of the section starts, so the pause after
    /// a sentence and the time of a sentence not found in the text (a made-up title, a spoken notice,
    /// alt text) go to the found sentence before it; sentences not found before the first found one
    /// go to it. A sentence in several spans has its time shared by their lengths; a span whose share
    /// rounds to nothing gets no clip.
    static func clips(
        for cues: [SpokenCue], spans: [[SentenceSpan]], sampleRate: Int
    ) -> [[(id: String, begin: Int, end: Int)]] {
        let found = cues.indices.filter { !spans[$0].isEmpty }
        var result: [[(id: String, begin: Int, end: Int)]] = cues.map { _ in [] }
        guard let last = cues.last else { return result }
        for (position, index) in found.enumerated() {
            let startFrame = position == 0 ? min(cues[0].startFrame, cues[index].startFrame) : cues[index].startFrame
            let endFrame =
                position + 1 < found.count
                ? cues[found[position + 1]].startFrame : max(last.endFrame, cues[index].endFrame)
            let begin = milliseconds(startFrame, sampleRate)
            let end = max(begin, milliseconds(endFrame, sampleRate))
            result[index] = split(begin..<end, among: spans[index])
        }
        return result
    }

    /// `range` cut into consecutive parts in proportion to the spans' lengths; empty parts dropped.
    static func split(_ range: Range<Int>, among spans: [SentenceSpan]) -> [(id: String, begin: Int, end: Int)] {
        let total = max(1, spans.reduce(0) { $0 + $1.length })
        var parts: [(id: String, begin: Int, end: Int)] = []
        var done = 0
        var begin = range.lowerBound
        for span in spans {
            done += span.length
            let end = range.lowerBound + (range.count * done + total / 2) / total
            if end > begin { parts.append((span.id, begin, end)) }
            begin = max(begin, end)
        }
        return parts
    }

    /// Frames to milliseconds, rounded.
    static func milliseconds(_ frames: Int, _ sampleRate: Int) -> Int {
        sampleRate > 0 ? (frames * 1_000 + sampleRate / 2) / sampleRate : 0
    }

    /// A SMIL clock value (`0:01:02.345`), hours as many digits as needed.
    static func clock(_ milliseconds: Int) -> String {
        let value = max(0, milliseconds)
        let seconds = value / 1_000
        return "\(seconds / 3_600):" + padded(seconds / 60 % 60, 2) + ":" + padded(seconds % 60, 2) + "."
            + padded(value % 1_000, 3)
    }

    /// The SMIL document of one content document: its `par`s in order, each a `text` (`textHref#id`)
    /// and an `audio` clip; `textHref` and the pars' audio hrefs are relative to the SMIL document.
    static func smil(textHref: String, pars: [OverlayPar]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
              <body>
                <seq id="seq1" epub:textref="\(XMLText.escaped(textHref))">

            """
        for (index, par) in pars.enumerated() {
            out += "      <par id=\"par\(index + 1)\">\n"
            out += "        <text src=\"\(XMLText.escaped(textHref))#\(XMLText.escaped(par.textID))\"/>\n"
            out += "        <audio src=\"\(XMLText.escaped(par.audioHref))\" clipBegin=\"\(clock(par.begin))\""
            out += " clipEnd=\"\(clock(par.end))\"/>\n"
            out += "      </par>\n"
        }
        out += "    </seq>\n  </body>\n</smil>\n"
        return out
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
