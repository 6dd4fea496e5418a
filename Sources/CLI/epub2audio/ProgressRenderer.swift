import Foundation
import LiveConversion

/// Renders conversion events on standard error: a bar redrawn in place on a terminal, one plain
/// line per finished section otherwise, JSON lines on standard output with `--progress json`.
///
/// `@unchecked Sendable`: events arrive from the conversion's thread; every stored property is
/// read and written under `lock`.
final class ProgressRenderer: @unchecked Sendable {
    /// `summary` (`--progress none`): no progress, but warnings and the closing summary; `silent`
    /// (`-q`): errors only.
    enum Mode { case bar, plain, json, summary, silent }

    private let mode: Mode
    private let style: TerminalStyle
    private let lock = NSLock()
    private let start = Date()
    private var title = ""
    private var sectionsTotal = 0
    private var wordsTotal = 0
    private var sectionsFinished = 0
    /// Words done per section in progress; finished sections are folded into `wordsFinished`.
    private var wordsInProgress: [Int: Int] = [:]
    private var audioInProgress: [Int: Double] = [:]
    private var wordsFinished = 0
    private var audioFinished = 0.0
    /// Words and audio of sections that were already done (they do not count towards the speed).
    private var wordsResumed = 0
    private var audioResumed = 0.0
    private var lastDraw = Date.distantPast
    private var barShown = false
    /// Sections already done that the bar has not said yet: one line says them all, before the bar.
    private var resumedToSay = 0
    /// The last tenth of the bundle reported by a plain line (-1: none yet).
    private var bundleTenth = -1
    private(set) var failures: [String] = []
    private(set) var warnings: [String] = []

    /// The book's authors, shown after its title in the opening line.
    private let authors: [String]

    init(mode: Mode, style: TerminalStyle, authors: [String] = []) {
        self.mode = mode
        self.style = style
        self.authors = authors.map(terminalSafe).filter { !$0.isEmpty }
    }

    func handle(_ event: ConversionEvent) {
        lock.lock()
        defer { lock.unlock() }
        if mode == .json {
            StandardOutput.write(event.jsonLine + "\n")
        }
        switch event {
        case .bookStarted(let title, let sections, let words):
            self.title = terminalSafe(title)
            sectionsTotal = sections
            wordsTotal = words
            if mode == .plain || mode == .bar {
                let byline = authors.isEmpty ? "" : " · " + ListRenderer.joinedNames(authors)
                StandardError.write(
                    style.bold(self.title) + byline
                        + style.dim(" · \(plural(sections, "section")) · \(plural(words, "word"))")
                        + "\n")
            }
        case .sectionStarted:
            sayResumed()
            draw(force: false)
        case .progress(let section, let wordsDone, _, let audioSeconds):
            wordsInProgress[section] = wordsDone
            audioInProgress[section] = audioSeconds
            draw(force: false)
        case .sectionDone(let section, let file, let duration, let words, _, let skipped):
            wordsInProgress[section] = nil
            audioInProgress[section] = nil
            sectionsFinished += 1
            wordsFinished += words
            audioFinished += duration
            if skipped {
                wordsResumed += words
                audioResumed += duration
            }
            // Counter and duration in columns of fixed width, the file name last: the names line up.
            let columns = "\(counterText())  \(Self.alignedClock(duration))  \(file)"
            if mode == .plain {
                let note = skipped ? style.dim(" (already done)") : ""
                StandardError.write(columns + note + "\n")
            } else if mode == .bar, skipped == false {
                sayResumed()
                clearBar()
                StandardError.write(style.green("✓") + " " + columns + "\n")
            } else if mode == .bar {
                resumedToSay += 1
            }
            draw(force: true)
        case .warning(let message):
            warnings.append(message)
            if mode == .plain || mode == .bar || mode == .summary {
                clearBar()
                StandardError.write(style.yellow("warning:") + " " + oneLine(message) + "\n")
            }
        case .error(let section, let message):
            let text = section.map { "section \($0): \(message)" } ?? message
            failures.append(text)
            if mode != .json {
                clearBar()
                StandardError.write(style.red("error:") + " " + oneLine(text) + "\n")
            }
        case .bookDone:
            sayResumed()
            clearBar()
        case .bundleProgress(let file, let audioSeconds, let totalSeconds):
            let fraction = totalSeconds > 0 ? min(1, max(0, audioSeconds / totalSeconds)) : 0
            if mode == .plain {
                // One line per tenth reached: a long book's bundle says it is moving, a short one's stays brief.
                let tenth = Int((fraction * 10).rounded(.down))
                if tenth > bundleTenth {
                    bundleTenth = tenth
                    StandardError.write(
                        "bundling \(terminalSafe(file)): \(tenth * 10)%  \(Self.clock(audioSeconds))"
                            + " of \(Self.clock(totalSeconds))\n")
                }
            } else if mode == .bar {
                drawBundle(file: file, fraction: fraction, audioSeconds: audioSeconds, totalSeconds: totalSeconds)
            }
        case .bundleDone:
            clearBar()
            bundleTenth = -1
        }
    }

    /// The closing summary: sections, audio, time, speed, the words read and skipped, and where the files are.
    func summary(_ summary: ConversionSummary, totals: ReadingTotals, chosen: Bool, outputDirectory: String) {
        lock.lock()
        defer { lock.unlock() }
        guard mode == .plain || mode == .bar || mode == .summary else { return }
        clearBar()
        var parts = ["\(plural(summary.sectionsDone, "section")) made"]
        if summary.sectionsSkipped > 0 { parts.append("\(summary.sectionsSkipped) already done") }
        if summary.sectionsFailed > 0 { parts.append(style.red("\(summary.sectionsFailed) failed")) }
        // The speed is this run's: the audio it made, not the sections it found done.
        let all = max(0, summary.audioSeconds)
        let made = max(0, all - audioResumed)
        let speed = summary.wallSeconds > 0 ? made / summary.wallSeconds : 0
        StandardError.write(
            parts.joined(separator: ", ")
                + " · \(Self.duration(made)) of audio in \(Self.duration(summary.wallSeconds))"
                + (summary.sectionsDone > 0 ? " (\(Int(speed.rounded()))× real time)" : "")
                + (audioResumed > 0 ? ", \(Self.duration(all)) in all" : "") + "\n")
        StandardError.write(ListRenderer.readingLine(totals, chosen: chosen) + "\n")
        let absolute = URL(fileURLWithPath: outputDirectory).standardizedFileURL.path
        StandardError.write("Output: " + style.bold(absolute) + "\n")
    }

    // MARK: Drawing

    /// `[ 7/19]`: the counter keeps its width as it grows.
    private func counterText() -> String {
        let width = String(sectionsTotal).count
        let done = String(sectionsFinished)
        return "[" + String(repeating: " ", count: max(0, width - done.count)) + done + "/\(sectionsTotal)]"
    }

    private func draw(force: Bool) {
        guard mode == .bar else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let wordsDone = wordsFinished + wordsInProgress.values.reduce(0, +)
        let audio = audioFinished + audioInProgress.values.reduce(0, +)
        let fraction = wordsTotal > 0 ? min(1, Double(wordsDone) / Double(wordsTotal)) : 0
        let elapsed = now.timeIntervalSince(start)
        let made = wordsDone - wordsResumed
        let speed = elapsed > 0.5 ? audio / elapsed : 0
        var remaining: Double?
        if made > 0, elapsed > 1 { remaining = Double(wordsTotal - wordsDone) / (Double(made) / elapsed) }
        let line = Self.barLine(
            fraction: fraction, counter: counterText(), audioSeconds: audio, speed: speed > 0 ? speed : nil,
            remainingSeconds: remaining, width: style.width)
        StandardError.write("\r" + line + "\u{1B}[K")
        barShown = true
    }

    /// The progress bar's line for a terminal `width` columns wide. Every field keeps its width from
    /// the first line to the last (clocks of up to nine hours, "--" until a speed or a time left is
    /// known), so the line never shifts as it is redrawn; the bar gives up columns first on a narrow
    /// terminal, and what still does not fit is cut.
    static func barLine(
        fraction: Double, counter: String, audioSeconds: Double, speed: Double?, remainingSeconds: Double?,
        width: Int
    ) -> String {
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        let speedText = speed.map { String(format: "%5.0f×", $0) } ?? "   --×"
        let eta = remainingSeconds.map(alignedClock) ?? "  --:--"
        let fields = "\(percent)  \(counter)  \(alignedClock(audioSeconds)) audio  \(speedText)  ETA \(eta)"
        let barWidth = max(narrowestBar, min(widestBar, width - 2 - displayWidth(fields)))
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        return truncateToWidth(bar + " " + fields, width - 1)
    }

    /// The bar's columns: at most, and at least on a narrow terminal (the fields after it are cut then).
    static let widestBar = 24
    static let narrowestBar = 6

    /// The bundling stage's bar: the share of the audio ffmpeg has encoded.
    private func drawBundle(file: String, fraction: Double, audioSeconds: Double, totalSeconds: Double) {
        let now = Date()
        guard fraction >= 1 || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let barWidth = 24
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        let line =
            "\(bar) \(percent)  bundling \(Self.clock(audioSeconds))/\(Self.clock(totalSeconds))  \(terminalSafe(file))"
        StandardError.write("\r" + truncateToWidth(line, style.width - 1) + "\u{1B}[K")
        barShown = true
    }

    /// On the bar's terminal, the sections a resumed run found done, in one line (plain mode gives
    /// each its own "(already done)" line).
    private func sayResumed() {
        guard mode == .bar, resumedToSay > 0 else { return }
        clearBar()
        StandardError.write(style.dim("\(plural(resumedToSay, "section")) already done, kept as they are") + "\n")
        resumedToSay = 0
    }

    private func clearBar() {
        guard mode == .bar, barShown else { return }
        StandardError.write("\r\u{1B}[K")
        barShown = false
    }

    /// `1:02:03` or `02:03`, always the same width for the same magnitude.
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%02d:%02d", minutes, secs)
    }

    /// `clock`, right-aligned to the width of nine hours ("  12:05", "1:02:03"): a book's
    /// sections of under and over an hour keep one column.
    static func alignedClock(_ seconds: Double) -> String {
        let text = clock(seconds)
        return String(repeating: " ", count: max(0, 7 - text.count)) + text
    }

    /// "2 h 14 min", "3 min 5 s", "12 s".
    static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        if total >= 3600 { return "\(total / 3600) h \((total % 3600) / 60) min" }
        if total >= 60 { return "\(total / 60) min \(total % 60) s" }
        // Under a second, a figure that is not zero: "0.4 s", "0.03 s", never "0.0 s" beside a speed.
        if seconds > 0 && seconds < 1 { return String(format: seconds < 0.1 ? "%.2f s" : "%.1f s", seconds) }
        return "\(total) s"
    }
}
