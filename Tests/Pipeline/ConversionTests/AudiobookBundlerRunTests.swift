import Foundation
import TestSupport
import Testing

@testable import Conversion

/// `AudiobookBundler.bundle` with the real ffmpeg over WAV files the test writes (no speech engine).
@Suite(
    "AudiobookBundler with ffmpeg", .serialized,
    .enabled(if: BundlerFixture.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
struct AudiobookBundlerRunTests {
    @Test("300 sections: every chapter kept at its running frame sum; unchanged inputs are not rebuilt")
    func manySections() throws {
        let fixture = try BundlerFixture(sections: 300)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let metadata = AudiobookMetadata(title: "Many", authors: ["A. Writer"])
        let first = try bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata)
        #expect(first.rebuilt)
        #expect(first.chapters == 300)
        #expect(first.path == fixture.directory + "/Many - A. Writer.m4b")

        let probe = try BundlerFixture.probe(first.path)
        let chapters = try #require(probe["chapters"] as? [[String: Any]])
        #expect(chapters.count == 300)
        for (index, chapter) in chapters.enumerated() {
            let start = try #require((chapter["start_time"] as? String).flatMap { Double($0) })
            let expected = Double(fixture.starts[index]) / Double(BundlerFixture.rate)
            #expect(abs(start - expected) <= 0.001, "chapter \(index + 1)")
        }
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: fixture.directory)).contains { $0.hasPrefix(".") })

        let again = try bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata)
        #expect(!again.rebuilt)

        // A section made again with other text: the bundle is rebuilt.
        var manifest = try #require(try Manifest.load(fromDirectory: fixture.directory))
        manifest.sections[7].textSHA256 = "changed"
        try manifest.write(toDirectory: fixture.directory)
        #expect(try bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata).rebuilt)
    }

    @Test("a new title: the bundle under the old name is replaced, not left behind")
    func renamedBundle() throws {
        let fixture = try BundlerFixture(sections: 3)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let first = try bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "Old"))
        let second = try bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "New"))
        #expect(second.rebuilt)
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(FileManager.default.fileExists(atPath: second.path))
    }

    @Test("an unreadable section: bundleFailed with ffmpeg's words, no bundle and no temporary file left")
    func ffmpegFailure() throws {
        let fixture = try BundlerFixture(sections: 3)
        defer { fixture.remove() }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: fixture.directory + "/002 - Section 2.wav"))
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        #expect {
            try bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "T"))
        } throws: { error in
            guard case ConversionError.bundleFailed(let reason) = error else { return false }
            return reason.contains("ffmpeg failed")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory)
        #expect(!names.contains { $0.hasSuffix(".m4b") || $0.hasPrefix(".") }, "\(names)")
    }
}

/// An output folder as a conversion leaves it: WAV sections of slightly different lengths and a manifest.
struct BundlerFixture {
    static let rate = 22_050
    static let toolsInstalled = FFTools.installed

    let directory: String
    let numbers: [Int]
    /// Each section's first frame in the whole.
    let starts: [Int]

    init(sections count: Int) throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("e2a-bundler-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var records: [SectionRecord] = []
        var starts: [Int] = []
        var start = 0
        for number in 1...count {
            let frames = 2_205 + 37 * number  // 0.1 s and a little more, never a multiple of an AAC frame
            let file = String(format: "%03d - Section %d.wav", number, number)
            try Self.wav(frames: frames, tone: number).write(to: URL(fileURLWithPath: directory + "/" + file))
            var record = SectionRecord(number: number, title: "Section \(number)", status: .done, file: file)
            record.frames = frames
            record.sampleRate = Self.rate
            record.textSHA256 = "text\(number)"
            records.append(record)
            starts.append(start)
            start += frames
        }
        self.numbers = Array(1...count)
        self.starts = starts
        try Manifest(sections: records).write(toDirectory: directory)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// 16-bit mono PCM WAV: a quiet square wave whose period depends on `tone`.
    static func wav(frames: Int, tone: Int) -> Data {
        var data = Data()
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        u32(36 + frames * 2)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(1)
        u32(rate)
        u32(rate * 2)
        u16(2)
        u16(16)
        data.append(contentsOf: Array("data".utf8))
        u32(frames * 2)
        let period = 20 + tone % 50
        for frame in 0..<frames { u16((frame / period) % 2 == 0 ? 2_000 : 0x1_0000 - 2_000) }
        return data
    }

    static func probe(_ path: String) throws -> [String: Any] {
        try #require(try FFTools.probe(path).json)
    }
}
