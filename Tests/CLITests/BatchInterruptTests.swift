import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A folder of books converted in one command: a signal stops it at any book, the same way.
extension EndToEnd {
    @Suite("Batches: an interrupt at any book")
    struct BatchInterrupt {
        /// The titles of the library's books, in the order the batch converts them (file names sort so).
        static let titles = ["First Watch", "Second Watch", "Third Watch"]

        /// Three small books (3 chapters of about 400 words) in `scratch/library`; with `greek`, the
        /// first chapter of the first book quotes Greek (another voice reads it: a warning).
        static func library(in scratch: Scratch, greek: Bool = false) throws -> String {
            let folder = scratch.file("library")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, title) in titles.enumerated() {
                let book = TestBook(
                    title: title, authors: ["Ada Keeper"], identifier: "urn:test:batch-\(index + 1)",
                    chapters: (1...3).map {
                        TestBook.Chapter(
                            title: "Chapter \($0)", paragraphs: prose(words: 400, seed: index * 3 + $0),
                            quotation: greek && index == 0 && $0 == 1
                                ? ("el", "Ο άνεμος φυσούσε πάνω από τη θάλασσα και οι γλάροι φώναζαν.") : nil)
                    })
                try book.write(to: folder.appendingPathComponent("book-\(index + 1).epub"))
            }
            return folder.path
        }

        /// The arguments of every batch run of these tests.
        static func arguments(_ library: String, _ out: String) -> [String] {
            // Slow speech (--rate 80) makes each book last long enough for a signal sent once it has
            // started to land in it, even when the test's own task waits for a thread.
            [library, "-o", out, "--jobs", "1", "--progress", "json", "--rate", "80"]
        }

        /// Every file under `directory` and its bytes, but the manifests (they record when they were written).
        static func files(_ directory: String) -> [String: Data] {
            var out: [String: Data] = [:]
            for path in tree(directory) where !path.hasSuffix("manifest.json") {
                var isDirectory: ObjCBool = false
                let full = directory + "/" + path
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                out[path] = bytes(full)
            }
            return out
        }

        /// The library converted once without interruption.
        static func reference(_ library: String, in scratch: Scratch) async throws -> [String: Data] {
            let out = scratch.file("reference").path
            let result = try await BinaryRunner.run(arguments(library, out), timeout: 120)
            try #require(result.status == 0, "\(result.stderr)")
            let files = files(out)
            try #require(files.keys.filter { $0.hasSuffix(".wav") }.count == 9)
            return files
        }

        /// The report's books, and the whole document.
        static func report(_ path: String) throws -> (books: [[String: Any]], document: [String: Any]) {
            let document = try #require(jsonObject(file: path), "no report at \(path)")
            return (try #require(document["books"] as? [[String: Any]]), document)
        }

        /// Bytes of the WAV files in `directory`.
        static func wavBytes(_ directory: String) -> Int {
            listing(directory).filter { $0.hasSuffix(".wav") }.reduce(0) {
                $0 + (bytes(directory + "/" + $1)?.count ?? 0)
            }
        }

        @Test("--report: every book's status, sections, warnings, audio and files; written after an interrupt too")
        func report() async throws {
            let scratch = try Scratch("batch-report")
            let library = try Self.library(in: scratch, greek: true)
            // Sorted first: a file that is no EPUB, refused.
            try Data("not a zip".utf8).write(to: URL(fileURLWithPath: library + "/book-0.epub"))
            let out = scratch.file("out").path
            let reportPath = scratch.file("report.json").path
            let arguments = Self.arguments(library, out) + ["--report", reportPath]
            // Interrupted while the second real book converts.
            let running = try BinaryRunner.start(arguments)
            let sent = await running.send([SIGTERM], timeout: 60) {
                running.stdoutSoFar.components(separatedBy: "\"event\":\"book-started\"").count - 1 >= 2
            }
            try #require(sent, "the second book never started")
            let interrupted = await running.result(timeout: 30)
            #expect(interrupted.status == 130, "\(interrupted.stderr)")
            var (books, document) = try Self.report(reportPath)
            #expect(document["version"] as? Int == 1)
            #expect(document["exitCode"] as? Int == 130)
            // The signal is sent once the second real book has started; on a loaded machine it may land in
            // the third: the book it landed in is interrupted, those before converted, those after not started.
            let statuses = books.map { $0["status"] as? String ?? "" }
            let stopped = try #require(statuses.firstIndex(of: "interrupted"), "\(statuses)")
            #expect(stopped >= 2, "\(statuses)")
            let expected =
                ["refused"] + Array(repeating: "converted", count: stopped - 1) + ["interrupted"]
                + Array(repeating: "not-started", count: books.count - stopped - 1)
            #expect(statuses == expected)
            #expect(books[0]["exitCode"] as? Int == 3)
            #expect((books[0]["message"] as? String)?.isEmpty == false)
            #expect(books[0]["outputDirectory"] == nil)
            let first = books[1]
            let folder = try #require(first["outputDirectory"] as? String)
            #expect(folder == out + "/" + Self.titles[0])
            #expect(first["exitCode"] as? Int == 0)
            #expect(first["sectionsMade"] as? Int == 3 && first["sectionsRead"] as? Int == 3)
            #expect((first["wordsRead"] as? Int ?? 0) > 700)
            #expect((first["audioSeconds"] as? Double ?? 0) > 60)
            #expect(first["outputBytes"] as? Int == Self.wavBytes(folder))
            #expect(
                (first["warnings"] as? [String] ?? []).contains { $0.contains("read by other voices: Greek") },
                "\(first)")
            #expect(books[stopped]["exitCode"] as? Int == 130)
            #expect(books.dropFirst(stopped + 1).allSatisfy { $0["exitCode"] == nil })
            let totals = try #require(document["totals"] as? [String: Any])
            #expect(
                totals["books"] as? Int == 4 && totals["converted"] as? Int == stopped - 1
                    && totals["refused"] as? Int == 1)
            #expect(totals["interrupted"] as? Int == 1 && totals["notStarted"] as? Int == books.count - stopped - 1)
            // Written by a rename: nothing left beside it.
            #expect(listing(scratch.path).filter { $0.hasPrefix(".report") }.isEmpty, "\(listing(scratch.path))")

            // The re-run: the first book already done, the others converted; the refused one makes exit 2.
            let rerun = try await BinaryRunner.run(arguments, timeout: 120)
            #expect(rerun.status == 2, "\(rerun.stderr)")
            (books, document) = try Self.report(reportPath)
            #expect(document["exitCode"] as? Int == 2)
            #expect(
                books.map { $0["status"] as? String ?? "" }
                    == ["refused"] + Array(repeating: "already-done", count: stopped - 1)
                    + Array(repeating: "converted", count: books.count - stopped))
            #expect(books[1]["sectionsMade"] as? Int == 0 && books[1]["sectionsKept"] as? Int == 3)
            let sum = books.compactMap { $0["outputBytes"] as? Int }.reduce(0, +)
            #expect((document["totals"] as? [String: Any])?["outputBytes"] as? Int == sum)
            #expect(sum == (1...3).reduce(0) { $0 + Self.wavBytes(out + "/" + Self.titles[$1 - 1]) })
        }

        /// Starts the batch, waits until book `book` (1-based) has started, sends `signals` to the
        /// process group (as a terminal's Ctrl-C does) or to the process, and waits for the end.
        static func interrupt(
            _ library: String, out: String, atBook book: Int, signals: [Int32], toGroup: Bool
        ) async throws -> RunResult {
            let running = try BinaryRunner.start(arguments(library, out))
            let sent = await running.send(signals, toGroup: toGroup, timeout: 60) {
                running.stdoutSoFar.components(separatedBy: "\"event\":\"book-started\"").count - 1 >= book
            }
            try #require(sent, "book \(book) never started")
            return await running.result(timeout: 30)
        }

        @Test(
            "A signal at the first, a middle or the last book: exit 130, later books not started, same bytes after a re-run",
            .timeLimit(.minutes(5)))
        func interruptAtEveryBook() async throws {
            let scratch = try Scratch("batch-interrupt")
            let library = try Self.library(in: scratch)
            let reference = try await Self.reference(library, in: scratch)
            for (book, signal) in [(1, SIGTERM), (2, SIGINT), (3, SIGTERM)] {
                let out = scratch.file("out-\(book)").path
                let result = try await Self.interrupt(
                    library, out: out, atBook: book, signals: [signal], toGroup: signal == SIGINT)
                #expect(result.status == 130, "book \(book): exit \(result.status): \(result.stderr)")
                #expect(!result.signalled)
                let events = Conversions.events(result.stdout)
                let names = events.compactMap { $0["event"] as? String }
                // Sent once book `book` has started, the signal may land in a later one on a loaded machine:
                // the book it landed in is the one that failed, every one before it done.
                let failed = try #require(events.last, "book \(book): no event")
                #expect(failed["event"] as? String == "book-failed")
                #expect(failed["exitCode"] as? Int == 130)
                let file = failed["file"] as? String ?? ""
                let landed = try #require(
                    (book...Self.titles.count).first { file.hasSuffix("book-\($0).epub") }, "\(failed)")
                #expect(names.filter { $0 == "book-started" }.count == landed, "book \(book): \(names)")
                #expect(names.filter { $0 == "book-done" }.count == landed - 1, "book \(book): \(names)")
                // The books after the interrupted one were not started: no folder of theirs.
                for later in Self.titles.dropFirst(landed) {
                    #expect(!FileManager.default.fileExists(atPath: out + "/" + later), "book \(book): \(later)")
                }
                #expect(Conversions.partFiles(out).isEmpty, "book \(book): \(Conversions.partFiles(out))")

                let rerun = try await BinaryRunner.run(Self.arguments(library, out), timeout: 120)
                #expect(rerun.status == 0, "book \(book): \(rerun.stderr)")
                let resumed = Self.files(out)
                #expect(resumed.keys.sorted() == reference.keys.sorted(), "book \(book)")
                for (name, data) in reference {
                    #expect(resumed[name] == data, "book \(book): \(name) differs from the uninterrupted batch's")
                }
            }
        }

        @Test("a second Ctrl-C during the graceful stop ends the batch at once; a re-run still completes it")
        func secondInterrupt() async throws {
            let scratch = try Scratch("batch-twice")
            let library = try Self.library(in: scratch)
            let out = scratch.file("out").path
            let result = try await Self.interrupt(
                library, out: out, atBook: 2, signals: [SIGINT, SIGINT], toGroup: true)
            #expect(result.status == 130, "exit \(result.status): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out + "/" + Self.titles[2]))
            // Orphaned workers end when their input closes; give them a moment before the re-run.
            usleep(200_000)
            let rerun = try await BinaryRunner.run(Self.arguments(library, out), timeout: 120)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(Conversions.partFiles(out).isEmpty)
            #expect(tree(out).filter { $0.hasSuffix(".wav") }.count == 9)
        }
    }
}
