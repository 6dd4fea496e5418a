import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEnd {
    @Suite("Batches of books")
    struct Batch {
        @Test("two books and a broken file: a folder per good book, exit 2, one line naming the broken one")
        func batchWithBrokenBook() async throws {
            let scratch = try Scratch("batch")
            let books = scratch.file("books")
            try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
            for (file, title) in [("first.epub", "First Light"), ("second.epub", "Second Watch")] {
                let book = TestBook(
                    title: title, identifier: "urn:test:\(file)",
                    chapters: [TestBook.Chapter(title: "Chapter 1", paragraphs: prose(words: 40))])
                try book.write(to: books.appendingPathComponent(file))
            }
            try Data("this is not a zip archive\n".utf8).write(to: books.appendingPathComponent("broken.epub"))
            let out = scratch.file("out").path

            let result = try await BinaryRunner.run([books.path, "-o", out], timeout: 60)
            #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
            #expect(listing(out) == ["First Light", "Second Watch"])
            for folder in ["First Light", "Second Watch"] {
                let files = listing(out + "/" + folder)
                #expect(files == ["001 - Chapter 1.wav", "manifest.json", "playlist.m3u"], "\(folder): \(files)")
            }
            #expect(listing(scratch.path) == ["books", "out"])
            let errors = result.errorLines
            #expect(errors.count == 1, "\(result.stderr)")
            #expect(errors.first?.contains("broken.epub") == true)
            #expect(!errors.contains { $0.contains("First Light") || $0.contains("Second Watch") })

            // The batch ends with a summary of the books: how many were made and how many failed.
            let lastLines = result.stderr.split(separator: "\n").suffix(3).joined(separator: "\n")
            #expect(lastLines.contains("3 books: 2 converted, 1 failed"), "no batch summary at the end: \(lastLines)")
        }

        @Test("--progress json: a book refused before any event of its own gets a book-failed event")
        func refusedBookInJSON() async throws {
            let scratch = try Scratch("batch-json")
            let broken = scratch.file("broken.epub")
            try Data("this is not a zip archive\n".utf8).write(to: broken)
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [broken.path, Conversions.lighthouse, "--chapters", "13", "-o", out, "--progress", "json"], timeout: 60)
            #expect(result.status == 2, "\(result.stderr)")
            let events = Conversions.events(result.stdout)
            let failed = try #require(events.first, "\(result.stdout)")
            #expect(failed["event"] as? String == "book-failed")
            #expect(failed["file"] as? String == broken.path && failed["exitCode"] as? Int == 3)
            #expect((failed["message"] as? String)?.isEmpty == false)
            #expect(events.dropFirst().first?["event"] as? String == "book-started")
            #expect(events.last?["event"] as? String == "book-done")
        }

        @Test("two books of one title: a folder each, 'Title' and 'Title (2)', the same again when run again")
        func booksOfOneTitle() async throws {
            let scratch = try Scratch("batch-title")
            let books = scratch.file("books")
            try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
            // Two editions of one title: different files, different text.
            for (file, words) in [("a.epub", 40), ("b.epub", 45)] {
                let book = TestBook(
                    title: "The Waste Land", identifier: "urn:test:\(file)",
                    chapters: [TestBook.Chapter(title: "Chapter 1", paragraphs: prose(words: words))])
                try book.write(to: books.appendingPathComponent(file))
            }
            let out = scratch.file("out").path
            let first = try await BinaryRunner.run([books.path, "-o", out], timeout: 60)
            #expect(first.status == 0, "exit \(first.status): \(first.stderr)")
            #expect(listing(out) == ["The Waste Land", "The Waste Land (2)"])
            let folders = ["The Waste Land", "The Waste Land (2)"].map { out + "/" + $0 }
            let made = folders.map { identity($0 + "/001 - Chapter 1.wav") }
            let audio = try folders.map { try Data(contentsOf: URL(fileURLWithPath: $0 + "/001 - Chapter 1.wav")) }
            #expect(made.allSatisfy { $0 != nil } && audio[0] != audio[1], "each book's own audio")
            // Run again, in the other order: each book finds its own folder, and nothing is made again.
            let again = try await BinaryRunner.run(
                [books.path + "/b.epub", books.path + "/a.epub", "-o", out], timeout: 60)
            #expect(again.status == 0, "exit \(again.status): \(again.stderr)")
            #expect(listing(out) == ["The Waste Land", "The Waste Land (2)"])
            #expect(folders.map { identity($0 + "/001 - Chapter 1.wav") } == made, "a file was made again")
        }
    }

    @Suite("Output safety")
    struct OutputSafety {
        @Test("an existing folder with other files and no manifest is refused: exit 5, nothing written")
        func nonEmptyOutputRefused() async throws {
            let scratch = try Scratch("nonempty")
            let out = scratch.file("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
            let before = identity(out.path + "/notes.txt")
            let result = try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "9", "-o", out.path])
            #expect(result.status == 5, "exit \(result.status): \(result.stderr)")
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.contains(out.path) == true)
            #expect(result.errorLines.first?.contains("--overwrite") == true, "the option that allows it")
            #expect(tree(out.path) == ["notes.txt"])
            #expect(identity(out.path + "/notes.txt") == before)
            #expect(listing(scratch.path) == ["out"])
            // --text does not get around it either.
            let text = try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "9", "--text", "-o", out.path])
            #expect(text.status == 5, "exit \(text.status): \(text.stderr)")
            #expect(tree(out.path) == ["notes.txt"])
            // --overwrite is the way to say "this folder is fine".
            let allowed = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "9", "--text", "--overwrite", "-o", out.path])
            #expect(allowed.status == 0, "\(allowed.stderr)")
            #expect(tree(out.path) == ["009 - Chapter 1 - The Hundred and Twelve Steps.txt", "notes.txt"])
        }

        @Test("--text can be repeated in its own folder, and written into an audio folder")
        func textAgain() async throws {
            let scratch = try Scratch("text-again")
            let out = scratch.file("out").path
            for _ in 0..<2 {
                let result = try await BinaryRunner.run([
                    Conversions.lighthouse, "--chapters", "9,13", "--text", "-o", out,
                ])
                #expect(result.status == 0, "\(result.stderr)")
            }
            #expect(tree(out).count == 2)
            let text = try #require(bytes(out + "/009 - Chapter 1 - The Hundred and Twelve Steps.txt")).utf8String
            #expect(text.contains("Hundred and Twelve Steps"))
            #expect(!text.contains("<"), "markup in the spoken text")

            let audio = scratch.file("audio").path
            #expect(try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "13", "-o", audio]).status == 0)
            let intoAudio = try await BinaryRunner.run([
                Conversions.lighthouse, "--chapters", "13", "--text", "-o", audio,
            ])
            #expect(intoAudio.status == 0, "\(intoAudio.stderr)")
            #expect(listing(audio).contains("013 - Chapter 4 - What the Sea Brought.txt"))
        }

        /// Section titles a hostile or careless book may carry.
        static let hostileTitles = [
            "../../etc/passwd", "a/b\\c", "..", ".", "?!...", String(repeating: "L", count: 300),
            "Tab\there and\nnewline", "NEL\u{85}CSI\u{9B}end", "\u{202E}3pm.exe", "Line\u{2028}Sep", ".hidden",
            "Same Title", "same title", "-rf", "\u{200B}", "",
        ]

        static func hostileBook(in scratch: Scratch) throws -> String {
            let book = TestBook(
                title: "../" + String(repeating: "T", count: 300) + "/..\u{85}",
                authors: ["\u{202E}Mallory"],
                chapters: hostileTitles.enumerated().map {
                    TestBook.Chapter(title: $0.element, paragraphs: ["The lamp was lit at dusk, number \($0.offset)."])
                })
            let url = scratch.file("hostile.epub")
            try book.write(to: url)
            return url.path
        }

        /// A name fit for one file-name component on any common file system.
        static func isSafeName(_ name: String) -> Bool {
            !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
                && name.utf8.count <= 255
                && !name.unicodeScalars.contains {
                    $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
                        || $0.properties.generalCategory == .lineSeparator
                        || $0.properties.generalCategory == .paragraphSeparator
                }
        }

        @Test("hostile titles: files only inside the output folder, with safe unique names")
        func hostileTitlesWithOutput() async throws {
            let scratch = try Scratch("hostile")
            let book = try Self.hostileBook(in: scratch)
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run([book, "--chapters", "1-", "-o", out], timeout: 60)
            #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
            #expect(listing(scratch.path) == ["hostile.epub", "out"], "something appeared beside the output folder")
            let files = tree(out)
            #expect(!files.contains { $0.contains("/") }, "sub-folders made: \(files)")
            let audio = files.filter { $0.hasSuffix(".wav") }
            #expect(audio.count == Self.hostileTitles.count, "\(files)")
            #expect(Set(audio.map { $0.lowercased() }).count == audio.count, "names clash case-insensitively")
            for name in files {
                #expect(Self.isSafeName(name), "unsafe name: \(name.debugDescription)")
            }
            for name in audio {
                let digits = name.prefix(3)
                #expect(digits.allSatisfy(\.isNumber) && name.dropFirst(3).hasPrefix(" - "), "\(name)")
                #expect(name.count <= 3 + 3 + 80 + 4, "too long: \(name.count) characters")
            }
            // The manifest lists exactly these files; the playlist is one line per field, whatever the titles.
            let sections = try Conversions.manifestSections(out)
            #expect(Set(sections.values.compactMap { $0["file"] as? String }) == Set(audio))
            let playlist = try #require(bytes(out + "/playlist.m3u")).utf8String
            let byLineFeed = playlist.split(separator: "\n")
            #expect(byLineFeed.count == 1 + 2 * audio.count)
            #expect(playlist.split(whereSeparator: \.isNewline).count == byLineFeed.count, "a title breaks a line")
            #expect(!playlist.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }

        @Test("hostile book title without -o: one safe folder in the current folder, nothing else")
        func hostileTitleDefaultFolder() async throws {
            let scratch = try Scratch("hostile-default")
            let book = try Self.hostileBook(in: scratch)
            let work = scratch.file("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let result = try await BinaryRunner.run([book, "--chapters", "1,2"], directory: work, timeout: 60)
            #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
            #expect(listing(scratch.path) == ["hostile.epub", "work"])
            let folders = listing(work.path)
            #expect(folders.count == 1, "\(folders)")
            let folder = try #require(folders.first)
            #expect(Self.isSafeName(folder), "unsafe folder name: \(folder.debugDescription)")
            #expect(folder != "..")
            #expect(!folder.hasPrefix("-"), "a folder name starting with '-' reads as an option in shell commands")
            let files = tree(work.path + "/" + folder)
            #expect(files.filter { $0.hasSuffix(".wav") }.count == 2, "\(files)")
        }

        @Test("--list shows no control or bidi-override characters from hostile titles")
        func hostileListing() async throws {
            let scratch = try Scratch("hostile-list")
            let book = try Self.hostileBook(in: scratch)
            let result = try await BinaryRunner.run([book, "--list"])
            #expect(result.status == 0)
            #expect(!result.stdout.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
            #expect(!result.stdout.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
        }

        @Test("an output path under a regular file: exit 5 and one clear line")
        func unwritableOutput() async throws {
            let scratch = try Scratch("unwritable")
            let file = scratch.file("file.txt")
            try Data("x".utf8).write(to: file)
            let out = file.path + "/sub"
            let result = try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "9", "-o", out])
            #expect(result.status == 5, "exit \(result.status): \(result.stderr)")
            #expect(result.errorLines.count == 1, "\(result.stderr)")
            #expect(result.errorLines.first?.contains(out) == true)
            #expect(listing(scratch.path) == ["file.txt"])
            #expect(bytes(file.path) == Data("x".utf8))
        }

        @Test("a folder another run is converting into: exit 5 at once, one line saying so, nothing touched")
        func folderInUse() async throws {
            let scratch = try Scratch("folder-in-use")
            let out = scratch.file("out").path
            let first = try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "9", "-o", out])
            #expect(first.status == 0, "\(first.stderr)")
            let before = listing(out)
            // The lock a running conversion holds: flock on the folder itself.
            let descriptor = open(out, O_RDONLY | O_DIRECTORY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
            let second = try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "9,10", "-o", out])
            #expect(second.status == 5, "exit \(second.status): \(second.stderr)")
            #expect(second.errorLines.count == 1, "\(second.stderr)")
            #expect(second.stderr.contains("another epub2audio run is converting into this folder"), "\(second.stderr)")
            #expect(listing(out) == before)
        }

        @Test(
            "a TMPDIR that cannot be written does not stop a conversion in any format",
            arguments: ["wav", "mp3"])
        func unusableTemporaryFolder(format: String) async throws {
            let scratch = try Scratch("tmpdir-\(format)")
            let out = scratch.file("out").path
            // A regular file as TMPDIR: nothing can be made under it, as root too.
            let notAFolder = scratch.file("not-a-folder")
            try Data("x".utf8).write(to: notAFolder)
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "9", "--format", format, "-o", out],
                environment: ["TMPDIR": notAFolder.path], timeout: 60)
            #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
            #expect(listing(out).contains { $0.hasSuffix(".\(format)") }, "\(listing(out))")
        }

        @Test(
            "a read-only output folder: exit 5",
            .enabled(if: geteuid() != 0, "running as root, where chmod 555 does not stop writes"))
        func readOnlyOutput() async throws {
            let scratch = try Scratch("readonly")
            let out = scratch.file("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: out.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: out.path) }
            let result = try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "9", "-o", out.path])
            #expect(result.status == 5, "exit \(result.status): \(result.stderr)")
            #expect(result.errorLines.count == 1)
            #expect(tree(out.path).isEmpty)
        }
    }
}
