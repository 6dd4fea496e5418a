import Testing

@testable import EPUB2AudioCLI

/// The progress bar's line (`ProgressRenderer.barLine`): one width however the figures grow.
@Suite("Progress bar line")
struct ProgressLineTests {
    func line(audio: Double, speed: Double?, remaining: Double?, fraction: Double = 0.5, width: Int = 80) -> String {
        ProgressRenderer.barLine(
            fraction: fraction, counter: "[ 7/19]", audioSeconds: audio, speed: speed, remainingSeconds: remaining,
            width: width)
    }

    @Test("the same width before and after an hour of audio, and before the speed and time left are known")
    func widthStaysTheSame() {
        let lines = [
            line(audio: 0, speed: nil, remaining: nil, fraction: 0),
            line(audio: 3_599, speed: 812, remaining: 65),
            line(audio: 3_601, speed: 812, remaining: 3_700),
            line(audio: 4 * 3_600 + 7, speed: 1_250, remaining: 0, fraction: 1),
        ]
        #expect(Set(lines.map(displayWidth)).count == 1, "\(lines.joined(separator: "\n"))")
        #expect(Set(lines.map { $0.range(of: " audio")?.lowerBound.utf16Offset(in: $0) }).count == 1)
        #expect(lines[0].contains("--×") && lines[0].contains("ETA   --:--"))
        #expect(lines[2].contains("1:00:01 audio") && lines[2].contains("ETA 1:01:40"))
    }

    @Test("a narrow terminal: the bar gives up its columns before any figure does")
    func narrowTerminal() {
        let wide = line(audio: 600, speed: 300, remaining: 60)
        let fields = wide.drop { $0 == "█" || $0 == "░" }
        let narrow = line(audio: 600, speed: 300, remaining: 60, width: displayWidth(String(fields)) + 10)
        #expect(narrow.hasSuffix(fields) && displayWidth(narrow) < displayWidth(wide), "\(narrow)")
        #expect(displayWidth(line(audio: 600, speed: 300, remaining: 60, width: 40)) <= 39)
    }
}

@Suite("Counts in messages")
struct CountTests {
    @Test("thousands grouped, singular for one")
    func plurals() {
        #expect(plural(1, "section") == "1 section")
        #expect(plural(2_013, "section") == "2,013 sections")
        #expect(plural(0, "word") == "0 words")
    }
}

@Suite("Durations in the summary")
struct DurationTests {
    @Test("short runs keep a figure: never 0.0 s beside a speed")
    func shortDurations() {
        #expect(ProgressRenderer.duration(0.031) == "0.03 s")
        #expect(ProgressRenderer.duration(0.42) == "0.4 s")
        #expect(ProgressRenderer.duration(75) == "1 min 15 s")
    }
}
