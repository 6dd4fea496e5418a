import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real Piper voice imported into `scratch` (`voices add`), and the environment that finds it and the
/// runtime.
func importedNeuralVoice(in scratch: Scratch) async throws -> [String: String] {
    let folder = scratch.file("voices").path
    let added = try await BinaryRunner.run(
        ["voices", "add", NeuralVoiceCache.voiceModel, "--voices-dir", folder], timeout: 120)
    try #require(added.status == 0, "\(added.stderr)")
    return ["EPUB2AUDIO_VOICES_DIR": folder, "EPUB2AUDIO_SHERPA_ONNX": NeuralVoiceCache.runtimeFolder]
}

extension EndToEnd {
    @Suite("Neural voices: --engine, other languages, kill and resume")
    struct NeuralConversionCLI {
        static let english = "The keeper opened the logbook and read the first line aloud to nobody."
        static let german = "Der Wind wehte über das Meer, und die Möwen schrien über dem alten Leuchtturm."
        static let after = "Then he closed the book and climbed the stairs to light the lamp."

        @Test(
            "--engine neural: auto takes the neural voice of the book's language; none for it is exit 6; an espeak-ng voice is exit 64",
            .enabled(if: NeuralVoiceCache.convertible, NeuralVoiceCache.skipReason))
        func engineChoice() async throws {
            let scratch = try Scratch("neural-engine")
            let environment = try await importedNeuralVoice(in: scratch)
            let english = scratch.file("english.epub")
            try TestBook(title: "The Log", chapters: [TestBook.Chapter(title: "One", paragraphs: [Self.english])])
                .write(to: english)
            let out = scratch.file("auto").path
            let converted = try await BinaryRunner.run(
                [english.path, "--engine", "neural", "-o", out, "--progress", "none"], environment: environment,
                timeout: 300)
            try #require(converted.status == 0, "\(converted.stderr)")
            let manifest = try #require(jsonObject(file: out + "/manifest.json"))
            let voice = (manifest["settings"] as? [String: Any])?["voice"] as? [String: Any]
            #expect(voice?["voice"] as? String == "piper:en_US-joe-medium", "\(voice ?? [:])")

            let french = scratch.file("french.epub")
            try TestBook(
                title: "Le Phare", language: "fr",
                chapters: [TestBook.Chapter(title: "Un", paragraphs: ["Le vent soufflait sur la mer."])]
            ).write(to: french)
            let none = scratch.file("none").path
            let refused = try await BinaryRunner.run(
                [french.path, "--engine", "neural", "-o", none], environment: environment)
            #expect(refused.status == 6, "\(refused.stderr)")
            #expect(refused.errorLines.count == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("fr") && refused.stderr.contains("voices add"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: none))

            for arguments in [
                ["--engine", "neural", "--voice", "en"], ["--engine", "espeak", "--voice", "en_US-joe-medium"],
            ] {
                let mismatched = try await BinaryRunner.run(
                    [english.path, "-o", none] + arguments, environment: environment)
                #expect(mismatched.status == 64, "\(arguments): \(mismatched.stderr)")
                #expect(
                    mismatched.errorLines.count == 1 && mismatched.stderr.contains("--engine"), "\(mismatched.stderr)")
                #expect(!FileManager.default.fileExists(atPath: none))
            }
        }

        @Test(
            "blocks in languages the neural voice does not speak are read by espeak-ng's voices, said once; --jobs 1 = --jobs 2",
            .enabled(if: NeuralVoiceCache.convertible, NeuralVoiceCache.skipReason))
        func otherLanguages() async throws {
            let scratch = try Scratch("neural-languages")
            let environment = try await importedNeuralVoice(in: scratch)
            let greek = "Ο άνεμος φυσούσε πάνω από τη θάλασσα και οι γλάροι φώναζαν πάνω από τον παλιό φάρο."
            let marked = TestBook.Chapter(
                title: "One", paragraphs: [Self.english, Self.after], quotation: ("de", Self.german))
            let book = scratch.file("mixed.epub")
            try TestBook(
                title: "The Log", documentLanguage: "en",
                chapters: [marked, TestBook.Chapter(title: "Two", paragraphs: [Self.english, greek, Self.after])]
            ).write(to: book)
            var runs: [String: (out: String, stderr: String)] = [:]
            for jobs in ["1", "2"] {
                let out = scratch.file("jobs" + jobs).path
                let result = try await BinaryRunner.run(
                    [book.path, "--voice", "en_US-joe-medium", "--jobs", jobs, "-o", out, "--progress", "none"],
                    environment: environment, timeout: 600)
                try #require(result.status == 0, "\(result.stderr)")
                runs[jobs] = (out, result.stderr)
            }
            let one = try #require(runs["1"]), two = try #require(runs["2"])
            let warnings = one.stderr.split(separator: "\n").filter { $0.contains("warning:") }
            let languageLines = warnings.filter { $0.contains("other languages") }
            #expect(languageLines.count == 1 && languageLines.first?.contains("de by 'de'") == true, "\(one.stderr)")
            #expect(warnings.contains { $0.contains("Greek by 'el'") }, "\(one.stderr)")
            let a = Conversions.audio(one.out), b = Conversions.audio(two.out)
            #expect(a.count == 2 && a.keys.sorted() == b.keys.sorted())
            for (name, data) in a { #expect(b[name] == data, "\(name) differs between --jobs 1 and --jobs 2") }

            // The German quotation unmarked: the neural voice reads it, so the middle of the section differs
            // from the marked one while the title and the first sentence are the same samples.
            let plainBook = scratch.file("plain.epub")
            try TestBook(
                title: "The Log", documentLanguage: "en",
                chapters: [TestBook.Chapter(title: "One", paragraphs: [Self.english, Self.german, Self.after])]
            ).write(to: plainBook)
            let plainOut = scratch.file("plain").path
            let plain = try await BinaryRunner.run(
                [plainBook.path, "--voice", "en_US-joe-medium", "-o", plainOut, "--progress", "none"],
                environment: environment, timeout: 300)
            try #require(plain.status == 0, "\(plain.stderr)")
            #expect(!plain.stderr.contains("other languages"), "\(plain.stderr)")
            let markedSamples = try Self.samples(try #require(a.keys.sorted().first.flatMap { a[$0] }))
            let plainSamples = try Self.samples(try #require(Conversions.audio(plainOut).values.first))
            let prefix = zip(markedSamples, plainSamples).prefix { $0 == $1 }.count
            #expect(prefix >= 22_050, "only \(prefix) samples in common at the start")
            #expect(markedSamples != plainSamples, "the marked German quotation was read by the neural voice")

            // A book whose text is all marked German (its dc:language English): every block goes to espeak-ng's
            // German voice: the very samples `--voice de` gives.
            let germanBook = scratch.file("german.epub")
            try TestBook(
                title: "Das Logbuch", language: "en", documentLanguage: "de",
                chapters: [TestBook.Chapter(title: "Eins", paragraphs: [Self.german, Self.german])]
            ).write(to: germanBook)
            var germanSamples: [[Int16]] = []
            for voice in ["en_US-joe-medium", "de"] {
                let out = scratch.file("german-" + voice).path
                let result = try await BinaryRunner.run(
                    [germanBook.path, "--voice", voice, "-o", out, "--progress", "none"], environment: environment,
                    timeout: 300)
                try #require(result.status == 0, "\(result.stderr)")
                germanSamples.append(try Self.samples(try #require(Conversions.audio(out).values.first)))
            }
            #expect(
                germanSamples[0].count > 22_050 && germanSamples[0] == germanSamples[1], "\(germanSamples.map(\.count))"
            )
        }

        @Test(
            "kill -9 after the first section, then a re-run: the same bytes as an uninterrupted run, finished sections kept",
            .enabled(if: NeuralVoiceCache.convertible, NeuralVoiceCache.skipReason))
        func killAndResume() async throws {
            let scratch = try Scratch("neural-kill")
            let environment = try await importedNeuralVoice(in: scratch)
            let book = try Conversions.book(in: scratch, chapters: 3, words: 150)
            let arguments = ["--voice", "en_US-joe-medium", "--jobs", "1", "--progress", "none"]
            let clean = scratch.file("clean").path
            let reference = try await BinaryRunner.run(
                [book, "-o", clean] + arguments, environment: environment, timeout: 600)
            try #require(reference.status == 0, "\(reference.stderr)")

            let out = scratch.file("out").path
            let running = try BinaryRunner.start([book, "-o", out] + arguments, environment: environment)
            let midRun = await running.waitUntil(timeout: 300) {
                (Conversions.statuses(out)?.values.filter { $0 == "done" }.count ?? 0) >= 1
            }
            try #require(midRun, "never saw a finished section")
            let workers = BinaryRunner.descendants(of: running.pid)
            running.send(SIGKILL, toGroup: true)
            let killed = await running.result(timeout: 5)
            #expect(killed.signalled)
            defer { for worker in workers { kill(worker, SIGKILL) } }
            let finished = Conversions.statuses(out)?.filter { $0.value == "done" }.map(\.key) ?? []
            try #require(finished.count >= 1 && finished.count < 3, "\(finished)")
            let before = Self.fileIdentities(out)

            let rerun = try await BinaryRunner.run(
                [book, "-o", out] + arguments, environment: environment, timeout: 600)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let resumed = Conversions.audio(out), uninterrupted = Conversions.audio(clean)
            #expect(resumed.keys.sorted() == uninterrupted.keys.sorted())
            for (name, data) in uninterrupted {
                #expect(resumed[name] == data, "\(name) differs from the uninterrupted run's")
            }
            // The finished sections' files were not written again: same inode, same modification time.
            let after = Self.fileIdentities(out)
            let kept = before.filter { name, _ in finished.contains { name.hasPrefix(String(format: "%03d", $0)) } }
            #expect(!kept.isEmpty)
            for (name, identity) in kept { #expect(after[name] == identity, "\(name) was made again") }
            #expect(Conversions.partFiles(out).isEmpty)
        }

        @Test(
            "the neural voice in every other format and as a bundle: each file decodes to the section's length, the m4b has its chapters",
            .enabled(if: NeuralVoiceCache.convertible, NeuralVoiceCache.skipReason),
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func everyFormatAndABundle() async throws {
            let scratch = try Scratch("neural-formats")
            let environment = try await importedNeuralVoice(in: scratch)
            let book = try Conversions.book(in: scratch, chapters: 2, words: 40)
            var seconds: [String: Double] = [:]
            for (format, bundle) in [("flac", "flac"), ("ogg", "mp3"), ("opus", "m4b")] {
                let out = scratch.file(format).path
                let result = try await BinaryRunner.run(
                    [
                        book, "--voice", "en_US-joe-medium", "--format", format, "--bundle", bundle, "-o", out,
                        "--progress", "none",
                    ],
                    environment: environment, timeout: 600)
                try #require(result.status == 0, "\(format): \(result.stderr)")
                let sections = listing(out).filter { $0.hasSuffix("." + format) && $0.first?.isNumber == true }
                #expect(sections.count == 2, "\(format): \(listing(out))")
                var total = 0.0
                for name in sections {
                    let duration = try Self.seconds(Bundling.probe(out + "/" + name))
                    // 40 words and a title: 8 s to 30 s at any speaking rate a listener follows.
                    #expect((8...30).contains(duration), "\(name): \(duration) s")
                    total += duration
                }
                seconds[format] = total
                let bundled = try #require(
                    listing(out).first { $0.hasSuffix("." + bundle) && $0.first?.isNumber != true })
                let probe = try Bundling.probe(out + "/" + bundled)
                #expect(abs(try Self.seconds(probe) - total) < 1.0, "\(bundled) against \(total) s of sections")
                if bundle == "m4b" { #expect((probe["chapters"] as? [[String: Any]])?.count == 2) }
            }
            // One voice, one text: the formats hold the same speech, whatever the codec's padding.
            let lengths = seconds.values.sorted()
            #expect(lengths.last! - lengths.first! < 0.5, "\(seconds)")
        }

        /// The duration ffprobe reports for a file.
        static func seconds(_ probe: [String: Any]) throws -> Double {
            let duration = (probe["format"] as? [String: Any])?["duration"] as? String
            return try #require(duration.flatMap { Double($0) })
        }

        /// The 16-bit samples of a WAV file.
        static func samples(_ data: Data) throws -> [Int16] {
            let info = try readWAV(data)
            let pcm = data.subdata(in: info.dataOffset..<info.dataOffset + info.dataBytes)
            return pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }

        /// Inode and modification time of each WAV file in `folder`.
        static func fileIdentities(_ folder: String) -> [String: String] {
            var identities: [String: String] = [:]
            for name in listing(folder) where name.hasSuffix(".wav") {
                var info = stat()
                guard stat(folder + "/" + name, &info) == 0 else { continue }
                identities[name] = "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
            return identities
        }

        @Test(
            "--subtitles vtt with the neural voice: a cue a sentence, in order, inside the audio, no word timing",
            .enabled(if: NeuralVoiceCache.convertible, NeuralVoiceCache.skipReason))
        func subtitles() async throws {
            let scratch = try Scratch("neural-subtitles")
            let environment = try await importedNeuralVoice(in: scratch)
            let book = scratch.file("log.epub")
            try TestBook(
                title: "The Log", chapters: [TestBook.Chapter(title: "One", paragraphs: [Self.english, Self.after])]
            ).write(to: book)
            let out = scratch.file("out").path
            let converted = try await BinaryRunner.run(
                [book.path, "--engine", "neural", "--subtitles", "vtt", "-o", out, "--progress", "none"],
                environment: environment, timeout: 300)
            try #require(converted.status == 0, "\(converted.stderr)")
            let audio = try #require(listing(out).first { $0.hasSuffix(".wav") })
            let cues = try Subtitling.cues(out + "/" + String(audio.dropLast(4)) + ".vtt")
            // The title, then each sentence, as the book writes them (a cue's two lines joined).
            let texts = cues.map { $0.text.replacingOccurrences(of: "\n", with: " ") }
            #expect(texts == ["One", Self.english, Self.after], "\(texts)")
            #expect(cues.allSatisfy { $0.wordTimesMS.isEmpty }, "the neural voice times no words")
            #expect(cues.allSatisfy { $0.startMS < $0.endMS })
            #expect(zip(cues, cues.dropFirst()).allSatisfy { $0.endMS <= $1.startMS }, "\(cues)")
            let section = try #require(
                try Conversions.manifestSections(out).values.first { $0["file"] as? String == audio })
            let seconds = try #require(section["durationSeconds"] as? Double)
            #expect(Double(cues.last?.endMS ?? .max) / 1_000 <= seconds + 0.001)
            // Each sentence takes a share of the audio that goes with its length (the marks are not all
            // at the start): the longer first sentence is heard longer than the title.
            #expect(cues[1].endMS - cues[1].startMS > 2 * (cues[0].endMS - cues[0].startMS), "\(cues)")
        }
    }
}
