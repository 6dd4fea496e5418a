import Contracts
import Foundation
import Synchronization
import Testing

@testable import Conversion

/// Long sections made in parts (`SectionParts`): where parts start, joining, resume, with the fake engine.
@Suite struct SectionPartsTests {
    // MARK: - Where parts start (pure)

    @Test(arguments: [
        ([10, 10, 10], 100, [0..<3]),
        ([50, 50], 100, [0..<2]),
        ([60, 60, 60, 60], 100, [0..<2, 2..<4]),
        // A tail shorter than half a part is folded into the part before.
        ([60, 60, 30], 100, [0..<3]),
        ([60, 60, 50], 100, [0..<2, 2..<3]),
        ([250, 10, 10, 10], 100, [0..<4]),
        ([250, 40, 20, 10], 100, [0..<1, 1..<4]),
        ([500], 100, [0..<1]),
        ([], 100, [0..<0]),
    ])
    func partsDependOnlyOnTheChunks(words: [Int], partWords: Int, expected: [Range<Int>]) {
        let parts = SectionParts.split(chunkWords: words, partWords: partWords)
        #expect(parts.map(\.chunks) == expected)
        #expect(parts.map(\.index) == Array(parts.indices))
        #expect(parts.reduce(0) { $0 + $1.words } == words.reduce(0, +))
    }

    @Test func partsCoverEveryChunkOnceAndAreNeitherTinyNorHuge() {
        var generator = SeededWords(seed: 7)
        let words = (0..<3_000).map { _ in generator.next() }
        let parts = SectionParts.split(chunkWords: words)
        #expect(parts.count > 1)
        #expect(parts.first?.firstChunk == 0 && parts.last?.endChunk == words.count)
        for (previous, next) in zip(parts, parts.dropFirst()) { #expect(previous.endChunk == next.firstChunk) }
        for part in parts {
            #expect(part.words >= SectionParts.defaultWords / 2)
            #expect(part.words < SectionParts.defaultWords * 2 + 200)
        }
    }

    @Test func aSectionAtTheThresholdIsOnePart() {
        #expect(SectionParts.split(chunkWords: [1_000, 1_000]).count == 1)
        #expect(SectionParts.split(chunkWords: [1_000, 1_000, 1]).count == 1, "a 1-word tail folds back")
        #expect(SectionParts.split(chunkWords: [1_000, 1_000, 1_000]).count == 2)
    }

    @Test func recordedPartsAreUsedAgainOnlyWhenTheyFit() {
        let parts = SectionParts.split(chunkWords: [60, 60, 60, 60], partWords: 100)
        func record(_ index: Int, first: Int, end: Int, text: String = "t", settings: String = "s") -> PartRecord {
            PartRecord(
                index: index, firstChunk: first, endChunk: end, file: SectionParts.fileName(section: 3, index: index),
                frames: 10, sampleRate: 8000, bytes: 20, textSHA256: text, settingsSHA256: settings)
        }
        let recorded = [
            record(0, first: 0, end: 2), record(1, first: 2, end: 3), record(1, first: 2, end: 4, text: "old"),
            record(1, first: 2, end: 4, settings: "other"), record(2, first: 4, end: 5),
        ]
        let kept = SectionParts.reusable(recorded, parts: parts, textSHA256: "t", settingsSHA256: "s")
        #expect(kept == [record(0, first: 0, end: 2)])
    }

    @Test func partFileNamesAreOursAndSortInOrder() {
        #expect(SectionParts.fileName(section: 7, index: 3) == ".epub2audio-part-007-003.pcm")
        #expect(SectionParts.tempFileName(section: 7, index: 3).hasPrefix(AtomicFile.tempPrefix))
        #expect(!OutputFolder.isOurPartFile(SectionParts.fileName(section: 7, index: 3)))
    }

    // MARK: - The queue

    @Test func aSlotWaitsForTheSplitOfASectionAnotherSlotTook() throws {
        let job = WorkerJob(
            book: BookInput(path: "/book.epub"), section: 1, settings: AudioSettings(voice: VoiceSettings(voice: "x")),
            partPath: "/out/001 - One.wav.part", tags: AudioTags())
        let section = PlannedSection(number: 1, title: "One", words: 5_000)
        let planned = SectionTask(section: section, job: job, settingsSHA256: "", file: "001 - One.wav")
        let queue = WorkQueue([.section(ConversionPlan.SectionToMake(section: section, file: "001 - One.wav"))])
        guard case .section = queue.next() else {
            Issue.record("the section comes first")
            return
        }
        // The queue is empty, but the section just taken may add parts: another slot waits.
        let taken = Mutex<[Int]>([])
        let finished = DispatchSemaphore(value: 0)
        let slot = Thread {
            while let item = queue.next() {
                if case .part(_, let part) = item { taken.withLock { $0.append(part.index) } }
            }
            finished.signal()
        }
        slot.start()
        #expect(finished.wait(timeout: .now() + 0.2) == .timedOut, "the other slot must not end yet")
        let parts = SectionParts.split(chunkWords: [2_000, 2_000, 1_000])
        let parted = PartedSection(task: planned, parts: parts, chunks: [], textSHA256: "", reused: [])
        queue.sectionTaken(adding: parts.map { .part(parted, $0) })
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(taken.withLock { $0 } == [0, 1, 2], "longest first, then in order")
        #expect(queue.next() == nil)
    }

    // MARK: - Joining

    @Test func partsAreJoinedInTheirOrder() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        var paths: [String] = []
        for index in 0..<3 {
            let path = sandbox.output + "/" + SectionParts.fileName(section: 1, index: index)
            let sink = try PCMPartSink(path: path)
            let samples = (0..<70_000).map { Int16(truncatingIfNeeded: $0 * (index + 1) - 30_000) }
            try samples.withUnsafeBufferPointer { try sink.write($0) }
            try sink.writeSilence(frames: index)
            try sink.close()
            paths.append(path)
        }
        let sink = MemoryAudioSink(sampleRate: 8000)
        let frames = try PCMPartJoiner.copy(paths, into: sink)
        var expected: [Int16] = []
        for index in 0..<3 {
            expected += (0..<70_000).map { Int16(truncatingIfNeeded: $0 * (index + 1) - 30_000) }
            expected += Array(repeating: 0, count: index)
        }
        #expect(frames == expected.count)
        #expect(sink.samples == expected)
    }

    // MARK: - Conversions with the fake engine

    /// Partial words per part: section 3 (60 sentences of 10 words) is made in parts, the others whole.
    static let partWords = 100

    static func book() -> FakeSource {
        var source = FakeSource.make(count: 4)
        let sentences = (0..<60).map { n in "Sentence \(n) has exactly ten words in it, count them." }
        source.texts[3] =
            [
                SpokenBlock(kind: .title, text: "Chapter 3", source: SourcePosition(spineIndex: 3, blockIndex: 0))
            ]
            + stride(from: 0, to: sentences.count, by: 6).enumerated().map { block, start in
                SpokenBlock(
                    kind: .paragraph, text: sentences[start..<start + 6].joined(separator: " "),
                    source: SourcePosition(spineIndex: 3, blockIndex: block + 1))
            }
        source.sections[2].words = 602
        return source
    }

    func request(_ sandbox: Sandbox, output: String? = nil, jobs: Int) -> ConversionRequest {
        var request = sandbox.request(output: output, jobs: jobs)
        request.partWords = Self.partWords
        return request
    }

    /// The section files of a folder, by name.
    func audio(_ sandbox: Sandbox, _ directory: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in sandbox.files(in: directory) where name.hasSuffix(".wav") {
            files[name] = sandbox.contents(name, in: directory)
        }
        return files
    }

    @Test func theSameBytesWhateverTheJobsAndInProcess() async throws {
        let sandbox = try Sandbox()
        let source = Self.book()
        let env = environment(source: source)
        let log = EventLog()
        _ = try await Converter(environment: env).run(
            request(sandbox, output: sandbox.root + "/in-process", jobs: 1), onEvent: log.append)
        for jobs in [1, 2, 3] {
            _ = try await threadConverter(env).run(request(sandbox, output: sandbox.root + "/jobs\(jobs)", jobs: jobs))
        }
        let reference = audio(sandbox, sandbox.root + "/in-process")
        #expect(reference.count == 3)
        for jobs in [1, 2, 3] {
            let directory = sandbox.root + "/jobs\(jobs)"
            #expect(audio(sandbox, directory) == reference, "jobs \(jobs)")
            #expect(!sandbox.files(in: directory).contains { $0.hasPrefix(".epub2audio") }, "no part left")
            let manifest = try sandbox.manifest(in: directory)
            #expect(manifest.sections.allSatisfy { $0.parts == nil })
            #expect(manifest.sections.map(\.status) == [.skipped, .done, .done, .done])
        }
        // The parted section reports as one: started once, done once, progress up to its words.
        let events = log.all
        #expect(events.filter { if case .sectionStarted(3, _) = $0 { true } else { false } }.count == 1)
        #expect(log.sectionDone.filter { $0.section == 3 }.count == 1)
        let progress = events.compactMap { event -> (Int, Int)? in
            if case .progress(3, let done, let total, _) = event { return (done, total) }
            return nil
        }
        #expect(progress.map(\.0) == progress.map(\.0).sorted(), "monotonic")
        #expect(Set(progress.map(\.1)).count == 1)
        #expect(progress.last.map { $0.0 == $0.1 } == true)
        // One writer pass: the file's PCM is every part's, and its duration is what the manifest says.
        let manifest = try sandbox.manifest(in: sandbox.root + "/in-process")
        let record = try #require(manifest.section(3))
        let data = try #require(reference[record.file ?? ""])
        #expect(Int64(data.count) == record.bytes)
        #expect(record.frames.map { $0 * 2 < data.count } == true)
    }

    @Test func partsMadeInOneProcessDifferFromTheWholeSectionWithAStatefulEngine() async throws {
        // Guards the test above: with parts of the whole section's size, the file differs (the fake
        // engine's state carries over within a part), so equal files above mean parts were made.
        let sandbox = try Sandbox()
        let env = environment(source: Self.book())
        _ = try await Converter(environment: env).run(request(sandbox, output: sandbox.root + "/parts", jobs: 1))
        var whole = sandbox.request(output: sandbox.root + "/whole", jobs: 1)
        whole.partWords = 10_000
        _ = try await Converter(environment: env).run(whole)
        let parts = audio(sandbox, sandbox.root + "/parts")
        let wholeFiles = audio(sandbox, sandbox.root + "/whole")
        #expect(parts["003 - Chapter 3.wav"] != wholeFiles["003 - Chapter 3.wav"])
        #expect(parts["003 - Chapter 3.wav"]?.count == wholeFiles["003 - Chapter 3.wav"]?.count)
        #expect(parts["002 - Chapter 2.wav"] == wholeFiles["002 - Chapter 2.wav"])
    }

    @Test func aHalfDoneSectionResumesFromItsRecordedParts() async throws {
        let sandbox = try Sandbox()
        let env = environment(source: Self.book())
        _ = try await threadConverter(env).run(request(sandbox, output: sandbox.root + "/clean", jobs: 2))

        // Part 2 of section 3 kills its worker, twice: the section fails with some parts recorded.
        let first = try await threadConverter(env, dieOnJob: { $0.section == 3 && $0.part?.index == 2 }).run(
            request(sandbox, jobs: 2))
        #expect(first.sectionsFailed == 1)
        let failed = try #require(try sandbox.manifest().section(3))
        #expect(failed.status == .failed)
        let recorded = try #require(failed.parts)
        #expect(!recorded.isEmpty && !recorded.contains { $0.index == 2 })
        for part in recorded { #expect(sandbox.files().contains(part.file)) }
        #expect(!sandbox.files().contains { $0.hasSuffix(".part") }, "the section's file, begun, was abandoned")
        // A stray part file nobody records goes at the next start.
        try Data([1, 2]).write(
            to: URL(fileURLWithPath: sandbox.output + "/" + SectionParts.fileName(section: 9, index: 0)))

        let seen = Mutex<[WorkerJob]>([])
        let second = try await threadConverter(
            env,
            dieOnJob: { job in
                seen.withLock { $0.append(job) }
                return false
            }
        ).run(request(sandbox, jobs: 2))
        #expect(second.sectionsDone == 1 && second.sectionsFailed == 0)
        let made = seen.withLock { $0 }
        #expect(made.allSatisfy { $0.section == 3 && $0.part != nil }, "only the missing parts")
        let remade = Set(made.compactMap { $0.part?.index })
        let kept = Set(recorded.map(\.index))
        #expect(remade.intersection(kept).isEmpty)
        #expect(remade.contains(2))
        #expect(audio(sandbox, sandbox.output) == audio(sandbox, sandbox.root + "/clean"))
        #expect(!sandbox.files().contains { $0.hasPrefix(".epub2audio") })
        #expect(try sandbox.manifest().section(3)?.parts == nil)
    }

    @Test func recordedPartsOfAnotherTextAreRemadeAndRemoved() async throws {
        let sandbox = try Sandbox()
        var changed = Self.book()
        changed.texts[3]?[1].text = "A different opening sentence of ten words, all of them new."
        _ = try await threadConverter(environment(source: changed), dieOnJob: { $0.part?.index == 2 }).run(
            request(sandbox, jobs: 2))
        let stale = try #require(try sandbox.manifest().section(3)?.parts)
        #expect(!stale.isEmpty)

        let seen = Mutex<Set<Int>>([])
        _ = try await threadConverter(
            environment(source: Self.book()),
            dieOnJob: { job in
                if let part = job.part { seen.withLock { _ = $0.insert(part.index) } }
                return false
            }
        ).run(request(sandbox, jobs: 2))
        let parts = SectionParts.split(
            WorkerSession.chunks(
                section: 3, blocks: try Self.book().blocks(section: 3), settings: ChunkerOptions()),
            partWords: Self.partWords)
        #expect(seen.withLock { $0 } == Set(parts.map(\.index)), "every part made again")
        _ = try await threadConverter(environment(source: Self.book())).run(
            request(sandbox, output: sandbox.root + "/clean", jobs: 1))
        #expect(audio(sandbox, sandbox.output) == audio(sandbox, sandbox.root + "/clean"))
        #expect(!sandbox.files().contains { $0.hasPrefix(".epub2audio") })
    }
}

/// Deterministic word counts for chunks (a small linear congruential generator).
struct SeededWords {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % 120 + 1
    }
}
