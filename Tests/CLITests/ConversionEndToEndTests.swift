import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tests that synthesize with the real espeak-ng through the built binary. One serialized tree, so
/// they never compete with each other for the machine's cores (timing tests stay meaningful).
@Suite("End to end (real espeak-ng)", .serialized)
struct EndToEnd {}

/// Shared helpers for the conversion tests.
enum Conversions {
    static let lighthouse = BinaryRunner.sample("the-lighthouse-keepers-daughter.epub")

    /// The parsed `--progress json` lines; records an issue for any line that is not a JSON object with `event`.
    static func events(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        var out: [[String: Any]] = []
        for line in stdout.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            guard let object = jsonObject(String(line)), object["event"] is String else {
                Issue.record("not a JSON event line: \(line)", sourceLocation: sourceLocation)
                continue
            }
            out.append(object)
        }
        return out
    }

    static func sectionDone(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == "section-done" }
    }

    /// Section records from the manifest in `directory`, by number.
    static func manifestSections(_ directory: String) throws -> [Int: [String: Any]] {
        try #require(recordedSections(directory), "no valid manifest.json")
    }

    /// Status of each section in the manifest, or nil while there is no valid manifest (for polling).
    static func statuses(_ directory: String) -> [Int: String]? {
        recordedSections(directory)?.mapValues { $0["status"] as? String ?? "?" }
    }

    /// The section records as docs/manifest.md defines them: `manifest.json`, then, while a run is
    /// going on or after it was killed, the records appended to `manifest.journal` when its header
    /// names the manifest's `journal` (the last record of a section wins; a torn last line is ignored).
    static func recordedSections(_ directory: String) -> [Int: [String: Any]]? {
        guard let manifest = jsonObject(file: directory + "/manifest.json"),
            let sections = manifest["sections"] as? [[String: Any]]
        else { return nil }
        var out = Dictionary(
            sections.compactMap { section in (section["number"] as? Int).map { ($0, section) } },
            uniquingKeysWith: { first, _ in first })
        guard let id = manifest["journal"] as? String, let journal = bytes(directory + "/manifest.journal") else {
            return out
        }
        var lines = journal.split(separator: 0x0A, omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a torn line
        guard let header = lines.first.flatMap({ jsonObject(String(decoding: $0, as: UTF8.self)) }),
            header["journal"] as? String == id
        else { return out }
        for line in lines.dropFirst() {
            guard let record = jsonObject(String(decoding: line, as: UTF8.self)), let number = record["number"] as? Int
            else { break }
            if out[number] != nil { out[number] = record }
        }
        return out
    }

    /// The manifest without the keys every run rewrites (`updated`), for "unchanged" comparisons.
    static func stableManifest(_ directory: String) -> NSDictionary? {
        guard var manifest = jsonObject(file: directory + "/manifest.json") else { return nil }
        manifest["updated"] = nil
        return manifest as NSDictionary
    }

    /// The audio files in `directory` and their bytes.
    static func audio(_ directory: String, ext: String = "wav") -> [String: Data] {
        var out: [String: Data] = [:]
        for name in listing(directory) where name.hasSuffix("." + ext) {
            out[name] = bytes(directory + "/" + name)
        }
        return out
    }

    /// A book of `chapters` chapters of about `words` words each, written into `scratch`.
    static func book(
        in scratch: Scratch, name: String = "book.epub", title: String = "The Long Watch", chapters: Int,
        words: Int, quotations: [Int: (language: String, text: String)] = [:]
    ) throws -> String {
        let book = TestBook(
            title: title, authors: ["Ada Keeper"],
            chapters: (1...chapters).map {
                TestBook.Chapter(
                    title: "Chapter \($0)", paragraphs: prose(words: words, seed: $0), quotation: quotations[$0])
            })
        let url = scratch.file(name)
        try book.write(to: url)
        return url.path
    }

    /// `.part` files anywhere under `directory`.
    static func partFiles(_ directory: String) -> [String] {
        tree(directory).filter { $0.hasSuffix(".part") }
    }

    /// A clean, uninterrupted run of the long book (4 chapters × ~700 words, `--jobs 1`): the reference
    /// the kill and Ctrl-C tests compare with. Made once.
    static func longReference() async throws -> Reference {
        try await ReferenceCache.shared.get {
            let scratch = try Scratch("long-reference")
            // The cache lives as long as the process: remove the folder when the test process exits.
            referenceFolder = scratch.path
            atexit { if let folder = referenceFolder { try? FileManager.default.removeItem(atPath: folder) } }
            let book = try Conversions.book(in: scratch, chapters: 4, words: 700)
            let out = scratch.file("clean").path
            let result = try await BinaryRunner.run(
                [book, "-o", out, "--jobs", "1", "--progress", "none"], timeout: 90)
            guard result.status == 0 else { throw ReferenceFailed(stderr: result.stderr) }
            return Reference(book: book, audio: audio(out), scratch: scratch)
        }
    }

    struct Reference: Sendable {
        var book: String
        var audio: [String: Data]
        var scratch: Scratch
    }

    /// Makes the reference once (the tests using it are serialized).
    actor ReferenceCache {
        static let shared = ReferenceCache()
        private var value: Reference?

        func get(_ make: @Sendable () async throws -> Reference) async throws -> Reference {
            if let value { return value }
            let made = try await make()
            value = made
            return made
        }
    }

    struct ReferenceFailed: Error { var stderr: String }
}

/// The long reference's folder, removed at exit (written once, before `atexit` can read it).
nonisolated(unsafe) private var referenceFolder: String?

extension EndToEnd {
    @Suite("Conversion of sample sections")
    struct Conversion {
        @Test("--chapters 9, then --chapters 13 into the same folder: the playlist lists both, in book order")
        func playlistKeepsEarlierRuns() async throws {
            let scratch = try Scratch("playlist-runs")
            let out = scratch.file("out").path
            for chapter in ["13", "9"] {
                let result = try await BinaryRunner.run(
                    [Conversions.lighthouse, "--chapters", chapter, "-o", out, "--progress", "none"], timeout: 60)
                #expect(result.status == 0, "\(result.stderr)")
            }
            let playlist = try #require(bytes(out + "/playlist.m3u")).utf8String
            let files = playlist.split(separator: "\n").filter { $0.hasSuffix(".wav") }
            #expect(
                files == [
                    "009 - Chapter 1 - The Hundred and Twelve Steps.wav", "013 - Chapter 4 - What the Sea Brought.wav",
                ], "\(playlist)")
        }

        @Test("--chapters 9,13: files, playlist, manifest and WAV headers agree")
        func convertTwoSections() async throws {
            let scratch = try Scratch("convert")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "9,13", "-o", out], timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.timedOut)
            #expect(listing(scratch.path) == ["out"], "nothing outside the output folder")

            let files = [
                "009 - Chapter 1 - The Hundred and Twelve Steps.wav", "013 - Chapter 4 - What the Sea Brought.wav",
            ]
            // The book's cover (a PNG) beside the sections, for players that show a folder's cover.
            #expect(listing(out) == (files + ["cover.png", "manifest.json", "playlist.m3u"]).sorted())
            #expect(bytes(out + "/cover.png")?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)

            // manifest.json: valid, done for the two, skipped for the rest.
            let manifest = try #require(jsonObject(file: out + "/manifest.json"))
            #expect(manifest["version"] as? Int == 2)
            let voice = try #require((manifest["settings"] as? [String: Any])?["voice"] as? [String: Any])
            let rate = try #require(voice["rate"] as? Int)
            #expect(rate == 175)
            let sections = try Conversions.manifestSections(out)
            #expect(sections.count == 20)
            for (number, section) in sections {
                let expected = [9, 13].contains(number) ? "done" : "skipped"
                #expect(section["status"] as? String == expected, "section \(number)")
            }

            // Playlist: in book order, #EXTINF with the rounded duration and the title, then the file.
            let playlist = try #require(bytes(out + "/playlist.m3u")).utf8String
            let lines = playlist.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "#EXTM3U")
            #expect(lines.count == 1 + 2 * files.count + 1, "\(playlist)")  // trailing newline
            for (index, (number, file)) in zip([9, 13], files).enumerated() {
                let section = try #require(sections[number])
                let duration = try #require(section["durationSeconds"] as? Double)
                let title = try #require(section["title"] as? String)
                #expect(lines[1 + 2 * index] == "#EXTINF:\(Int(duration.rounded())),\(title)")
                #expect(lines[2 + 2 * index] == file)
                #expect(section["file"] as? String == file)

                // The WAV header: PCM 22050 Hz mono 16-bit; frames agree with the manifest's duration.
                let data = try #require(bytes(out + "/" + file))
                #expect(section["bytes"] as? Int == data.count)
                let wav = try readWAV(data)
                #expect(wav.format == 1 && wav.channels == 1 && wav.sampleRate == 22050 && wav.bitsPerSample == 16)
                #expect(abs(wav.seconds - duration) < 0.001, "header \(wav.seconds) s, manifest \(duration) s")
                // Duration roughly follows the words at the rate.
                let words = try #require(section["words"] as? Int)
                let expected = Double(words) / Double(rate) * 60
                #expect(
                    wav.seconds > 0.4 * expected && wav.seconds < 2.5 * expected, "\(wav.seconds) s for \(words) words")
                // Real sound, not silence: some samples well away from zero.
                let loud = stride(from: data.count - wav.dataBytes, to: data.count - 1, by: 2).contains { offset in
                    abs(Int(Int16(bitPattern: UInt16(data[offset]) | UInt16(data[offset + 1]) << 8))) > 3000
                }
                #expect(loud, "\(file) sounds silent")
            }
        }

        @Test("--progress json: JSON lines, book-started first, book-done last, one section-done each")
        func progressJSON() async throws {
            let scratch = try Scratch("progress")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "9,13", "-o", out, "--progress", "json", "--jobs", "2"])
            #expect(result.status == 0, "\(result.stderr)")
            let events = Conversions.events(result.stdout)
            #expect(events.first?["event"] as? String == "book-started")
            #expect(events.last?["event"] as? String == "book-done")
            #expect(events.first?["sections"] as? Int == 2)
            let done = Conversions.sectionDone(events)
            #expect(Set(done.compactMap { $0["section"] as? Int }) == [9, 13])
            #expect(done.count == 2)
            #expect(events.last?["sectionsDone"] as? Int == 2)
            for event in done {
                let file = try #require(event["file"] as? String)
                #expect(FileManager.default.fileExists(atPath: out + "/" + file))
                #expect(event["skipped"] as? Bool == false)
            }
            // Nothing but JSON on stdout; stderr carries no progress in this mode.
            #expect(!result.stderr.contains("[1/2]"))
        }

        @Test(
            "progress, plain and on a terminal: the title and authors first, then a line per section, names in one column"
        )
        func progressPlain() async throws {
            let scratch = try Scratch("progress-plain")
            let out = scratch.file("out").path
            // Twelve sections: the counter grows from one digit to two, the names must not move.
            let book = TestBook(
                title: "The Counted Lamp", authors: ["Ada Keeper", "Tom Wick"],
                chapters: (1...12).map {
                    TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: 8 + 6 * ($0 % 3), seed: $0))
                })
            let url = scratch.file("book.epub")
            try book.write(to: url)
            let result = try await BinaryRunner.run([url.path, "-o", out, "--progress", "plain"], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(
                lines.first?.hasPrefix("The Counted Lamp · Ada Keeper and Tom Wick · 12 sections · ") == true,
                "\(lines.first ?? "")")
            let sectionLines = lines.filter { $0.hasPrefix("[") }
            #expect(sectionLines.count == 12, "\(result.stderr)")
            let columns = Set(sectionLines.compactMap { $0.range(of: " - Chapter ")?.lowerBound.utf16Offset(in: $0) })
            #expect(
                columns.count == 1,
                "the file names start in different columns:\n\(sectionLines.joined(separator: "\n"))")

            // On a terminal (script(1) gives the run one): the finished sections' lines under the
            // bar have the same columns, the names last.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
            let terminal = scratch.file("terminal.txt").path
            let command = [BinaryRunner.binary, url.path, "-o", scratch.file("out-tty").path]
                .map { "'\($0)'" }.joined(separator: " ")
            let run = try runShell("/usr/bin/script -qec \"\(command)\" '\(terminal)' > /dev/null")
            #expect(run.status == 0, "\(run.stderr)")
            // Without the escape sequences that clear the bar's line before each of these.
            let screen = try String(contentsOfFile: terminal, encoding: .utf8)
                .replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
            let finished = screen.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
                .filter { $0.hasPrefix("✓ [") }
            #expect(finished.count == 12, "\(screen)")
            let barColumns = Set(finished.compactMap { $0.range(of: " - Chapter ")?.lowerBound.utf16Offset(in: $0) })
            #expect(barColumns.count == 1, "under the bar:\n\(finished.joined(separator: "\n"))")
            // The bar itself keeps one width as it is redrawn, from "--" for the speed and the
            // time left to their figures, and its fields keep their columns.
            let bars = screen.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
                .filter { $0.contains(" ETA ") }
            #expect(bars.count >= 2, "\(screen)")
            #expect(Set(bars.map(\.count)).count == 1, "bar widths vary:\n\(bars.joined(separator: "\n"))")
            #expect(Set(bars.compactMap { $0.range(of: " audio ")?.lowerBound.utf16Offset(in: $0) }).count == 1)
        }
    }

    @Suite("Resume and determinism")
    struct Resume {
        @Test("a second run finds every section done and touches nothing")
        func secondRunDoesNothing() async throws {
            let scratch = try Scratch("resume")
            let book = try Conversions.book(in: scratch, chapters: 3, words: 120)
            let out = scratch.file("out").path
            let first = try await BinaryRunner.run([book, "-o", out])
            #expect(first.status == 0, "\(first.stderr)")
            let names = Conversions.audio(out).keys.sorted()
            #expect(names.count == 3)
            let before = Dictionary(uniqueKeysWithValues: names.map { ($0, identity(out + "/" + $0)) })
            let manifestBefore = Conversions.stableManifest(out)

            let second = try await BinaryRunner.run([book, "-o", out])
            #expect(second.status == 0, "\(second.stderr)")
            for name in names {
                #expect(
                    second.stderr.contains("\(name) (already done)"), "\(name) not reported as done: \(second.stderr)")
                #expect(identity(out + "/" + name) == before[name], "\(name) was rewritten")
            }
            #expect(Conversions.stableManifest(out) == manifestBefore, "manifest changed beyond `updated`")
            #expect(Conversions.partFiles(out).isEmpty)
            // The summary's audio is what this run made (none); the book's whole audio is said apart.
            let summary = try #require(second.stderr.split(separator: "\n").first { $0.contains("already done ·") })
            #expect(summary.hasPrefix("0 sections made, 3 already done · 0 s of audio in "), "\(summary)")
            #expect(summary.hasSuffix(" in all") && !summary.contains("real time"), "\(summary)")

            // The JSON view of the same: every section-done is skipped.
            let third = try await BinaryRunner.run([book, "-o", out, "--progress", "json"])
            let done = Conversions.sectionDone(Conversions.events(third.stdout))
            #expect(done.count == 3 && done.allSatisfy { $0["skipped"] as? Bool == true })

            // On a terminal (script(1)), under the bar: one line says what was already done.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
            let terminal = scratch.file("terminal.txt").path
            let command = [BinaryRunner.binary, book, "-o", out].map { "'\($0)'" }.joined(separator: " ")
            #expect(try runShell("/usr/bin/script -qec \"\(command)\" '\(terminal)' > /dev/null").status == 0)
            let screen = try String(contentsOfFile: terminal, encoding: .utf8)
            #expect(screen.contains("3 sections already done, kept as they are"), "\(screen)")
        }

        @Test("a deleted file is the only one redone; --force redoes all; a new --rate redoes all")
        func redoRules() async throws {
            let scratch = try Scratch("redo")
            let book = try Conversions.book(in: scratch, chapters: 3, words: 120)
            let out = scratch.file("out").path
            #expect(try await BinaryRunner.run([book, "-o", out]).status == 0)
            let original = Conversions.audio(out)
            let names = original.keys.sorted()
            try #require(names.count == 3)

            // Delete one: only it is made again, byte-identical; the others are left alone.
            let victim = names[1]
            let others = names.filter { $0 != victim }
            let before = Dictionary(uniqueKeysWithValues: others.map { ($0, identity(out + "/" + $0)) })
            try FileManager.default.removeItem(atPath: out + "/" + victim)
            let redo = try await BinaryRunner.run([book, "-o", out, "--progress", "json"])
            #expect(redo.status == 0, "\(redo.stderr)")
            let made = Conversions.sectionDone(Conversions.events(redo.stdout)).filter {
                $0["skipped"] as? Bool == false
            }
            #expect(made.compactMap { $0["file"] as? String } == [victim])
            #expect(bytes(out + "/" + victim) == original[victim], "redone file differs from the first run's")
            for name in others { #expect(identity(out + "/" + name) == before[name], "\(name) was rewritten") }

            // --force: all made again (new files), same bytes.
            let inodes = Dictionary(uniqueKeysWithValues: names.map { ($0, identity(out + "/" + $0)) })
            let forced = try await BinaryRunner.run([book, "-o", out, "--force", "--progress", "json"])
            #expect(forced.status == 0, "\(forced.stderr)")
            let forcedDone = Conversions.sectionDone(Conversions.events(forced.stdout))
            #expect(forcedDone.count == 3 && forcedDone.allSatisfy { $0["skipped"] as? Bool == false })
            for name in names {
                #expect(identity(out + "/" + name) != inodes[name], "\(name) not rewritten by --force")
                #expect(bytes(out + "/" + name) == original[name])
            }

            // Another rate: every section redone, shorter, and the manifest records the new rate.
            let faster = try await BinaryRunner.run([book, "-o", out, "--rate", "260", "--progress", "json"])
            #expect(faster.status == 0, "\(faster.stderr)")
            let fasterDone = Conversions.sectionDone(Conversions.events(faster.stdout))
            #expect(fasterDone.count == 3 && fasterDone.allSatisfy { $0["skipped"] as? Bool == false })
            for name in names {
                let new = try readWAV(try #require(bytes(out + "/" + name)))
                let old = try readWAV(try #require(original[name]))
                #expect(new.seconds < old.seconds * 0.9, "\(name): \(new.seconds) s at 260 wpm vs \(old.seconds) s")
            }
            let manifest = try #require(jsonObject(file: out + "/manifest.json"))
            let voice = (manifest["settings"] as? [String: Any])?["voice"] as? [String: Any]
            #expect(voice?["rate"] as? Int == 260)
        }

        @Test(
            "--jobs 1 and --jobs 2 give byte-identical files, also where the voice switches mid-section",
            arguments: ["wav", "opus"])
        func jobsDoNotChangeBytes(format: String) async throws {
            let scratch = try Scratch("jobs-\(format)")
            // Chapter 2 quotes French and chapter 3 German: the engine switches voice and back.
            let book = try Conversions.book(
                in: scratch, chapters: 3, words: 150,
                quotations: [
                    2: ("fr", "Le vent soufflait sur la mer, et les mouettes criaient au-dessus du phare."),
                    3: ("de", "Der Wind wehte über das Meer, und die Möwen schrien über dem Leuchtturm."),
                ])
            let one = scratch.file("one").path
            let two = scratch.file("two").path
            #expect(try await BinaryRunner.run([book, "-o", one, "--jobs", "1", "--format", format]).status == 0)
            #expect(try await BinaryRunner.run([book, "-o", two, "--jobs", "2", "--format", format]).status == 0)
            let a = Conversions.audio(one, ext: format)
            let b = Conversions.audio(two, ext: format)
            #expect(a.count == 3)
            #expect(a.keys.sorted() == b.keys.sorted())
            for (name, data) in a { #expect(b[name] == data, "\(name) differs between --jobs 1 and --jobs 2") }
            #expect(bytes(one + "/playlist.m3u") == bytes(two + "/playlist.m3u"))
        }

        @Test("kill -9 mid-run, then a re-run: the same bytes as an uninterrupted run")
        func killAndResume() async throws {
            let reference = try await Conversions.longReference()
            let scratch = try Scratch("kill")
            let out = scratch.file("out").path
            let running = try BinaryRunner.start([reference.book, "-o", out, "--jobs", "1", "--progress", "none"])
            // Mid-run: one section finished and the next one being written.
            let midRun = await running.waitUntil(timeout: 30) {
                let done = Conversions.statuses(out)?.values.filter { $0 == "done" }.count ?? 0
                return done >= 1 && !Conversions.partFiles(out).isEmpty
            }
            try #require(midRun, "never saw a finished section and a .part file")
            // What `kill -9 -PGID` does: the CLI's process group dies. Workers live in groups of their
            // own; they are orphaned and must not spoil the folder for the next run.
            let workers = BinaryRunner.descendants(of: running.pid)
            running.send(SIGKILL, toGroup: true)
            let killed = await running.result(timeout: 5)
            #expect(killed.signalled)
            defer { for worker in workers { kill(worker, SIGKILL) } }

            let rerun = try await BinaryRunner.run([reference.book, "-o", out, "--jobs", "1"], timeout: 90)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(rerun.stderr.contains("already done"), "the finished section should be kept")
            let resumed = Conversions.audio(out)
            #expect(resumed.keys.sorted() == reference.audio.keys.sorted())
            for (name, data) in reference.audio {
                #expect(resumed[name] == data, "\(name) differs from the uninterrupted run's")
            }
            #expect(Conversions.partFiles(out).isEmpty)
            let statuses = try Conversions.manifestSections(out).values.compactMap { $0["status"] as? String }
            #expect(statuses.count == 4 && statuses.allSatisfy { $0 == "done" })
        }

        @Test("Ctrl-C: exit 130 within 2 s, no .part files, a consistent manifest, and a re-run completes")
        func interrupt() async throws {
            let reference = try await Conversions.longReference()
            let scratch = try Scratch("sigint")
            let out = scratch.file("out").path
            let running = try BinaryRunner.start([reference.book, "-o", out, "--jobs", "2"])
            let writing = await running.waitUntil(timeout: 30) { !Conversions.partFiles(out).isEmpty }
            try #require(writing, "never saw a .part file")
            // A terminal's Ctrl-C goes to the foreground process group.
            let sent = Date()
            running.send(SIGINT, toGroup: true)
            let result = await running.result(timeout: 10)
            let seconds = Date().timeIntervalSince(sent)
            #expect(result.status == 130, "exit \(result.status): \(result.stderr)")
            #expect(seconds < 2, "took \(seconds) s to stop")
            #expect(result.stderr.contains("interrupted"))
            // Give killed workers a moment to be gone, then look at the folder.
            usleep(200_000)
            #expect(Conversions.partFiles(out).isEmpty, "left: \(Conversions.partFiles(out))")
            let sections = try Conversions.manifestSections(out)
            #expect(sections.count == 4)
            #expect(!sections.values.contains { $0["status"] as? String == "in-progress" })

            let rerun = try await BinaryRunner.run([reference.book, "-o", out, "--jobs", "2"], timeout: 90)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let resumed = Conversions.audio(out)
            for (name, data) in reference.audio {
                #expect(resumed[name] == data, "\(name) differs from the uninterrupted run's")
            }
        }

        @Test("a second run into a folder being written is refused, and the first one completes unharmed")
        func concurrentRuns() async throws {
            let reference = try await Conversions.longReference()
            let scratch = try Scratch("twice")
            let out = scratch.file("out").path
            let first = try BinaryRunner.start([reference.book, "-o", out, "--jobs", "1"])
            try #require(await first.waitUntil(timeout: 30) { !Conversions.partFiles(out).isEmpty })
            let second = try await BinaryRunner.run([reference.book, "-o", out, "--jobs", "1"])
            #expect(second.status == 5, "exit \(second.status): \(second.stderr)")
            #expect(second.errorLines.count == 1)
            #expect(second.errorLines.first?.contains("another epub2audio") == true, "\(second.stderr)")
            let result = await first.result(timeout: 90)
            #expect(result.status == 0, "the first run was disturbed: \(result.stderr)")
            let audio = Conversions.audio(out)
            for (name, data) in reference.audio { #expect(audio[name] == data, "\(name) differs") }
        }

        @Test("SIGINT to the main process alone also stops it cleanly")
        func interruptMainOnly() async throws {
            let reference = try await Conversions.longReference()
            let scratch = try Scratch("sigint-main")
            let out = scratch.file("out").path
            let running = try BinaryRunner.start([reference.book, "-o", out, "--jobs", "2"])
            try #require(await running.waitUntil(timeout: 30) { !Conversions.partFiles(out).isEmpty })
            let workers = BinaryRunner.descendants(of: running.pid)
            let sent = Date()
            running.send(SIGINT)
            let result = await running.result(timeout: 10)
            #expect(result.status == 130, "exit \(result.status): \(result.stderr)")
            #expect(Date().timeIntervalSince(sent) < 2)
            usleep(200_000)
            #expect(Conversions.partFiles(out).isEmpty)
            // No worker outlives the run.
            let alive = workers.filter { kill($0, 0) == 0 && BinaryRunner.isLive($0) }
            #expect(alive.isEmpty, "workers still running: \(alive)")
            for worker in alive { kill(worker, SIGKILL) }
        }
    }
}

extension BinaryRunner {
    /// True while `pid` exists and is not a zombie.
    static func isLive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}

extension Data {
    var utf8String: String { String(decoding: self, as: UTF8.self) }
}
