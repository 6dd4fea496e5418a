/// The text of an SRT or WebVTT file of cues (`SubtitleLayout`).
///
/// SRT (SubRip): cues numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the text, a blank line.
/// WebVTT (W3C WebVTT, 4.1): `WEBVTT`, then cues with `HH:MM:SS.mmm` times; `&`, `<` and `>` in the
/// text as character references; with `words`, a cue timestamp `<HH:MM:SS.mmm>` before each word
/// whose time lies strictly after the cue's start, before its end and after the previous timestamp
/// (section 4.1's rule for timestamps inside a cue). Line breaks are `\n`; hours grow past 99.
public enum SubtitleDocument {
    /// The file's text: `cues` in `format`, words timed when `words` and the format is WebVTT.
    public static func text(_ cues: [SubtitleCue], format: SubtitleFormat, words: Bool = false) -> String {
        var out = format == .vtt ? "WEBVTT\n" : ""
        let shown = cues.filter { cue in cue.lines.contains { !$0.isEmpty } }
        for (index, cue) in shown.enumerated() {
            out += format == .vtt ? "\n" : (index == 0 ? "" : "\n") + "\(index + 1)\n"
            out += timestamp(cue.startMS, format: format) + " --> " + timestamp(cue.endMS, format: format) + "\n"
            out += format == .vtt ? vttText(cue, words: words) : srtText(cue)
            out += "\n"
        }
        return out
    }

    /// `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT) for `milliseconds` (negative: 0).
    public static func timestamp(_ milliseconds: Int, format: SubtitleFormat) -> String {
        let value = max(0, milliseconds)
        let seconds = value / 1_000
        return padded(seconds / 3_600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":" + padded(seconds % 60, 2)
            + (format == .srt ? "," : ".") + padded(value % 1_000, 3)
    }

    /// `text` with `&`, `<` and `>` as WebVTT character references.
    public static func escapedVTT(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    /// SRT has no escapes: an arrow in the text would read as a timing line to a lenient parser.
    static func srtText(_ cue: SubtitleCue) -> String {
        cue.lines.filter { !$0.isEmpty }.map { line in
            line.map { $0.text.replacingOccurrences(of: "-->", with: "->") }.joined(separator: " ")
        }.joined(separator: "\n")
    }

    static func vttText(_ cue: SubtitleCue, words: Bool) -> String {
        var last = cue.startMS
        return cue.lines.filter { !$0.isEmpty }.map { line in
            line.map { word in
                let text = escapedVTT(word.text)
                guard words, let start = word.startMS, start > last, start < cue.endMS else { return text }
                last = start
                return "<" + timestamp(start, format: .vtt) + ">" + text
            }.joined(separator: " ")
        }.joined(separator: "\n")
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
