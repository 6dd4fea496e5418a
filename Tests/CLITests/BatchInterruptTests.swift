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

        /// Three small books (3 chapters of about 250 words) in `scratch/library`.
        static func library(in scratch: Scratch) throws -> String {
            let folder = scratch.file("library")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, title) in titles.enumerated() {
                let book = TestBook(
                    title: title, authors: ["Ada Keeper"], identifier: "urn:test:batch-\(index + 1)",
                    chapters: (1...3).map {
                        TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: 250, seed: index * 3 + $0))
                    })
                try book.write(to: folder.appendingPathComponent("book-\(index + 1).epub"))
            }
            return folder.path
        }

        /// The arguments of every batch run of these tests.
        static func arguments(_ library: String, _ out: String) -> [String] {
            [library, "-o", out, "--jobs", "1", "--progress", "json"]
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

        /// Starts the batch, waits until book `book` (1-based) has started, sends `signals` to the
        /// process group (as a terminal's Ctrl-C does) or to the process, and waits for the end.
        static func interrupt(
            _ library: String, out: String, atBook book: Int, signals: [Int32], toGroup: Bool
        ) async throws -> RunResult {
            let running = try BinaryRunner.start(arguments(library, out))
            let started = await running.waitUntil(timeout: 60) {
                running.stdoutSoFar.components(separatedBy: "\"event\":\"book-started\"").count - 1 >= book
            }
            try #require(started, "book \(book) never started")
            for signal in signals { running.send(signal, toGroup: toGroup) }
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
                #expect(names.filter { $0 == "book-started" }.count == book, "book \(book): \(names)")
                #expect(names.filter { $0 == "book-done" }.count == book - 1, "book \(book): \(names)")
                let failed = try #require(events.last, "book \(book): no event")
                #expect(failed["event"] as? String == "book-failed")
                #expect(failed["exitCode"] as? Int == 130)
                #expect((failed["file"] as? String)?.hasSuffix("book-\(book).epub") == true, "\(failed)")
                // The books after the interrupted one were not started: no folder of theirs.
                for later in Self.titles.dropFirst(book) {
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
