import Contracts
import Foundation
import TestSupport
import Testing

@testable import Conversion

@Suite struct SectionTimingFileTests {
    private static let timing = SectionTiming(
        section: 7, sampleRate: 22050, frames: 44100,
        cues: [
            SpokenCue(
                source: SourcePosition(spineIndex: 2, blockIndex: -1), text: "Chapter One", startFrame: 0,
                endFrame: 11025),
            SpokenCue(
                source: SourcePosition(spineIndex: 2, blockIndex: 3), text: "In 1907, Dr. Reed left.",
                startFrame: 15000, endFrame: 40000,
                words: [
                    SpokenWord(textRange: 0..<2, startFrame: 15000), SpokenWord(textRange: 3..<7, startFrame: 17000),
                ]),
        ])

    @Test func aWrittenTimingReadsBackTheSameAndNothingElseIsLeftInTheFolder() throws {
        let folder = try TemporaryFolder()
        try SectionTimingFile.write(Self.timing, directory: folder.path)
        #expect(folder.names == [".epub2audio-timing-007.json"])
        #expect(try SectionTimingFile.read(directory: folder.path, section: 7) == Self.timing)
    }

    @Test func theSameTimingGivesTheSameBytesWithSortedKeysAndAVersion() throws {
        let bytes = SectionTimingFile.encode(Self.timing)
        #expect(bytes == SectionTimingFile.encode(Self.timing))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\"cues\":["))
        #expect(text.contains("\"version\":1"))
    }

    @Test func aMissingFileIsNilAndARemovedOneIsMissing() throws {
        let folder = try TemporaryFolder()
        #expect(try SectionTimingFile.read(directory: folder.path, section: 7) == nil)
        try SectionTimingFile.write(Self.timing, directory: folder.path)
        SectionTimingFile.remove(directory: folder.path, section: 7)
        #expect(try SectionTimingFile.read(directory: folder.path, section: 7) == nil)
        #expect(folder.names.isEmpty)
    }

    @Test func aFileWithoutAVersionIsVersionOne() throws {
        let json = #"{"section":1,"sampleRate":22050,"frames":10,"cues":[]}"#
        let timing = try SectionTimingFile.decode(Data(json.utf8), path: "t.json")
        #expect(timing == SectionTiming(section: 1, sampleRate: 22050, frames: 10, cues: []))
    }

    @Test(arguments: [
        ("", "the file is empty"),
        ("{\"section\":", "it starts with"),
        (#"{"section":1,"sampleRate":22050,"frames":10}"#, "cues"),
        (#"{"version":2,"section":1,"sampleRate":22050,"frames":10,"cues":[]}"#, "version 2 is newer"),
        (
            #"{"section":1,"sampleRate":22050,"frames":10,"cues":[{"source":{"spineIndex":0,"blockIndex":0},"#
                + #""text":"A.","startFrame":5,"endFrame":11,"words":[]}]}"#, "cue 0 spans frames 5..<11 of 10"
        ),
        (
            #"{"section":1,"sampleRate":22050,"frames":10,"cues":[{"source":{"spineIndex":0,"blockIndex":0},"#
                + #""text":"A.","startFrame":5,"endFrame":9,"words":[{"textRange":[0,3],"startFrame":5}]}]}"#,
            "a word of cue 0"
        ),
    ])
    func aBadFileIsAClearError(json: String, reason: String) throws {
        let error = try #require(throws: ConversionError.self) {
            try SectionTimingFile.decode(Data(json.utf8), path: "t.json")
        }
        guard case .invalidTimingFile(let path, let message) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(path == "t.json")
        #expect(message.contains(reason))
    }

    @Test func aFileOfAnotherSectionIsRefused() throws {
        let folder = try TemporaryFolder()
        try SectionTimingFile.write(Self.timing, directory: folder.path)
        try FileManager.default.moveItem(
            atPath: folder.path + "/.epub2audio-timing-007.json", toPath: folder.path + "/.epub2audio-timing-008.json")
        #expect(throws: ConversionError.self) { try SectionTimingFile.read(directory: folder.path, section: 8) }
    }
}
