import Contracts
import Foundation
import Synchronization
import Testing

@testable import Conversion

/// A deterministic fake engine: PCM proportional to text length, plus state that carries over from
/// one call to the next unless `reset()` is called, so a missing reset shows. Unlike espeak-ng, whose
/// reset is best effort, its reset is complete: in-process runs with it are byte-identical.
final class FakeEngine: SpeechEngine {
    let sampleRate = 8000
    /// Samples per UTF-8 byte of text.
    static let samplesPerByte = 8
    private var calls = 0
    private var voice = VoiceSettings(voice: "none")
    /// Microseconds to sleep per buffer (to make cancellation observable).
    let delayMicroseconds: UInt32

    init(delayMicroseconds: UInt32 = 0) {
        self.delayMicroseconds = delayMicroseconds
    }

    func configure(_ settings: VoiceSettings) throws {
        guard settings.voice != "missing" else { throw FakeError.unknownVoice }
        voice = settings
    }

    func synthesize(_ text: String, language: String?, output: (UnsafeBufferPointer<Int16>) throws -> Bool) throws {
        try synthesize(text, language: language, marks: { _ in }, output: output)
    }

    /// Marks where espeak-ng would: a sentence mark at each of `SentenceSegmenter`'s sentences and a
    /// word mark at each run of letters or digits, at the frame of its first UTF-8 byte.
    func synthesize(
        _ text: String, language: String?, marks: (SpeechMark) -> Void,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        if text.contains("FAIL") { throw FakeError.cannotSpeak(text) }
        for mark in Self.marks(of: text) { marks(mark) }
        calls += 1
        let bytes = Array(text.utf8)
        var samples: [Int16] = []
        samples.reserveCapacity(bytes.count * Self.samplesPerByte)
        for (index, byte) in bytes.enumerated() {
            for step in 0..<Self.samplesPerByte {
                let value = Int(byte) * 37 + step * 11 + voice.rate + voice.pitch * 3 + calls * 1000 + index % 7
                samples.append(Int16(truncatingIfNeeded: value))
            }
        }
        var start = 0
        while start < samples.count {
            let end = min(start + 256, samples.count)
            if delayMicroseconds > 0 { usleep(delayMicroseconds) }
            let keepGoing = try samples[start..<end].withUnsafeBufferPointer { try output($0) }
            if !keepGoing { return }
            start = end
        }
    }

    func reset() throws { calls = 0 }

    /// The marks of `text`, in order: frames at `samplesPerByte` per UTF-8 byte before the place.
    static func marks(of text: String) -> [SpeechMark] {
        let utf16 = Array(text.utf16)
        func frame(_ offset: Int) -> Int {
            String(decoding: utf16[..<offset], as: UTF16.self).utf8.count * samplesPerByte
        }
        var marks: [SpeechMark] = []
        let sentences = SentenceSegmenter.sentenceRanges(in: text)
        var words: [Range<Int>] = []
        var start: Int?
        var offset = 0
        for scalar in text.unicodeScalars {
            let inWord = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if inWord, start == nil { start = offset }
            if !inWord, let begun = start {
                words.append(begun..<offset)
                start = nil
            }
            offset += scalar.utf16.count
        }
        if let begun = start { words.append(begun..<offset) }
        for word in words {
            if let sentence = sentences.first(where: {
                $0.lowerBound <= word.lowerBound && word.lowerBound < $0.upperBound
            }),
                !marks.contains(where: { $0.kind == .sentence && $0.textRange == sentence })
            {
                marks.append(SpeechMark(kind: .sentence, textRange: sentence, frame: frame(sentence.lowerBound)))
            }
            marks.append(SpeechMark(kind: .word, textRange: word, frame: frame(word.lowerBound)))
        }
        return marks
    }
}

enum FakeError: Error {
    case unknownVoice
    case cannotSpeak(String)
}

/// Writes a small text header (the tags) then raw 16-bit PCM: enough to compare bytes between runs.
final class FakeFileSink: AudioSink {
    private let handle: FileHandle

    init(_ request: SinkRequest) throws {
        guard FileManager.default.createFile(atPath: request.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: request.path))
        let header =
            "FAKE \(request.sampleRate) \(request.encoding.format.rawValue)\n\(request.tags.title ?? "")\n"
            + "\(request.tags.album ?? "")\n\(request.tags.artist ?? "")\n\(request.tags.trackNumber ?? "")\n"
        try handle.write(contentsOf: Data(header.utf8))
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        try handle.write(contentsOf: Data(buffer: samples))
    }

    func writeSilence(frames: Int) throws {
        try handle.write(contentsOf: Data(count: frames * 2))
    }

    func close() throws { try handle.close() }
}

/// An in-memory book. `Sendable` value: sections and blocks are plain data.
struct FakeSource: SectionSource {
    var book = BookDescription(identifier: "urn:test:1", title: "The Test Book", authors: ["A. Author", "B. Writer"])
    var sections: [PlannedSection]
    var texts: [Int: [SpokenBlock]]
    /// Counts `blocks(section:)` calls by section, when set.
    var extractions: ExtractionCounter?

    func blocks(section: Int) throws -> [SpokenBlock] {
        extractions?.count(section)
        guard let blocks = texts[section] else { throw FakeError.cannotSpeak("no section \(section)") }
        return blocks
    }

    /// A book of `count` sections; section n has n*words words (so sizes differ), section 1 is excluded front matter.
    static func make(count: Int = 5, words: Int = 30, titles: [Int: String] = [:]) -> FakeSource {
        var sections: [PlannedSection] = []
        var texts: [Int: [SpokenBlock]] = [:]
        for number in 1...count {
            let title = titles[number] ?? "Chapter \(number)"
            let sentence = (0..<(number * words)).map { "word\($0 % 13)" }.joined(separator: " ")
            let blocks = [
                SpokenBlock(kind: .title, text: title, source: SourcePosition(spineIndex: number, blockIndex: 0)),
                SpokenBlock(
                    kind: .paragraph, text: sentence + ".", source: SourcePosition(spineIndex: number, blockIndex: 1)),
                SpokenBlock(kind: .sceneBreak, text: "", source: SourcePosition(spineIndex: number, blockIndex: 2)),
                SpokenBlock(
                    kind: .paragraph, text: "The end of \(title.lowercased()).",
                    source: SourcePosition(spineIndex: number, blockIndex: 3)),
            ]
            let wordCount = blocks.reduce(0) { $0 + $1.text.split(separator: " ").count }
            sections.append(PlannedSection(number: number, title: title, words: wordCount, included: number != 1))
            texts[number] = blocks
        }
        return FakeSource(sections: sections, texts: texts)
    }
}

/// How often each section's text was extracted.
final class ExtractionCounter: Sendable {
    private let counts = Mutex<[Int: Int]>([:])

    func count(_ section: Int) { counts.withLock { $0[section, default: 0] += 1 } }

    var all: [Int: Int] { counts.withLock { $0 } }
}

/// A temporary folder with a fake `.epub` in it, removed at deinit.
final class Sandbox: Sendable {
    let root: String
    let book: String
    let output: String

    init(bookBytes: String = "PK fake epub bytes") throws {
        root = NSTemporaryDirectory() + "conversion-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        book = root + "/book.epub"
        output = root + "/out"
        try Data(bookBytes.utf8).write(to: URL(fileURLWithPath: book))
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func files(in directory: String? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory ?? output)) ?? []).sorted()
    }

    func contents(_ name: String, in directory: String? = nil) -> Data? {
        FileManager.default.contents(atPath: (directory ?? output) + "/" + name)
    }

    func manifest(in directory: String? = nil) throws -> Manifest {
        try #require(try Manifest.load(fromDirectory: directory ?? output))
    }

    func request(output: String? = nil, jobs: Int = 1) -> ConversionRequest {
        ConversionRequest(
            bookPath: book, outputDirectory: output ?? self.output, voice: VoiceSettings(voice: "en-test"), jobs: jobs)
    }
}

/// Collects events from any thread.
final class EventLog: Sendable {
    private let events = Mutex<[ConversionEvent]>([])

    func append(_ event: ConversionEvent) { events.withLock { $0.append(event) } }

    var all: [ConversionEvent] { events.withLock { $0 } }

    var sectionDone: [(section: Int, skipped: Bool)] {
        all.compactMap {
            if case .sectionDone(let section, _, _, _, _, let skipped) = $0 { return (section, skipped) }
            return nil
        }
    }
}

/// Counts engines made and sections reset, shared with the environment closures.
final class Counters: Sendable {
    let enginesMade = Atomic<Int>(0)
}

func environment(
    source: FakeSource, delayMicroseconds: UInt32 = 0, counters: Counters? = nil
) -> ConversionEnvironment {
    ConversionEnvironment(
        makeSource: { _ in source },
        makeEngine: {
            counters?.enginesMade.add(1, ordering: .relaxed)
            return FakeEngine(delayMicroseconds: delayMicroseconds)
        },
        makeSink: { try FakeFileSink($0) })
}

/// A converter whose workers (when `jobs > 1`) run `WorkerMain` on threads through pipes.
func threadConverter(
    _ environment: ConversionEnvironment, dieOnJob: @escaping @Sendable (WorkerJob) -> Bool = { _ in false }
) -> Converter {
    Converter(environment: environment) { _ in ThreadWorkerLauncher(environment: environment, dieOnJob: dieOnJob) }
}
