import ArgumentParser
import LiveConversion
import Testing

@testable import EPUB2AudioCLI

/// The convert command's flags parsed in process (no binary started): each group takes its flags
/// and checks its own values; `ConvertCommand.validate` the combinations across groups.
@Suite("Convert options, parsed")
struct ConvertOptionsTests {
    /// The message ArgumentParser would print for `arguments`, or nil when they parse.
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try ConvertCommand.parse(arguments)
            return nil
        } catch {
            return ConvertCommand.message(for: error)
        }
    }

    @Test func eachGroupTakesItsFlags() throws {
        let command = try ConvertCommand.parse([
            "a.epub", "b.epub", "--chapters", "1-3,8", "--include", "preface,notes", "--toc-depth", "2",
            "--notes", "end", "--tables", "read", "--no-normalize", "--voice", "fr", "--rate", "200",
            "--format", "mp3", "--quality", "0.4", "--bitrate-mode", "variable", "--bundle", "m4b", "-o", "out",
            "--jobs", "3", "--progress", "json", "--no-cover-art",
        ])
        #expect(command.books == ["a.epub", "b.epub"])
        #expect(!command.action.list && !command.action.text)
        #expect(try command.choice.selection() == ChapterSelection(parsing: "1-3,8"))
        let sections = try command.choice.sectionOptions()
        #expect(sections.tocDepth == 2 && sections.include == [.preface, .notes] && !sections.includeAll)
        #expect(command.reading.spokenText.notes == .end && command.reading.spokenText.tables == .read)
        #expect(command.reading.noNormalize)
        #expect(command.speaking.voice == "fr" && command.speaking.rate == 200 && command.speaking.pitch == 50)
        #expect(
            command.files.encoding == AudioEncoding(format: .mp3, compressionLevel: 0.4, bitrateMode: .variable))
        #expect(command.files.bundle == .audiobook(.m4b) && command.files.output == "out" && command.files.noCoverArt)
        #expect(command.running.jobs == 3 && command.running.progress == .json && !command.running.quiet)
    }

    @Test func subtitleFlagsGiveTheLibrarysOptions() throws {
        #expect(try ConvertCommand.parse(["a.epub"]).captions.options == nil)
        let words = try ConvertCommand.parse(["a.epub", "--subtitles", "vtt", "--subtitles-words"])
        #expect(words.captions.options == SubtitleOptions(format: .vtt, words: true))
        let srt = try ConvertCommand.parse(["a.epub", "--subtitles", "srt", "--bundle", "m4b"])
        #expect(srt.captions.options == SubtitleOptions(format: .srt))
    }

    @Test func bundleEpubAsksForTheReadAlongBookInMP3UnlessAFormatIsGiven() throws {
        let readAlong = try ConvertCommand.parse(["a.epub", "--bundle", "epub"])
        #expect(readAlong.files.readAlong && readAlong.files.audiobook == nil)
        #expect(readAlong.files.encoding.format == .mp3)
        let opus = try ConvertCommand.parse(["a.epub", "--bundle", "epub", "--format", "opus"])
        #expect(opus.files.encoding.format == .opus)
        let audiobook = try ConvertCommand.parse(["a.epub", "--bundle", "mp3"])
        #expect(!audiobook.files.readAlong && audiobook.files.audiobook == .mp3)
        #expect(audiobook.files.encoding.format == .wav)
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let command = try ConvertCommand.parse(["a.epub"])
        #expect(command.speaking.voice == "auto" && command.speaking.rate == 175 && command.speaking.volume == 100)
        #expect(command.files.encoding == AudioEncoding(format: .wav))
        #expect(command.reading.spokenText == SpokenTextOptions())
        #expect(try command.choice.selection() == nil && command.running.progress == .auto)
        #expect(try command.choice.sectionOptions().includeAll == false)
    }

    @Test(
        "a group refuses its own bad values",
        arguments: [
            (["--rate", "50"], "--rate must be within"), (["--pitch", "101"], "--pitch must be within"),
            (["--jobs", "0"], "--jobs must be 1 or more"), (["--toc-depth", "0"], "--toc-depth must be 1"),
            (["--quality", "2", "--format", "mp3"], "--quality must be between 0 and 1"),
            (["--bitrate-mode", "constant"], "--bitrate-mode is for --format mp3"),
            (["--quality", "0.5"], "--quality does not apply to WAV"),
            (["--include", "prefaces"], "unknown kind \"prefaces\""), (["--chapters", "-3"], "--chapters:"),
            (["--json"], "--json goes with --list"), (["--list", "--text"], "Choose one of --list and --text"),
            (["--lexicon", "/nonexistent/lexicon.txt"], "--lexicon:"),
            (["--subtitles", "ass"], "--subtitles"),
            (["--subtitles-words"], "--subtitles-words goes with --subtitles vtt"),
            (["--subtitles", "srt", "--subtitles-words"], "word timing needs WebVTT"),
            (["--bundle", "epub", "--format", "flac"], "--bundle epub needs --format mp3 or opus"),
            (["--bundle", "epub", "--format", "wav"], "--bundle epub needs --format mp3 or opus"),
            (["--bundle", "epub", "--format", "ogg"], "--bundle epub needs --format mp3 or opus"),
            (["--bundle", "pdf"], "--bundle"),
        ])
    func badValues(_ flags: [String], _ message: String) {
        let refusal = Self.refusal(["a.epub"] + flags)
        #expect(refusal?.contains(message) == true, "\(flags): \(refusal ?? "accepted")")
    }

    @Test(
        "conversion flags are refused with --list and --text, and -o with --list",
        arguments: [
            (["--list", "--jobs", "2"], "--jobs is for conversions, not with --list"),
            (["--text", "--format", "mp3"], "--format is for conversions, not with --text"),
            (["--text", "--bundle", "m4b"], "--bundle is for conversions, not with --text"),
            (["--list", "--subtitles", "vtt"], "--subtitles is for conversions, not with --list"),
            (["--list", "-o", "out"], "-o is for conversions"),
        ])
    func combinationsAcrossGroups(_ flags: [String], _ message: String) {
        let refusal = Self.refusal(["a.epub"] + flags)
        #expect(refusal?.contains(message) == true, "\(flags): \(refusal ?? "accepted")")
        #expect(Self.refusal(["a.epub"] + flags.filter { $0 != "--list" && $0 != "--text" }) == nil)
    }

    @Test("--list takes the flags its size estimate depends on: --format, --quality, --bitrate-mode, --bundle")
    func listTakesEncodingFlags() {
        #expect(
            Self.refusal(["a.epub", "--list", "--format", "mp3", "--quality", "0.5", "--bitrate-mode", "variable"])
                == nil)
        #expect(Self.refusal(["a.epub", "--list", "--bundle", "m4b"]) == nil)
    }

    @Test func noBookIsAUsageError() {
        #expect(Self.refusal([])?.contains("Give at least one EPUB file or folder") == true)
        #expect(Self.refusal(["--list", "a.epub", "--json", "--verbose"]) == nil)
    }
}
