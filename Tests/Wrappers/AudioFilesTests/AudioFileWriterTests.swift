import Contracts
import Foundation
import Testing

@testable import AudioFiles

/// A fresh temporary directory, removed when the test's scope ends.
final class TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("audiofiles-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// `seconds` of a 440 Hz sine at `rate`, at about a third of full scale.
func sine(seconds: Double, rate: Int = 22_050, frequency: Double = 440) -> [Int16] {
    (0..<Int(seconds * Double(rate))).map { i in
        Int16(10_000 * sin(2 * Double.pi * frequency * Double(i) / Double(rate)))
    }
}

/// Writes `samples` in uneven pieces, then `silence` frames, then closes.
func writeFile(
    _ path: String, _ encoding: AudioEncoding, samples: [Int16], silence: Int = 0, tags: AudioTags = AudioTags()
) throws -> AudioFileWriter {
    let writer = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 22_050, tags: tags)
    var offset = 0
    var piece = 1
    while offset < samples.count {
        let end = min(samples.count, offset + piece)
        try samples[offset..<end].withUnsafeBufferPointer { try writer.write($0) }
        offset = end
        piece = piece * 3 + 7  // 1, 10, 37, 118...: uneven on purpose
    }
    try writer.writeSilence(frames: silence)
    try writer.close()
    return writer
}

/// Sign changes per second of `samples` at `rate`: twice the frequency of a pure tone.
func zeroCrossingsPerSecond(_ samples: [Int16], rate: Int) -> Double {
    var crossings = 0
    for i in 1..<samples.count where (samples[i - 1] < 0) != (samples[i] < 0) { crossings += 1 }
    return Double(crossings) / (Double(samples.count) / Double(rate))
}

@Suite struct AudioFileWriterTests {
    @Test func wavAndFLACAreAlwaysAvailable() {
        let formats = AudioFileWriter.availableFormats()
        #expect(formats.isSuperset(of: [.wav, .flac]))
    }

    /// The check in memory says what writing a file on disk says, format by format.
    @Test(arguments: AudioFormat.allCases)
    func theProbeInMemoryAgreesWithAFileOnDisk(_ format: AudioFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("probe.\(format.fileExtension)")
        var written = false
        if let writer = try? AudioFileWriter(path: path, encoding: AudioEncoding(format: format), sampleRate: 22_050) {
            let silence = [Int16](repeating: 0, count: 2_205)
            written =
                (try? silence.withUnsafeBufferPointer { try writer.write($0) }) != nil && (try? writer.close()) != nil
                && ((try? AudioFileInfo.inspect(path: path).frames) ?? 0) > 0
        }
        #expect(AudioFileWriter.canWrite(format) == written)
    }

    @Test(arguments: AudioFormat.allCases)
    func everyAvailableFormatIsWrittenAndReadBack(_ format: AudioFormat) throws {
        try #require(AudioFileWriter.availableFormats().contains(format), "\(format) not available here")
        let directory = try TemporaryDirectory()
        let path = directory.path("out.\(format.fileExtension)")
        let samples = sine(seconds: 1.0)
        let writer = try writeFile(path, AudioEncoding(format: format), samples: samples, silence: 11_025)
        #expect(writer.inputFrames == samples.count + 11_025)
        let info = try AudioFileInfo.inspect(path: path)
        #expect(info.format == format)
        #expect(info.channels == 1)
        #expect(info.sampleRate == format.fileSampleRate(forInput: 22_050))
        switch format {
        case .wav, .flac:
            #expect(info.frames == samples.count + 11_025)
        case .ogg, .opus, .mp3:
            // Lossy codecs add encoder delay or padding: within 60 ms of 1.5 s.
            #expect(abs(info.duration - 1.5) < 0.06, "\(info.duration) s")
        }
        // The tone survives encoding: 440 Hz is 880 sign changes per second.
        let decoded = try AudioFileInfo.readSamples(path: path)
        let tone = Array(decoded.prefix(info.sampleRate * 9 / 10).dropFirst(info.sampleRate / 10))
        let crossings = zeroCrossingsPerSecond(tone, rate: info.sampleRate)
        #expect(abs(crossings - 880) < 20, "\(crossings) crossings/s")
    }

    @Test func opusIsResampledTo24kHz() throws {
        try #require(AudioFileWriter.availableFormats().contains(.opus))
        let directory = try TemporaryDirectory()
        let path = directory.path("out.opus")
        let writer = try writeFile(path, AudioEncoding(format: .opus), samples: sine(seconds: 2.0))
        #expect(writer.fileSampleRate == 24_000)
        let info = try AudioFileInfo.inspect(path: path)
        #expect(info.sampleRate == 24_000)
        #expect(abs(info.duration - 2.0) < 0.06, "\(info.duration) s")
        #expect(abs(Double(info.frames) - 48_000) < 1_500, "\(info.frames) frames")
    }

    @Test func wavKeepsTheExactSamples() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("exact.wav")
        let samples = sine(seconds: 0.3)
        _ = try writeFile(path, AudioEncoding(format: .wav), samples: samples, silence: 500)
        #expect(try AudioFileInfo.readSamples(path: path) == samples + [Int16](repeating: 0, count: 500))
    }

    @Test(arguments: [AudioFormat.wav, .flac, .mp3])
    func theBytesDoNotDependOnHowTheSamplesArrive(_ format: AudioFormat) throws {
        // The writer gathers samples before libsndfile sees them: pieces that straddle what it
        // gathers (`bufferFrames`) must come out as one block written at once does.
        try #require(AudioFileWriter.availableFormats().contains(format), "\(format) not available here")
        let directory = try TemporaryDirectory()
        let samples = sine(seconds: 4)
        #expect(samples.count > 2 * AudioFileWriter.bufferFrames)
        let whole = try AudioFileWriter(
            path: directory.path("whole.\(format)"), encoding: AudioEncoding(format: format), sampleRate: 22_050)
        try samples.withUnsafeBufferPointer { try whole.write($0) }
        try whole.writeSilence(frames: 300)
        try whole.close()
        _ = try writeFile(
            directory.path("pieces.\(format)"), AudioEncoding(format: format), samples: samples, silence: 300)
        let a = try Data(contentsOf: URL(fileURLWithPath: directory.path("whole.\(format)")))
        let b = try Data(contentsOf: URL(fileURLWithPath: directory.path("pieces.\(format)")))
        #expect(a.count > 1_000)
        #expect(a == b)
    }

    @Test(arguments: [AudioFormat.wav, .flac])
    func losslessOutputIsByteIdenticalForIdenticalInput(_ format: AudioFormat) throws {
        let directory = try TemporaryDirectory()
        let tags = AudioTags(title: "Chapter 1", album: "A Book", artist: "An Author", trackNumber: "1", date: "2024")
        let samples = sine(seconds: 0.5)
        _ = try writeFile(directory.path("a.\(format)"), AudioEncoding(format: format), samples: samples, tags: tags)
        Thread.sleep(forTimeInterval: 1.1)  // a timestamp in the file would now differ
        _ = try writeFile(directory.path("b.\(format)"), AudioEncoding(format: format), samples: samples, tags: tags)
        let a = try Data(contentsOf: URL(fileURLWithPath: directory.path("a.\(format)")))
        let b = try Data(contentsOf: URL(fileURLWithPath: directory.path("b.\(format)")))
        #expect(a.count > 1_000)
        #expect(a == b)
    }

    static let unicodeTags = AudioTags(
        title: "Chapitre 1 — L’été à Zürich", album: "Œuvres complètes", artist: "Łukasz Ō. 川端",
        trackNumber: "3/12", genre: "Audiobook", date: "2024-05-01", comment: "Généré hors ligne")

    @Test(arguments: [AudioFormat.wav, .flac, .ogg, .opus])
    func unicodeTagsRoundTrip(_ format: AudioFormat) throws {
        try #require(AudioFileWriter.availableFormats().contains(format))
        let directory = try TemporaryDirectory()
        let path = directory.path("tags.\(format.fileExtension)")
        let writer = try writeFile(
            path, AudioEncoding(format: format), samples: sine(seconds: 0.2), tags: Self.unicodeTags)
        #expect(writer.droppedTags.isEmpty)
        #expect(try AudioTags.read(path: path) == Self.unicodeTags)
    }

    @Test func mp3TagsAreLatin1AndWhole() throws {
        try #require(AudioFileWriter.availableFormats().contains(.mp3))
        let directory = try TemporaryDirectory()
        let path = directory.path("tags.mp3")
        var tags = Self.unicodeTags
        tags.title = "Chapitre 1 — L’été à Zürich, où l’on apprend à lire les étoiles"
        _ = try writeFile(path, AudioEncoding(format: .mp3), samples: sine(seconds: 0.2), tags: tags)
        let read = try AudioTags.read(path: path)
        // Past ID3v1's 30 bytes: the ID3v2 frame holds it all.
        #expect(read.title == "Chapitre 1 - L'été à Zürich, où l'on apprend à lire les étoiles")
        #expect(read.album == "OEuvres complètes")
        #expect(read.artist == "Lukasz O. ")
        #expect(read.genre == "Audiobook")
    }

    @Test(arguments: [
        ("plain", "plain"), ("L’été — “quoted”…", "L'été - \"quoted\"..."), ("Dvořák Ő", "Dvorák O"),
        ("日本語", ""), ("Straße", "Straße"), (String(repeating: "x", count: 40), String(repeating: "x", count: 30)),
    ])
    func latin1Transliteration(_ input: String, _ expected: String) {
        let bytes = AudioTags.latin1(input, limit: 30)
        #expect(String(bytes.map { Character(Unicode.Scalar($0)) }) == expected)
        #expect(bytes.count <= 30)
    }

    private func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    @Test func compressionLevelAndBitrateModeReachTheMP3Encoder() throws {
        try #require(AudioFileWriter.availableFormats().contains(.mp3))
        let directory = try TemporaryDirectory()
        let samples = sine(seconds: 2)
        var sizes: [Double: Int] = [:]
        for level in [0.0, 0.9] {
            let path = directory.path("l\(level).mp3")
            let encoding = AudioEncoding(format: .mp3, compressionLevel: level, bitrateMode: .constant)
            _ = try writeFile(path, encoding, samples: samples)
            sizes[level] = try size(path)
        }
        #expect(sizes[0.0]! > sizes[0.9]! * 3, "\(sizes)")
        let variable = directory.path("vbr.mp3")
        _ = try writeFile(
            variable, AudioEncoding(format: .mp3, compressionLevel: 0.0, bitrateMode: .variable), samples: samples)
        #expect(try size(variable) != sizes[0.0]!)
    }

    @Test(arguments: [BitrateMode.constant, .average, .variable])
    func aBitrateModeWithoutACompressionLevelIsWritten(_ mode: BitrateMode) throws {
        try #require(AudioFileWriter.availableFormats().contains(.mp3))
        let directory = try TemporaryDirectory()
        let samples = sine(seconds: 2)
        let alone = directory.path("alone.mp3")
        _ = try writeFile(alone, AudioEncoding(format: .mp3, bitrateMode: mode), samples: samples)
        let stated = directory.path("stated.mp3")
        _ = try writeFile(
            stated,
            AudioEncoding(format: .mp3, compressionLevel: AudioFileWriter.levelWithBitrateMode, bitrateMode: mode),
            samples: samples)
        #expect(try size(alone) > 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: alone)) == Data(contentsOf: URL(fileURLWithPath: stated)))
    }

    @Test func compressionLevelReachesTheOpusEncoder() throws {
        try #require(AudioFileWriter.availableFormats().contains(.opus))
        let directory = try TemporaryDirectory()
        let samples = sine(seconds: 2)
        _ = try writeFile(
            directory.path("a.opus"), AudioEncoding(format: .opus, compressionLevel: 0.0), samples: samples)
        _ = try writeFile(
            directory.path("b.opus"), AudioEncoding(format: .opus, compressionLevel: 0.9), samples: samples)
        #expect(try size(directory.path("a.opus")) > size(directory.path("b.opus")) * 2)
    }

    @Test func openFailureNamesThePath() throws {
        let path = "/nonexistent-dir-\(UUID().uuidString)/out.wav"
        let error = try #require(throws: AudioError.self) {
            _ = try AudioFileWriter(path: path, encoding: AudioEncoding(format: .wav), sampleRate: 22_050)
        }
        guard case .openFailed(let failedPath, let message) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(failedPath == path)
        #expect(!message.isEmpty)
        #expect(error.description.contains(path))
    }

    @Test(arguments: [
        AudioEncoding(format: .wav, compressionLevel: 0.5), AudioEncoding(format: .flac, compressionLevel: 1.5),
        AudioEncoding(format: .flac, bitrateMode: .constant), AudioEncoding(format: .ogg, bitrateMode: .variable),
        AudioEncoding(format: .opus, bitrateMode: .constant), AudioEncoding(format: .mp3, compressionLevel: -0.1),
    ])
    func invalidEncoderOptionsAreRefused(_ encoding: AudioEncoding) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("x.\(encoding.format.fileExtension)")
        #expect(throws: AudioError.self) { _ = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 22_050) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func writingAfterCloseFailsAndCloseTwiceIsHarmless() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("closed.wav")
        let writer = try AudioFileWriter(path: path, encoding: AudioEncoding(format: .wav), sampleRate: 22_050)
        try writer.close()
        try writer.close()
        #expect(throws: AudioError.closed(path: path)) { try writer.writeSilence(frames: 10) }
        #expect(throws: AudioError.invalidSilence(frames: -1, path: path)) { try writer.writeSilence(frames: -1) }
        #expect(try AudioFileInfo.inspect(path: path).frames == 0)
    }

    @Test func readingAMissingFileNamesIt() {
        #expect(throws: AudioError.self) { try AudioFileInfo.inspect(path: "/nonexistent/file.wav") }
        #expect(throws: AudioError.self) { try AudioTags.read(path: "/nonexistent/file.wav") }
    }

    @Test func withoutDitherTheResamplerDoesNotDependOnHowInputIsSplit() throws {
        let samples = sine(seconds: 0.5)
        func run(_ pieces: Int) throws -> [Int16] {
            let resampler = try Resampler(from: 22_050, to: 24_000, dither: false)
            var output: [Int16] = []
            let size = (samples.count + pieces - 1) / pieces
            for start in stride(from: 0, to: samples.count, by: size) {
                try samples[start..<min(start + size, samples.count)].withUnsafeBufferPointer {
                    try resampler.process($0) { output.append(contentsOf: $0) }
                }
            }
            try resampler.flush { output.append(contentsOf: $0) }
            return output
        }
        let whole = try run(1)
        let split = try run(37)
        // The same samples (the writer's resampling, undithered): a section's file does not depend
        // on how the engine handed its audio over.
        #expect(whole == split)
        #expect(abs(whole.count - samples.count * 24_000 / 22_050) <= 2, "\(whole.count)")
    }

    @Test func withoutDitherTwoResamplersGiveTheSameSamples() throws {
        // libsoxr seeds its 16-bit dither from the clock and the object's address: two resamplers alive at once
        // differ in their lowest bits unless the dither is off (the neural engine's reproducible output).
        let samples = sine(seconds: 0.5)
        func run(_ resampler: Resampler) throws -> [Int16] {
            var output: [Int16] = []
            try samples.withUnsafeBufferPointer { try resampler.process($0) { output.append(contentsOf: $0) } }
            try resampler.flush { output.append(contentsOf: $0) }
            return output
        }
        let first = try Resampler(from: 22_050, to: 24_000, dither: false)
        let second = try Resampler(from: 22_050, to: 24_000, dither: false)
        #expect(try run(first) == run(second))
    }

    @Test func memoryStaysConstantWhileWriting() throws {
        // Ten minutes of audio in 1 s pieces: the writer must not keep it (it would be 26 MB).
        let directory = try TemporaryDirectory()
        let path = directory.path("long.flac")
        let writer = try AudioFileWriter(path: path, encoding: AudioEncoding(format: .flac), sampleRate: 22_050)
        let second = sine(seconds: 1)
        for _ in 0..<600 { try second.withUnsafeBufferPointer { try writer.write($0) } }
        try writer.close()
        #expect(try AudioFileInfo.inspect(path: path).frames == 600 * 22_050)
    }
}
