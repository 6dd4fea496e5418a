import Foundation

/// A strict reader of the SRT and WebVTT files epub2audio writes, for tests: it refuses anything a
/// lenient player would forgive (a cue number out of sequence, a malformed time, an empty cue,
/// overlapping cues, an unescaped `&` or `<` in WebVTT text, a misplaced word timestamp).
public enum StrictSubtitleParser {
    /// A cue read back.
    public struct Cue: Hashable, Sendable {
        /// Start and end, in milliseconds.
        public var startMS: Int
        /// See `startMS`.
        public var endMS: Int
        /// The text with line breaks, character references decoded and word timestamps removed.
        public var text: String
        /// The WebVTT word timestamps in the cue, in milliseconds, in order.
        public var wordTimesMS: [Int]
    }

    /// Why a file is refused: the line (1-based) and what is wrong.
    public struct Failure: Error, CustomStringConvertible {
        /// 1-based line number.
        public var line: Int
        /// What is wrong.
        public var reason: String
        /// `line N: reason`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// The cues of an SRT file.
    public static func parseSRT(_ text: String) throws -> [Cue] {
        try parse(text, vtt: false)
    }

    /// The cues of a WebVTT file.
    public static func parseVTT(_ text: String) throws -> [Cue] {
        try parse(text, vtt: true)
    }

    private static func parse(_ text: String, vtt: Bool) throws -> [Cue] {
        guard !text.contains("\r") else { throw Failure(line: 1, reason: "carriage return") }
        guard text.hasSuffix("\n") else { throw Failure(line: 1, reason: "no final line break") }
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()
        var index = 0
        if vtt {
            guard lines.first == "WEBVTT" else { throw Failure(line: 1, reason: "no WEBVTT header") }
            index = 1
        }
        var cues: [Cue] = []
        while index < lines.count {
            if vtt || !cues.isEmpty {
                guard lines[index].isEmpty else { throw Failure(line: index + 1, reason: "expected a blank line") }
                index += 1
            }
            guard index < lines.count else { throw Failure(line: index + 1, reason: "blank line at the end") }
            if !vtt {
                guard lines[index] == String(cues.count + 1) else {
                    throw Failure(line: index + 1, reason: "expected cue number \(cues.count + 1)")
                }
                index += 1
            } else if index + 1 < lines.count, !lines[index].contains("-->"), lines[index + 1].contains("-->") {
                index += 1  // an identifier
            }
            guard index < lines.count, let (start, end) = timing(lines[index], vtt: vtt) else {
                throw Failure(line: index + 1, reason: "bad timing line")
            }
            guard end >= start else { throw Failure(line: index + 1, reason: "ends before it starts") }
            if let previous = cues.last, start < previous.endMS {
                throw Failure(line: index + 1, reason: "overlaps the cue before")
            }
            index += 1
            var textLines: [String] = []
            var times: [Int] = []
            while index < lines.count, !lines[index].isEmpty {
                guard !lines[index].contains("-->") else { throw Failure(line: index + 1, reason: "arrow in text") }
                if vtt {
                    let (plain, lineTimes) = try vttText(lines[index], line: index + 1)
                    textLines.append(plain)
                    times += lineTimes
                } else {
                    textLines.append(lines[index])
                }
                index += 1
            }
            guard !textLines.isEmpty, textLines.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
            else { throw Failure(line: index, reason: "empty cue") }
            var last = start
            for time in times {
                guard time > last, time < end else {
                    throw Failure(line: index, reason: "word timestamp \(time) outside the cue or out of order")
                }
                last = time
            }
            cues.append(Cue(startMS: start, endMS: end, text: textLines.joined(separator: "\n"), wordTimesMS: times))
        }
        return cues
    }

    /// `HH:MM:SS,mmm --> HH:MM:SS,mmm` (SRT) or with `.` (WebVTT), nothing else on the line.
    private static func timing(_ line: String, vtt: Bool) -> (Int, Int)? {
        let parts = line.components(separatedBy: " --> ")
        guard parts.count == 2, let start = time(parts[0], vtt: vtt), let end = time(parts[1], vtt: vtt) else {
            return nil
        }
        return (start, end)
    }

    /// `HH:MM:SS,mmm` or `HH:MM:SS.mmm`, hours two digits or more, minutes and seconds below 60.
    public static func time(_ text: String, vtt: Bool) -> Int? {
        let separator: Character = vtt ? "." : ","
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].count >= 2, pieces[1].count == 2 else { return nil }
        let last = pieces[2].split(separator: separator, omittingEmptySubsequences: false)
        guard last.count == 2, last[0].count == 2, last[1].count == 3 else { return nil }
        let fields = [pieces[0], pieces[1], last[0], last[1]]
        guard fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hours = Int(fields[0]), let minutes = Int(fields[1]), let seconds = Int(fields[2]),
            let millis = Int(fields[3]), minutes < 60, seconds < 60
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000 + millis
    }

    /// A WebVTT text line: `&amp;` `&lt;` `&gt;` decoded, `<HH:MM:SS.mmm>` timestamps taken out; any
    /// other `&` or `<`, or a `>`, refused.
    private static func vttText(_ line: String, line number: Int) throws -> (String, [Int]) {
        var out = ""
        var times: [Int] = []
        var rest = Substring(line)
        while let character = rest.first {
            if character == "&" {
                let references = ["&amp;": "&", "&lt;": "<", "&gt;": ">"]
                guard let (reference, value) = references.first(where: { rest.hasPrefix($0.key) }) else {
                    throw Failure(line: number, reason: "unescaped &")
                }
                out += value
                rest = rest.dropFirst(reference.count)
            } else if character == "<" {
                guard let close = rest.firstIndex(of: ">"),
                    let time = time(String(rest[rest.index(after: rest.startIndex)..<close]), vtt: true)
                else { throw Failure(line: number, reason: "a tag other than a timestamp") }
                times.append(time)
                rest = rest[rest.index(after: close)...]
            } else if character == ">" {
                throw Failure(line: number, reason: "unescaped >")
            } else {
                out.append(character)
                rest = rest.dropFirst()
            }
        }
        return (out, times)
    }
}
