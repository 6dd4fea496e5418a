import Foundation
import TestSupport
import Testing

/// `--subtitles`: files a strict parser and ffprobe read, the book's text in the cues, the whole
/// book's file at the bundle's chapter offsets, sections of an earlier run subtitled from their timing.
enum Subtitling {
    /// Part One, Chapter 1 (its text has the years "1897" and "1871") and Chapter 4 of the sample.
    static let chapters = "8,9,13"

    /// `ffprobe -v error -i path`: its exit status and what it said.
    static func ffprobe(_ path: String) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-i", path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Every cue of the file at `path`, read by the strict parser, after ffprobe has read it.
    static func cues(_ path: String) throws -> [StrictSubtitleParser.Cue] {
        let probe = try ffprobe(path)
        #expect(probe.status == 0, "ffprobe: \(probe.errors)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return path.hasSuffix(".vtt")
            ? try StrictSubtitleParser.parseVTT(text) : try StrictSubtitleParser.parseSRT(text)
    }
}

extension EndToEnd {
    @Suite("Subtitles (--subtitles)")
    struct Subtitles {
        @Test(
            "--subtitles vtt --subtitles-words, then srt with --bundle m4b on the same folder",
            .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func subtitlesBesideTheSectionsAndTheBundle() async throws {
            let scratch = try Scratch("subtitles")
            let out = scratch.file("out").path
            let first = try await BinaryRunner.run(
                [
                    Conversions.lighthouse, "--chapters", Subtitling.chapters, "--subtitles", "vtt",
                    "--subtitles-words", "-o", out,
                ], timeout: 300)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(!first.stderr.contains("no timing file"), "\(first.stderr)")
            let audio = listing(out).filter { $0.hasSuffix(".wav") }
            #expect(audio.count == 3)
            var allText = ""
            for file in audio {
                let name = String(file.dropLast(4)) + ".vtt"
                #expect(listing(out).contains(name), "no \(name) beside \(file)")
                let cues = try Subtitling.cues(out + "/" + name)
                #expect(!cues.isEmpty)
                // espeak-ng times its words.
                #expect(cues.contains { !$0.wordTimesMS.isEmpty }, "\(name) has no word timing")
                let section = try #require(
                    try Conversions.manifestSections(out).values.first { $0["file"] as? String == file })
                let seconds = try #require(section["durationSeconds"] as? Double)
                #expect(Double(cues.last?.endMS ?? 0) / 1_000 <= seconds + 0.001)
                allText += cues.map(\.text).joined(separator: " ") + " "
            }
            // The book's text, not the words spoken.
            #expect(allText.contains("1897"), "\(allText.prefix(400))")
            #expect(allText.contains("1871"))
            #expect(!allText.lowercased().contains("eighteen"))
            // Not audio: the playlist lists the section files only.
            let playlist = try String(contentsOfFile: out + "/playlist.m3u", encoding: .utf8)
            #expect(!playlist.contains(".vtt"))

            // Again into the same folder: nothing is remade, the SRT files come from the timing files.
            let second = try await BinaryRunner.run(
                [
                    Conversions.lighthouse, "--chapters", Subtitling.chapters, "--subtitles", "srt", "--bundle", "m4b",
                    "-o", out,
                ], timeout: 300)
            #expect(second.status == 0, "\(second.stderr)")
            let bundle = try #require(listing(out).first { $0.hasSuffix(".m4b") })
            let bookSubtitles = String(bundle.dropLast(4)) + ".srt"
            #expect(listing(out).contains(bookSubtitles), "\(listing(out))")
            var sectionCues: [[StrictSubtitleParser.Cue]] = []
            let sections = try Conversions.manifestSections(out)
            var offsets: [Int] = []
            var frames = 0
            for number in sections.keys.sorted() {
                guard let section = sections[number], section["status"] as? String == "done",
                    let file = section["file"] as? String
                else { continue }
                let rate = try #require(section["sampleRate"] as? Int)
                offsets.append(Int((Double(frames) / Double(rate) * 1_000).rounded()))
                frames += try #require(section["frames"] as? Int)
                sectionCues.append(try Subtitling.cues(out + "/" + String(file.dropLast(4)) + ".srt"))
            }
            #expect(sectionCues.count == 3)
            let book = try Subtitling.cues(out + "/" + bookSubtitles)
            #expect(book.count == sectionCues.reduce(0) { $0 + $1.count })
            // Each section's cues at the section's start in the bundle (to the rounding of a millisecond).
            var index = 0
            for (cues, offset) in zip(sectionCues, offsets) {
                for cue in cues {
                    #expect(abs(book[index].startMS - (cue.startMS + offset)) <= 1)
                    #expect(book[index].text == cue.text)
                    index += 1
                }
            }
        }

        @Test("a folder converted without subtitles gets them: its sections are made again, the same audio")
        func aFolderWithoutTimingGetsSubtitles() async throws {
            let scratch = try Scratch("subtitles-later")
            let out = scratch.file("out").path
            let first = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "8,13", "-o", out], timeout: 300)
            #expect(first.status == 0, "\(first.stderr)")
            let audio = listing(out).filter { $0.hasSuffix(".wav") }
            #expect(audio.count == 2)
            #expect(!listing(out).contains { $0.hasSuffix(".srt") || $0.hasPrefix(".epub2audio-timing-") })
            let before = audio.map { bytes(out + "/" + $0) }
            let second = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "8,13", "--subtitles", "srt", "-o", out], timeout: 300)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(!second.stderr.contains("no timing file"), "\(second.stderr)")
            #expect(audio.map { bytes(out + "/" + $0) } == before, "made again, the audio is the same")
            for file in audio {
                let cues = try Subtitling.cues(out + "/" + String(file.dropLast(4)) + ".srt")
                #expect(!cues.isEmpty)
            }
        }
    }
}
