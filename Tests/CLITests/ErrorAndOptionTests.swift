import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEnd {
    @Suite("Errors and options")
    struct ErrorsAndOptions {
        @Test("a missing book or a folder without books: a usage or unreadable-book status, one line naming it")
        func missingInput() async throws {
            let scratch = try Scratch("missing")
            let missing = scratch.file("no-such-book.epub").path
            let empty = scratch.file("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            for (path, list) in [(missing, true), (missing, false), (empty.path, false)] {
                let result = try await BinaryRunner.run(
                    [path] + (list ? ["--list"] : ["-o", scratch.file("out").path]))
                #expect(result.errorLines.count == 1, "\(result.stderr)")
                #expect(result.errorLines.first?.contains(path) == true, "\(result.stderr)")
                // Exit 1 means "internal error" in --help: a missing file is the user's, not ours.
                #expect([3, 64].contains(result.status), "exit \(result.status) for \(path)")
                #expect(result.status != 0)
            }
            #expect(listing(scratch.path) == ["empty"])
        }

        /// "no-such-voice" starts like Norwegian ("no"): no tag's shape, so no fallback to it.
        @Test("an unknown voice: exit 6, one line, nothing written", arguments: ["zz-qq", "no-such-voice", "Englsh"])
        func unknownVoice(voice: String) async throws {
            let scratch = try Scratch("voice")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run([
                Conversions.lighthouse, "--voice", voice, "--chapters", "9", "-o", out,
            ])
            #expect(result.status == 6, "exit \(result.status): \(result.stderr)")
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.contains(voice) == true)
            if voice == "Englsh" {
                #expect(result.errorLines.first?.contains("did you mean English") == true, "\(result.stderr)")
            }
            #expect(listing(scratch.path).isEmpty)
        }

        @Test("a voice name of 100,000 characters: exit 6 at once, one line of its start and end")
        func hugeVoiceName() async throws {
            let scratch = try Scratch("voice-huge")
            let voice = "a" + String(repeating: "x", count: 100_000) + "z"
            let result = try await BinaryRunner.run([
                Conversions.lighthouse, "--voice", voice, "--chapters", "9", "-o", scratch.file("out").path,
            ])
            #expect(result.status == 6, "exit \(result.status)")
            #expect(result.errorLines.count == 1)
            let line = try #require(result.errorLines.first)
            #expect(line.count < 400 && line.contains("axxx") && line.contains("…") && line.contains("xxxz"))
        }

        @Test(
            "out-of-range numbers are usage errors",
            arguments: [["--rate", "50"], ["--pitch", "101"], ["--jobs", "0"]])
        func outOfRange(_ arguments: [String]) async throws {
            let scratch = try Scratch("range")
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "9", "-o", scratch.file("out").path] + arguments)
            #expect(result.status == 64, "exit \(result.status) for \(arguments): \(result.stderr)")
            // One line, as every other error, not ArgumentParser's usage block.
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.errorLines.first?.hasPrefix("error: \(arguments[0])") == true, "\(result.stderr)")
            #expect(listing(scratch.path).isEmpty)
        }

        @Test("help for no command, a bad option of voices: one line, exit 64, pointing at the right help")
        func helpAndSubcommandUsage() async throws {
            let topic = try await BinaryRunner.run(["help", "bogus"])
            #expect(topic.status == 64 && topic.stdout.isEmpty, "exit \(topic.status): \(topic.stdout.prefix(100))")
            #expect(topic.errorLines.first?.contains("'bogus' is no command") == true, "\(topic.stderr)")
            let voices = try await BinaryRunner.run(["voices", "--bogus"])
            #expect(voices.status == 64)
            #expect(voices.errorLines.first?.hasSuffix("(epub2audio help voices lists the options)") == true)
            #expect(try await BinaryRunner.run(["help", "voices"]).status == 0)
            // A list that starts like an option still reaches the list's parser.
            let dash = try await BinaryRunner.run([Conversions.lighthouse, "--list", "--chapters", "-3"])
            #expect(dash.status == 64 && dash.errorLines.first?.contains("\"-3\"") == true, "\(dash.stderr)")
        }

        @Test("another book into a folder made from a different one: exit 5; --force starts over cleanly")
        func bookChanged() async throws {
            let scratch = try Scratch("changed")
            let book = scratch.file("book.epub").path
            let out = scratch.file("out").path
            try FileManager.default.copyItem(atPath: Conversions.lighthouse, toPath: book)
            #expect(try await BinaryRunner.run([book, "--chapters", "13", "-o", out]).status == 0)
            let before = tree(out)
            let beforeManifest = bytes(out + "/manifest.json")

            try FileManager.default.removeItem(atPath: book)
            try TestBook(
                title: "A Different Book", identifier: "urn:test:other",
                chapters: [TestBook.Chapter(title: "Only Chapter", paragraphs: prose(words: 30))]
            ).write(to: URL(fileURLWithPath: book))
            let refused = try await BinaryRunner.run([book, "-o", out])
            #expect(refused.status == 5, "exit \(refused.status): \(refused.stderr)")
            #expect(refused.errorLines.count == 1)
            #expect(refused.errorLines.first?.contains("--force") == true, "the way out should be named")
            #expect(tree(out) == before)
            #expect(bytes(out + "/manifest.json") == beforeManifest)

            // --force: the new book's files only; the old book's audio does not linger unlisted.
            let forced = try await BinaryRunner.run([book, "-o", out, "--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(tree(out) == ["001 - Only Chapter.wav", "manifest.json", "playlist.m3u"])
        }

        @Test("a manifest naming a file outside its folder is refused, not followed")
        func tamperedManifest() async throws {
            let scratch = try Scratch("tampered")
            let out = scratch.file("out").path
            #expect(try await BinaryRunner.run([Conversions.lighthouse, "--chapters", "13", "-o", out]).status == 0)
            let victim = scratch.file("victim.wav").path
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
            let manifestPath = out + "/manifest.json"
            let text = try #require(bytes(manifestPath)).utf8String
            let file = "013 - Chapter 4 - What the Sea Brought.wav"
            try Data(text.replacingOccurrences(of: "\"\(file)\"", with: "\"../victim.wav\"").utf8)
                .write(to: URL(fileURLWithPath: manifestPath))
            try FileManager.default.removeItem(atPath: out + "/" + file)

            for extra in [[], ["--overwrite"]] {
                let result = try await BinaryRunner.run(
                    [Conversions.lighthouse, "--chapters", "13", "-o", out] + extra)
                #expect(result.status == 5, "exit \(result.status): \(result.stderr.prefix(500))")
                #expect(!result.signalled)
                #expect(result.errorLines.count == 1)
                #expect(result.errorLines.first?.contains("manifest.json") == true)
                #expect(bytes(victim) == Data("keep me".utf8))
            }
        }

        @Test("--format flac: FLAC files, named .flac, in the playlist")
        func flac() async throws {
            let scratch = try Scratch("flac")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run([
                Conversions.lighthouse, "--chapters", "13", "--format", "flac", "-o", out,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let name = "013 - Chapter 4 - What the Sea Brought.flac"
            #expect(listing(out) == [name, "cover.png", "manifest.json", "playlist.m3u"])
            let data = try #require(bytes(out + "/" + name))
            #expect(data.prefix(4) == Data("fLaC".utf8))
            #expect(try #require(bytes(out + "/playlist.m3u")).utf8String.contains("\n\(name)\n"))
            let section = try #require(try Conversions.manifestSections(out)[13])
            #expect(section["bytes"] as? Int == data.count)
        }

        @Test("--quiet: nothing on stdout or stderr when all goes well; plain progress reads well")
        func quietAndPlain() async throws {
            let scratch = try Scratch("quiet")
            let quiet = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "13", "-q", "-o", scratch.file("a").path])
            #expect(quiet.status == 0)
            #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
            let plain = try await BinaryRunner.run([
                Conversions.lighthouse, "--chapters", "13", "-o", scratch.file("b").path,
            ])
            #expect(plain.status == 0)
            #expect(plain.stdout.isEmpty, "progress and summary belong on stderr")
            #expect(plain.stderr.contains("013 - Chapter 4 - What the Sea Brought.wav"))
            #expect(!plain.stderr.contains(" 1 sections"), "\(plain.stderr)")
            // --progress none: no progress at all, the summary still (only -q drops it).
            let none = try await BinaryRunner.run([
                Conversions.lighthouse, "--chapters", "13", "-o", scratch.file("c").path, "--progress", "none",
            ])
            #expect(none.status == 0 && none.stdout.isEmpty)
            #expect(!none.stderr.contains("013 - Chapter 4") && !none.stderr.contains("[1/1]"), "\(none.stderr)")
            #expect(none.stderr.contains("1 section made"), "\(none.stderr)")
        }

        @Test("a full disk: exit 5, one line, no .part file, a consistent manifest (needs root for a small tmpfs)")
        func diskFull() async throws {
            let scratch = try Scratch("diskfull")
            let mountPoint = scratch.file("small").path
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            guard geteuid() == 0, shell("mount -t tmpfs -o size=700k tmpfs '\(mountPoint)'") == 0 else {
                print(
                    "note: cannot mount a small tmpfs here (not root, or no mount permission): disk-full test skipped")
                return
            }
            defer { _ = shell("umount '\(mountPoint)'") }
            let out = mountPoint + "/out"
            // --force: past the check before the first byte (below), to fill the disk mid-run.
            let result = try await BinaryRunner.run([
                Conversions.lighthouse, "--chapters", "9,13", "-o", out, "--jobs", "2", "--force",
            ])
            #expect(result.status == 5, "exit \(result.status): \(result.stderr)")
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.contains("full") == true, "\(result.stderr)")
            #expect(Conversions.partFiles(out).isEmpty, "\(tree(out))")
            let statuses = try #require(Conversions.statuses(out))
            #expect(!statuses.values.contains("in-progress"))
        }

        @Test("a disk too small for the estimate: exit 5 with the figures before anything is written (needs root)")
        func diskTooSmallForEstimate() async throws {
            let scratch = try Scratch("disksmall")
            let mountPoint = scratch.file("small").path
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            guard geteuid() == 0, shell("mount -t tmpfs -o size=2m tmpfs '\(mountPoint)'") == 0 else {
                print("note: cannot mount a small tmpfs here (not root, or no mount permission): test skipped")
                return
            }
            defer { _ = shell("umount '\(mountPoint)'") }
            // Two books of about 28 MB of WAV: refused, nothing written, not even a folder.
            let out = mountPoint + "/out"
            let refused = try await BinaryRunner.run([Conversions.lighthouse, Conversions.lighthouse, "-o", out])
            #expect(refused.status == 5, "exit \(refused.status): \(refused.stderr)")
            #expect(refused.errorLines.count == 1)
            #expect(refused.errorLines.first?.contains("cannot fit") == true, "\(refused.stderr)")
            #expect(refused.errorLines.first?.contains("MB are free") == true, "\(refused.stderr)")
            #expect(listing(mountPoint).isEmpty, "\(tree(mountPoint))")
            // One short chapter as MP3 fits, but with little room to spare: a warning, and it goes on.
            let tight = try await BinaryRunner.run([
                Conversions.lighthouse, "--chapters", "13", "--format", "mp3", "-o", out, "--progress", "none",
            ])
            #expect(tight.status == 0, "\(tight.stderr)")
            #expect(tight.stderr.contains("warning: the audio needs about"), "\(tight.stderr)")
        }
    }
}

/// Runs a shell command quietly; its exit status.
func shell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}
