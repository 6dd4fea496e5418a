import Contracts
import Foundation
import Testing

@testable import Conversion

@Suite struct WorkerProtocolTests {
    @Test func workerMainAnswersJobsOverPipes() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        let source = FakeSource.make(count: 2)
        let toWorker = Pipe()
        let fromWorker = Pipe()
        let settings = AudioSettings(voice: VoiceSettings(voice: "en"))
        for section in [2, 1] {
            let job = WorkerJob(
                book: BookInput(path: sandbox.book), section: section, settings: settings,
                partPath: sandbox.output + "/00\(section) - x.wav.part",
                tags: AudioTags(title: "t", album: "a", artist: "b", trackNumber: String(section)))
            try toWorker.fileHandleForWriting.write(contentsOf: Data((CanonicalJSON.line(job) + "\n").utf8))
        }
        try toWorker.fileHandleForWriting.close()
        let status = WorkerMain.run(
            input: toWorker.fileHandleForReading, output: fromWorker.fileHandleForWriting,
            environment: environment(source: source))
        try fromWorker.fileHandleForWriting.close()
        #expect(status == .inputEnded)
        let lines = String(decoding: fromWorker.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n")
        let messages = try lines.map { try JSONDecoder().decode(WorkerMessage.self, from: Data($0.utf8)) }
        let results = messages.compactMap { if case .done(let r) = $0 { r } else { nil } }
        #expect(results.map(\.section) == [2, 1])
        #expect(results.allSatisfy { $0.sampleRate == 8000 && $0.frames > 0 })
        #expect(results[0].textSHA256 == SpokenTextFingerprint.sha256(try source.blocks(section: 2)))
        #expect(messages.contains { if case .progress(2, _, _, _, _) = $0 { true } else { false } })
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.contains(#""type":"#) })
        // The worker writes the .part file it was told to, and nothing else.
        #expect(sandbox.files() == ["001 - x.wav.part", "002 - x.wav.part"])
    }

    @Test func invalidJobLineEndsTheWorker() throws {
        let toWorker = Pipe()
        let fromWorker = Pipe()
        try toWorker.fileHandleForWriting.write(contentsOf: Data("{\"nonsense\":true}\n".utf8))
        try toWorker.fileHandleForWriting.close()
        let status = WorkerMain.run(
            input: toWorker.fileHandleForReading, output: fromWorker.fileHandleForWriting,
            environment: environment(source: .make(count: 1)))
        try fromWorker.fileHandleForWriting.close()
        #expect(status == .invalidJob)
        let line = String(decoding: fromWorker.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = try JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8))
        guard case .failed(_, .protocolError, _, _) = message else {
            Issue.record("expected a protocol failure, got \(message)")
            return
        }
    }

    @Test func messagesRoundTrip() throws {
        let messages: [WorkerMessage] = [
            .progress(section: 1, wordsDone: 2, wordsTotal: 3, frames: 4, sampleRate: 5),
            .done(WorkerResult(section: 1, frames: 10, sampleRate: 5, textSHA256: "ab", words: 7)),
            .failed(section: 2, kind: .diskFull, message: "full", path: "/x"),
        ]
        for message in messages {
            let line = CanonicalJSON.line(message)
            #expect(!line.contains("\n"))
            #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8)) == message)
        }
        #expect(CanonicalJSON.line(messages[2]).contains(#""kind":"disk-full""#))
    }
}

@Suite struct EventTests {
    @Test func jsonLinesRoundTripWithEventNames() throws {
        let events: [ConversionEvent] = [
            .bookStarted(title: "T \"q\"\nx", sections: 3, words: 900),
            .sectionStarted(section: 2, title: "Two"),
            .progress(section: 2, wordsDone: 10, wordsTotal: 20, audioSeconds: 1.5),
            .sectionDone(
                section: 2, file: "002 - Two.wav", durationSeconds: 3.25, words: 20, bytes: 1234, skipped: true),
            .warning(message: "w"),
            .error(section: nil, message: "e"),
            .error(section: 4, message: "e4"),
            .bookDone(
                ConversionSummary(
                    sectionsDone: 1, sectionsFailed: 2, sectionsSkipped: 3, audioSeconds: 4, wallSeconds: 5)),
        ]
        for event in events {
            let line = event.jsonLine
            #expect(!line.contains("\n"))
            #expect(line.hasPrefix("{") && line.contains(#""event":"\#(event.name)""#))
            #expect(try JSONDecoder().decode(ConversionEvent.self, from: Data(line.utf8)) == event)
        }
        #expect(
            events[3].jsonLine
                == #"{"bytes":1234,"durationSeconds":3.25,"event":"section-done","file":"002 - Two.wav","section":2,"skipped":true,"words":20}"#
        )
    }

    @Test func errorsDescribeThemselves() {
        #expect(ConversionError.diskFull(path: "/out/x.wav").description.contains("/out/x.wav"))
        #expect(ConversionError.outputNotEmpty(path: "/out").description.contains("/out"))
        #expect(
            ConversionError.workerFailed(section: 3, reason: "killed by signal 9").description.contains("section 3"))
    }
}
