import AudioFiles
import Contracts
import Foundation
import TestSupport
import Testing

@testable import Conversion
@testable import TagEditing

/// Track numbers: a file's place among the folder's files (`TrackNumbering`), and the files already
/// there numbered anew when a run adds sections (`TrackNumberTag`), with the bytes a fresh file has.
@Suite struct TrackNumberTests {
    @Test func tracksAreThePlaceAmongTheFolderFilesNotTheListNumbers() {
        let numbering = TrackNumbering(sections: [14, 5, 6, 7, 8, 9, 10, 11, 12, 13, 5])
        #expect(numbering.track(5) == "1/10" && numbering.track(14) == "10/10")
        #expect(numbering.track(4) == nil)

        // The folder's sections: those done already (kept from an earlier run) and those selected now.
        var done = SectionRecord(number: 2, title: "Two", status: .done, file: "002 - Two.flac")
        done.bytes = 10
        let records = [
            SectionRecord(number: 1, title: "One", status: .skipped), done,
            SectionRecord(number: 3, title: "Three", status: .failed), SectionRecord(number: 4, title: "Four"),
        ]
        let run = TrackNumbering(records: records, selected: [3, 4], explicit: nil)
        #expect([1, 2, 3, 4].map(run.track) == [nil, "1/3", "2/3", "3/3"])
        // The service names them: each section of its job is made in a folder of its own.
        #expect(TrackNumbering(records: [], selected: [7], explicit: [3, 7, 9]).track(7) == "2/3")
    }

    static let tags = AudioTags(
        title: "Chapter One", album: "The Book", artist: "Ann Author", trackNumber: "5/14", genre: "Audiobook")

    /// A finished section file as the pipeline leaves it: written by libsndfile with `track`, then
    /// completed (`CoverArt.embed`: the cover, Ogg's header laid out anew).
    static func finishedFile(_ format: AudioFormat, track: String, in folder: TemporaryFolder, name: String) throws
        -> String
    {
        var tags = Self.tags
        tags.trackNumber = track
        let path = try CoverArtTests.makeFile(format, in: folder.path, tags: tags)
        let named = folder.path + "/" + name
        try FileManager.default.moveItem(atPath: path, toPath: named)
        try CoverArt.embed(format == .wav ? nil : CoverArtTests.cover, format: format, inFileAt: named)
        return named
    }

    @Test(
        "a file numbered anew has the bytes of the same file made with that number",
        arguments: [AudioFormat.wav, .flac, .mp3])
    func numberedAnewIsAsMadeFresh(_ format: AudioFormat) throws {
        try #require(AudioFileWriter.availableFormats().contains(format), "this libsndfile writes no \(format)")
        let folder = try TemporaryFolder()
        let fresh = try Self.finishedFile(format, track: "1/10", in: folder, name: "fresh")
        let renumbered = try Self.finishedFile(format, track: "5/14", in: folder, name: "renumbered")
        #expect(try CoverArtTests.bytes(fresh) != CoverArtTests.bytes(renumbered))
        try TrackNumberTag.set("1/10", format: format, inFileAt: renumbered)
        #expect(try CoverArtTests.bytes(renumbered) == CoverArtTests.bytes(fresh))
        #expect(try AudioTags.read(path: renumbered).trackNumber == "1/10")
        // Longer and shorter again.
        try TrackNumberTag.set("10/100", format: format, inFileAt: renumbered)
        #expect(try AudioTags.read(path: renumbered).trackNumber == "10/100")
        #expect(try AudioFileInfo.inspect(path: renumbered).frames > 0)
        try TrackNumberTag.set("1/10", format: format, inFileAt: renumbered)
        #expect(try CoverArtTests.bytes(renumbered) == CoverArtTests.bytes(fresh))
        #expect(folder.names == ["fresh", "renumbered"], "no temporary file left")
    }

    @Test(
        "an Ogg file numbered anew has the packets of the same file made with that number",
        arguments: [
            AudioFormat.opus, .ogg,
        ])
    func oggNumberedAnewIsAsMadeFresh(_ format: AudioFormat) throws {
        try #require(AudioFileWriter.availableFormats().contains(format), "this libsndfile writes no \(format)")
        let folder = try TemporaryFolder()
        let fresh = try Self.finishedFile(format, track: "1/10", in: folder, name: "fresh")
        let renumbered = try Self.finishedFile(format, track: "5/14", in: folder, name: "renumbered")
        let before = try CoverArtTests.oggPages(try CoverArtTests.bytes(renumbered))
        try TrackNumberTag.set("1/10", format: format, inFileAt: renumbered)
        let after = try CoverArtTests.oggPages(try CoverArtTests.bytes(renumbered))
        let made = try CoverArtTests.oggPages(try CoverArtTests.bytes(fresh))
        // libopus's packets differ from one file to the next; the header packets are the fresh file's.
        let headers = format == .opus ? 2 : 3
        #expect(Array(after.packets.prefix(headers)) == Array(made.packets.prefix(headers)), "the fresh file's headers")
        #expect(Array(after.packets.dropFirst(headers)) == Array(before.packets.dropFirst(headers)), "the same audio")
        #expect(after.pages.count == before.pages.count)
        #expect(try AudioTags.read(path: renumbered).trackNumber == "1/10")
    }

    @Test func aFileThatIsNotItsFormatKeepsItsBytes() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/bad.wav"
        for format in AudioFormat.allCases {
            try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: path))
            #expect { try TrackNumberTag.set("1/2", format: format, inFileAt: path) } throws: {
                CoverArtTests.isMalformed($0)
            }
            #expect(try CoverArtTests.bytes(path) == Array("not audio at all".utf8))
        }
        #expect(folder.names == ["bad.wav"])
    }

    // MARK: - In a conversion

    static func trackTags(_ sandbox: Sandbox) throws -> [Int: String] {
        var tracks: [Int: String] = [:]
        for record in try sandbox.manifest().sections where record.status == .done {
            let file = try #require(record.file)
            tracks[record.number] = try AudioTags.read(path: sandbox.output + "/" + file).trackNumber
            #expect(record.track == tracks[record.number], "the manifest records the file's number")
        }
        return tracks
    }

    @Test func aRunThatAddsSectionsNumbersTheFilesThereAnewAsACleanRunWould() async throws {
        let env = CoverArtTests.fileEnvironment { FakeSource.make(count: 5) }
        let sandbox = try Sandbox()
        var request = sandbox.request()
        request.encoding = AudioEncoding(format: .flac)
        request.cover = CoverArtTests.cover
        request.selection = .numbers([3, 4])
        #expect(try await Converter(environment: env).run(request).sectionsDone == 2)
        #expect(try Self.trackTags(sandbox) == [3: "1/2", 4: "2/2"])

        // Section 2 joins them: one section made, two numbered anew, none made again.
        request.selection = .numbers([2])
        let log = EventLog()
        let second = try await Converter(environment: env).run(request, onEvent: log.append)
        #expect(second.sectionsDone == 1)
        #expect(try Self.trackTags(sandbox) == [2: "1/3", 3: "2/3", 4: "3/3"])
        let manifest = try sandbox.manifest()
        for record in manifest.sections where record.status == .done {
            let file = try #require(record.file)
            let size = try #require(sandbox.contents(file)).count
            #expect(Int64(size) == record.bytes, "the manifest records the numbered file's size")
        }

        // The same files as one clean run of the three.
        let clean = try Sandbox()
        var all = clean.request()
        all.encoding = request.encoding
        all.cover = request.cover
        all.selection = .numbers([2, 3, 4])
        #expect(try await Converter(environment: env).run(all).sectionsDone == 3)
        for record in try clean.manifest().sections where record.status == .done {
            let file = try #require(record.file)
            #expect(sandbox.contents(file) == clean.contents(file), "\(file)")
        }

        // A rerun, or one of the sections again, changes nothing: everything is resumed as it is.
        request.selection = .numbers([3])
        let before = try sandbox.manifest().sections.compactMap(\.file).map { sandbox.contents($0) }
        let third = try await Converter(environment: env).run(request)
        #expect(third.sectionsDone == 0 && third.sectionsSkipped == 1)
        #expect(try sandbox.manifest().sections.compactMap(\.file).map { sandbox.contents($0) } == before)
    }

    @Test func theCallerMayNameTheFolderSections() async throws {
        let env = CoverArtTests.fileEnvironment { FakeSource.make(count: 5) }
        let sandbox = try Sandbox()
        var request = sandbox.request()
        request.encoding = AudioEncoding(format: .flac)
        request.selection = .numbers([4])
        request.trackSections = [2, 4, 5]
        #expect(try await Converter(environment: env).run(request).sectionsDone == 1)
        #expect(try Self.trackTags(sandbox) == [4: "2/3"])
    }
}
