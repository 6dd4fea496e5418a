import Contracts
import Foundation
import Synchronization
import Testing

@testable import Conversion

@Suite struct ConverterTests {
    @Test func convertsSelectedSectionsWithManifestAndPlaylist() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 4, titles: [3: "Part/Three: The End?"])
        let log = EventLog()
        let summary = try await Converter(environment: environment(source: source)).run(
            sandbox.request(), onEvent: log.append)

        #expect(
            sandbox.files() == [
                "002 - Chapter 2.wav", "003 - Part-Three - The End.wav", "004 - Chapter 4.wav", "manifest.json",
                "playlist.m3u",
            ])
        #expect(summary.sectionsDone == 3)
        #expect(summary.sectionsFailed == 0)
        #expect(summary.sectionsSkipped == 0)

        let manifest = try sandbox.manifest()
        #expect(manifest.version == Manifest.currentVersion)
        #expect(manifest.journal == nil)
        #expect(manifest.book.title == "The Test Book")
        #expect(manifest.book.authors == ["A. Author", "B. Writer"])
        #expect(manifest.book.sha256 == SHA256.hex("PK fake epub bytes"))
        #expect(manifest.settings?.voice.voice == "en-test")
        #expect(manifest.sections.map(\.status) == [.skipped, .done, .done, .done])
        for record in manifest.sections.dropFirst() {
            let file = try #require(record.file)
            let data = try #require(sandbox.contents(file))
            #expect(record.bytes == Int64(data.count))
            #expect(record.textSHA256 == SpokenTextFingerprint.sha256(try source.blocks(section: record.number)))
            #expect(record.started != nil && record.finished != nil)
            // Duration follows the text: bytes of PCM (after the header) over 2 bytes per frame at 8 kHz.
            let header = data.prefix(while: { _ in true }).split(
                separator: 0x0A, maxSplits: 5, omittingEmptySubsequences: false)
            let headerBytes = header.prefix(5).reduce(0) { $0 + $1.count + 1 }
            #expect(abs((record.durationSeconds ?? 0) - Double(data.count - headerBytes) / 2 / 8000) < 1e-9)
        }
        // Longer sections (more words) last longer.
        let durations = manifest.sections.dropFirst().map { $0.durationSeconds ?? 0 }
        #expect(durations == durations.sorted())

        let playlist = String(decoding: try #require(sandbox.contents("playlist.m3u")), as: UTF8.self)
        let lines = playlist.split(separator: "\n")
        #expect(lines.first == "#EXTM3U")
        #expect(lines.count == 7)
        #expect(lines[1].hasPrefix("#EXTINF:") && lines[1].hasSuffix(",Chapter 2"))
        #expect(lines[2] == "002 - Chapter 2.wav")
        #expect(lines[4] == "003 - Part-Three - The End.wav")

        let events = log.all
        #expect(
            events.first
                == .bookStarted(
                    title: "The Test Book", sections: 3, words: source.sections.dropFirst().reduce(0) { $0 + $1.words })
        )
        guard case .bookDone = events.last else {
            Issue.record("last event is not bookDone: \(String(describing: events.last))")
            return
        }
        #expect(log.sectionDone.map(\.section).sorted() == [2, 3, 4])
        #expect(events.contains { if case .progress(3, _, _, _) = $0 { true } else { false } })
    }

    @Test func tagsAreWrittenIntoEachFile() async throws {
        let sandbox = try Sandbox()
        _ = try await Converter(environment: environment(source: .make(count: 2))).run(sandbox.request())
        let header = String(decoding: try #require(sandbox.contents("002 - Chapter 2.wav")).prefix(80), as: UTF8.self)
        #expect(
            header.hasPrefix("FAKE 8000 wav\nChapter 2\nThe Test Book\nA. Author, B. Writer\n1/1\n"),
            "track n/total among the folder's files: section 2 is the only one planned")
    }

    @Test func rerunSkipsDoneSectionsAndRedoesChangedOnes() async throws {
        let sandbox = try Sandbox()
        var source = FakeSource.make(count: 4)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        let before = try sandbox.manifest()

        let log = EventLog()
        let again = try await Converter(environment: environment(source: source)).run(
            sandbox.request(), onEvent: log.append)
        #expect(again.sectionsSkipped == 3)
        #expect(again.sectionsDone == 0)
        #expect(log.sectionDone.allSatisfy { $0.skipped })
        #expect(try sandbox.manifest().sections.map(\.finished) == before.sections.map(\.finished))

        // Change the text of section 3 only.
        source.texts[3]![1].text = "Completely different words now."
        let log2 = EventLog()
        let third = try await Converter(environment: environment(source: source)).run(
            sandbox.request(), onEvent: log2.append)
        #expect(third.sectionsDone == 1)
        #expect(third.sectionsSkipped == 2)
        #expect(log2.sectionDone.filter { !$0.skipped }.map(\.section) == [3])
        let after = try sandbox.manifest()
        #expect(after.section(3)?.textSHA256 != before.section(3)?.textSHA256)
        #expect(after.section(2)?.finished == before.section(2)?.finished)
    }

    @Test func missingOrTruncatedFileIsRedone() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 3)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        let original = try #require(sandbox.contents("003 - Chapter 3.wav"))
        try FileManager.default.removeItem(atPath: sandbox.output + "/002 - Chapter 2.wav")
        try original.prefix(100).write(to: URL(fileURLWithPath: sandbox.output + "/003 - Chapter 3.wav"))
        let summary = try await Converter(environment: environment(source: source)).run(sandbox.request())
        #expect(summary.sectionsDone == 2)
        #expect(sandbox.contents("003 - Chapter 3.wav") == original)
        #expect(sandbox.files().contains("002 - Chapter 2.wav"))
    }

    @Test func settingsChangeRedoesEverything() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 3)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        let before = try #require(sandbox.contents("002 - Chapter 2.wav"))
        var request = sandbox.request()
        request.voice.rate = 200
        let summary = try await Converter(environment: environment(source: source)).run(request)
        #expect(summary.sectionsDone == 2)
        #expect(summary.sectionsSkipped == 0)
        #expect(sandbox.contents("002 - Chapter 2.wav") != before)
        var pauses = request
        pauses.chunking.sectionEndMS += 100
        #expect(try await Converter(environment: environment(source: source)).run(pauses).sectionsDone == 2)
    }

    @Test func forceRedoesEverythingWithIdenticalBytes() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 3)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        let before = try #require(sandbox.contents("003 - Chapter 3.wav"))
        var request = sandbox.request()
        request.force = true
        let summary = try await Converter(environment: environment(source: source)).run(request)
        #expect(summary.sectionsDone == 2)
        #expect(summary.sectionsSkipped == 0)
        #expect(sandbox.contents("003 - Chapter 3.wav") == before)
    }

    @Test func formatChangeWritesNewFilesAndKeepsPlaylistInStep() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 2)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        var request = sandbox.request()
        request.encoding = AudioEncoding(format: .flac)
        _ = try await Converter(environment: environment(source: source)).run(request)
        // The old file was ours (recorded in the manifest) and is replaced by the new one.
        #expect(sandbox.files() == ["002 - Chapter 2.flac", "manifest.json", "playlist.m3u"])
        let playlist = String(decoding: try #require(sandbox.contents("playlist.m3u")), as: UTF8.self)
        #expect(playlist.hasSuffix("002 - Chapter 2.flac\n"))
    }

    @Test func selectionByNumbersAndUnknownSection() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 4)
        var request = sandbox.request()
        request.selection = .numbers([1, 4])
        _ = try await Converter(environment: environment(source: source)).run(request)
        #expect(try sandbox.manifest().sections.map(\.status) == [.done, .skipped, .skipped, .done])
        request.selection = .numbers([9])
        await #expect(throws: ConversionError.unknownSection(9)) {
            try await Converter(environment: environment(source: source)).run(request)
        }
        request.selection = .all
        let all = try await Converter(environment: environment(source: source)).run(request)
        #expect(all.sectionsDone == 2)
        #expect(all.sectionsSkipped == 2)
    }

    @Test(arguments: [1, 2, 3, 8])
    func outputIsIdenticalForAnyNumberOfJobs(jobs: Int) async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 6)
        let one = sandbox.root + "/one"
        let many = sandbox.root + "/many"
        var request = sandbox.request(output: one, jobs: 1)
        request.selection = .all
        _ = try await Converter(environment: environment(source: source)).run(request)
        request.outputDirectory = many
        request.jobs = jobs
        let counters = Counters()
        let summary = try await threadConverter(environment(source: source, counters: counters)).run(request)
        #expect(summary.sectionsDone == 6)
        // Workers were really used: a fresh worker (so a fresh engine) for every section.
        #expect(counters.enginesMade.load(ordering: .relaxed) == 6)
        let names = sandbox.files(in: one).filter { $0.hasSuffix(".wav") }
        #expect(names.count == 6)
        #expect(sandbox.files(in: many) == sandbox.files(in: one))
        for name in names + ["playlist.m3u"] {
            #expect(sandbox.contents(name, in: one) == sandbox.contents(name, in: many), "\(name)")
        }
    }

    @Test(arguments: [1, 2])
    func eachSectionsTextIsExtractedOnce(jobs: Int) async throws {
        let sandbox = try Sandbox()
        var source = FakeSource.make(count: 4)
        let counter = ExtractionCounter()
        source.extractions = counter
        var request = sandbox.request(jobs: jobs)
        request.selection = .all
        // Workers (on threads) get the text with their job and never extract it again.
        _ = try await threadConverter(environment(source: source)).run(request)
        #expect(counter.all == [1: 1, 2: 1, 3: 1, 4: 1])
        // A re-run reads each text once, to compare its hash; a changed one is made from that same read.
        source.texts[3]![1].text = "A new text for chapter three."
        let summary = try await threadConverter(environment(source: source)).run(request)
        #expect(summary.sectionsDone == 1)
        #expect(summary.sectionsSkipped == 3)
        #expect(counter.all == [1: 2, 2: 2, 3: 2, 4: 2])
    }

    @Test func aSectionWhoseTextCannotBeReadFailsAndTheRestGoesOn() async throws {
        let sandbox = try Sandbox()
        var source = FakeSource.make(count: 4)
        source.texts[3] = nil
        let log = EventLog()
        let summary = try await Converter(environment: environment(source: source)).run(
            sandbox.request(), onEvent: log.append)
        #expect(summary.sectionsFailed == 1)
        #expect(summary.sectionsDone == 2)
        let record = try #require(try sandbox.manifest().section(3))
        #expect(record.status == .failed)
        #expect(record.error?.contains("cannot read the section's text") == true)
        #expect(log.all.contains { if case .error(3, _) = $0 { true } else { false } })
    }

    @Test func aFailingSectionIsRecordedAndTheRestGoesOn() async throws {
        let sandbox = try Sandbox()
        var source = FakeSource.make(count: 4)
        source.texts[3]![1].text = "This will FAIL."
        let log = EventLog()
        let summary = try await Converter(environment: environment(source: source)).run(
            sandbox.request(), onEvent: log.append)
        #expect(summary.sectionsFailed == 1)
        #expect(summary.sectionsDone == 2)
        let record = try #require(try sandbox.manifest().section(3))
        #expect(record.status == .failed)
        #expect(record.error?.contains("cannotSpeak") == true)
        #expect(log.all.contains { if case .error(3, _) = $0 { true } else { false } })
        #expect(!sandbox.files().contains { $0.hasPrefix("003") })
    }

    @Test func aDeadWorkerIsRetriedOnce() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 4)
        let deaths = Atomic<Int>(0)
        let deathCount = Counter()
        let converter = threadConverter(environment(source: source)) { job in
            job.section == 3 && deathCount.next() == 0
        }
        _ = deaths
        var request = sandbox.request(jobs: 2)
        let log = EventLog()
        let summary = try await converter.run(request, onEvent: log.append)
        #expect(summary.sectionsDone == 3)
        #expect(log.all.contains { if case .warning(let m) = $0 { m.contains("section 3") } else { false } })

        // A worker that dies every time: the section fails after one retry, the others are done.
        let sandbox2 = try Sandbox()
        request = sandbox2.request(jobs: 2)
        let always = threadConverter(environment(source: source)) { $0.section == 4 }
        let failing = try await always.run(request)
        #expect(failing.sectionsFailed == 1)
        #expect(failing.sectionsDone == 2)
        let record = try #require(try sandbox2.manifest().section(4))
        #expect(record.status == .failed)
        #expect(record.error?.contains("worker") == true)
        #expect(!sandbox2.files().contains { $0.hasSuffix(".part") })
    }

    @Test(arguments: [1, 3])
    func cancellationStopsQuicklyAndLeavesAConsistentFolder(jobs: Int) async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 6, words: 400)
        // 2 ms per 256-sample buffer: a section takes seconds, so cancellation lands mid-section.
        let env = environment(source: source, delayMicroseconds: 2000)
        // jobs 1: the in-process path; more: workers (on threads, through pipes).
        let converter = jobs == 1 ? Converter(environment: env) : threadConverter(env)
        let started = Flag()
        let request = sandbox.request(jobs: jobs)
        // The first progress event cancels the run from the converter's own thread: waiting for this
        // test to wake up on a busy cooperative pool let the whole conversion finish first (2 cores).
        let running = Locked<Task<ConversionSummary, any Error>?>(nil)
        let task = Task {
            try await converter.run(request) { event in
                if case .progress = event {
                    started.set()
                    running.value?.cancel()
                }
            }
        }
        running.withLock { $0 = task }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        let cancelledAt = Date()
        task.cancel()
        await #expect(throws: ConversionError.cancelled) { try await task.value }
        // Generous here: resuming this test needs a thread of Swift's shared pool, which other tests may
        // keep busy; `theCoordinatorStopsWithinASecond` measures the stop itself.
        #expect(Date().timeIntervalSince(cancelledAt) < 5.0)

        let manifest = try sandbox.manifest()
        #expect(!manifest.sections.contains { $0.status == .inProgress })
        #expect(!sandbox.files().contains { $0.hasSuffix(".part") || $0.hasPrefix(".") })
        for record in manifest.sections where record.status == .done {
            #expect(sandbox.contents(record.file!)?.count == Int(record.bytes!))
        }

        // A re-run finishes the job with the same bytes as an uninterrupted run.
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        let clean = sandbox.root + "/clean"
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request(output: clean))
        #expect(sandbox.files() == sandbox.files(in: clean))
        for name in sandbox.files() where name.hasSuffix(".wav") || name == "playlist.m3u" {
            #expect(sandbox.contents(name) == sandbox.contents(name, in: clean), "\(name)")
        }
    }

    @Test(arguments: [false, true])
    func theCoordinatorStopsWithinASecond(workers: Bool) throws {
        let sandbox = try Sandbox()
        let env = environment(source: FakeSource.make(count: 6, words: 400), delayMicroseconds: 2000)
        let run = ConversionRun(
            request: sandbox.request(jobs: workers ? 3 : 1), environment: env,
            launcher: workers ? ThreadWorkerLauncher(environment: env) : nil)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<String>("")
        Thread {
            do {
                _ = try run.run { event in
                    if case .progress = event { started.signal() }
                }
                outcome.withLock { $0 = "finished" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            finished.signal()
        }.start()
        started.wait()
        let cancelledAt = Date()
        run.cancel()
        #expect(finished.wait(timeout: .now() + 1) == .success)
        #expect(Date().timeIntervalSince(cancelledAt) < 1.0)
        #expect(outcome.value == "cancelled")
        #expect(!sandbox.files().contains { $0.hasSuffix(".part") })
        #expect(!(try sandbox.manifest().sections.contains { $0.status == .inProgress }))
    }

    @Test func interruptedRunLeftoversAreCleanedAndRedone() async throws {
        // What kill -9 leaves: a section in progress, its .part file, a manifest temp file.
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 3)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        let clean = try #require(sandbox.contents("003 - Chapter 3.wav"))
        var manifest = try sandbox.manifest()
        let index = try #require(manifest.sections.firstIndex { $0.number == 3 })
        manifest.sections[index].status = .inProgress
        try manifest.write(toDirectory: sandbox.output)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: sandbox.output + "/003 - Chapter 3.wav"))
        try Data("partial".utf8).write(to: URL(fileURLWithPath: sandbox.output + "/003 - Chapter 3.wav.part"))
        try Data("{".utf8).write(
            to: URL(fileURLWithPath: sandbox.output + "/" + AtomicFile.tempPrefix + "1-2-manifest.json"))
        let summary = try await Converter(environment: environment(source: source)).run(sandbox.request())
        #expect(summary.sectionsDone == 1)
        #expect(summary.sectionsSkipped == 1)
        #expect(sandbox.contents("003 - Chapter 3.wav") == clean)
        #expect(sandbox.files() == ["002 - Chapter 2.wav", "003 - Chapter 3.wav", "manifest.json", "playlist.m3u"])
    }

    @Test func foreignFilesAreNeverReplacedSilently() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 2)
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        try Data("my music".utf8).write(to: URL(fileURLWithPath: sandbox.output + "/002 - Chapter 2.wav"))
        await #expect(throws: ConversionError.outputNotEmpty(path: sandbox.output)) {
            try await Converter(environment: environment(source: source)).run(sandbox.request())
        }
        #expect(sandbox.contents("002 - Chapter 2.wav") == Data("my music".utf8))

        // With a manifest present, a file at our name that the manifest does not claim is still protected.
        try FileManager.default.removeItem(atPath: sandbox.output + "/002 - Chapter 2.wav")
        try Manifest(book: BookRecord(sha256: SHA256.hex("PK fake epub bytes"))).write(toDirectory: sandbox.output)
        try Data("my music".utf8).write(to: URL(fileURLWithPath: sandbox.output + "/002 - Chapter 2.wav"))
        await #expect(throws: ConversionError.outputNotEmpty(path: sandbox.output + "/002 - Chapter 2.wav")) {
            try await Converter(environment: environment(source: source)).run(sandbox.request())
        }
        #expect(sandbox.contents("002 - Chapter 2.wav") == Data("my music".utf8))

        var request = sandbox.request()
        request.allowNonEmptyOutput = true
        let log = EventLog()
        _ = try await Converter(environment: environment(source: source)).run(request, onEvent: log.append)
        #expect(log.all.contains { if case .warning(let m) = $0 { m.contains("replacing") } else { false } })
        #expect(sandbox.contents("002 - Chapter 2.wav") != Data("my music".utf8))
    }

    @Test func changedBookIsRefusedUnlessForced() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 2)
        _ = try await Converter(environment: environment(source: source)).run(sandbox.request())
        try Data("another book".utf8).write(to: URL(fileURLWithPath: sandbox.book))
        await #expect {
            try await Converter(environment: environment(source: source)).run(sandbox.request())
        } throws: { error in
            if case .bookChanged = error as? ConversionError { return true }
            return false
        }
        var request = sandbox.request()
        request.force = true
        #expect(try await Converter(environment: environment(source: source)).run(request).sectionsDone == 1)
        #expect(try sandbox.manifest().book.sha256 == SHA256.hex("another book"))
    }

    @Test func unwritableOutputFolder() async throws {
        let sandbox = try Sandbox()
        // The parent is a regular file, so the folder cannot be created (even as root).
        var request = sandbox.request(output: sandbox.book + "/out")
        await #expect {
            try await Converter(environment: environment(source: .make(count: 2))).run(request)
        } throws: { error in
            guard case .outputUnwritable(let path, _) = error as? ConversionError else { return false }
            return path == sandbox.book + "/out" && !"\(error)".isEmpty
        }
        request.outputDirectory = sandbox.book
        await #expect {
            try await Converter(environment: environment(source: .make(count: 2))).run(request)
        } throws: { error in
            if case .outputUnwritable(_, let reason) = error as? ConversionError {
                return reason.contains("not a folder")
            }
            return false
        }
    }

    @Test func streamDeliversEventsAndEndsWithBookDone() async throws {
        let sandbox = try Sandbox()
        var names: [String] = []
        for try await event in Converter(environment: environment(source: .make(count: 3))).convert(sandbox.request()) {
            names.append(event.name)
        }
        #expect(names.first == "book-started")
        #expect(names.last == "book-done")
        #expect(names.filter { $0 == "section-done" }.count == 2)
    }
}

/// Hands out 0, 1, 2, ... across threads.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .sequentiallyConsistent).oldValue }
}
