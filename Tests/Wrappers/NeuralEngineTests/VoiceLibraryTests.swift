import Foundation
import Testing

@testable import NeuralEngine

/// A temporary folder holding a Piper voice made of a minimal model and a JSON, and an empty voices folder.
struct FakePiperVoice {
    let root: String
    let model: String
    var voices: VoiceLibrary { VoiceLibrary(folder: root + "/voices") }

    init(name: String = "xx_XX-test-low", json: Data? = nil, model bytes: [UInt8] = minimalModel()) throws {
        root = NSTemporaryDirectory() + "neural-voices-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/source", withIntermediateDirectories: true)
        model = root + "/source/\(name).onnx"
        try Data(bytes).write(to: URL(fileURLWithPath: model))
        try (json ?? piperJSON()).write(to: URL(fileURLWithPath: model + ".json"))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Entries of the voices folder, hidden ones included (a failed import must leave none).
    var voicesFolderEntries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: voices.folder)) ?? []
    }
}

@Suite struct VoiceLibraryTests {
    @Test func importingAPiperVoicePreparesItOnce() throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        let voice = try fake.voices.importVoice(from: fake.model)
        #expect(voice.name == "xx_XX-test-low")
        #expect(voice.language == "en-US")
        #expect(voice.sampleRate == 22_050)
        #expect(voice.quality == "medium")
        #expect(voice.espeakData == nil, "the system's espeak-ng data, found when loading")
        let tokens = try String(contentsOfFile: voice.tokensPath, encoding: .utf8)
        #expect(tokens == "_ 0\n^ 1\n$ 2\n 3\na 14\nə 59\n")
        let model = try ModelCheck.inspect(voice.modelPath)
        #expect(model.metadataByKey["comment"] == "piper")
        #expect(model.metadataByKey["sample_rate"] == "22050")
        #expect(voice.modelBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: voice.modelPath)).count))
        #expect(try VoiceCheck.loadable(voice).tokens == voice.tokensPath)
        let original = try Data(contentsOf: URL(fileURLWithPath: fake.model))
        #expect(original == Data(minimalModel()), "the user's file is not touched")
    }

    @Test(arguments: ["model", "json", "folder"])
    func aVoiceImportsFromItsModelItsJSONOrItsFolder(form: String) throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        let path = ["model": fake.model, "json": fake.model + ".json", "folder": fake.root + "/source"][form]!
        #expect(try fake.voices.importVoice(from: path).name == "xx_XX-test-low")
    }

    @Test func aModelThatHasTheKeysAlreadyGetsNoSecondCopy() throws {
        let prepared = minimalModel() + ONNXModel.metadataBytes([("comment", "piper"), ("sample_rate", "22050")])
        let fake = try FakePiperVoice(model: prepared)
        defer { fake.remove() }
        let voice = try fake.voices.importVoice(from: fake.model)
        let metadata = try ModelCheck.inspect(voice.modelPath).metadata
        #expect(metadata.filter { $0.key == "comment" }.count == 1)
        #expect(metadata.filter { $0.key == "voice" }.count == 1)
    }

    @Test func theListShowsVoicesAndWarnsOfBrokenOnes() throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        try fake.voices.importVoice(from: fake.model)
        try fake.voices.importVoice(from: fake.model, name: "second")
        try FileManager.default.createDirectory(
            atPath: fake.voices.folder + "/broken", withIntermediateDirectories: true)
        try Data("{".utf8).write(to: URL(fileURLWithPath: fake.voices.folder + "/broken/voice.json"))
        let (voices, warnings) = fake.voices.voices()
        #expect(voices.map(\.name) == ["second", "xx_XX-test-low"])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("broken/voice.json") == true)
        #expect(VoiceLibrary.size(of: voices[0]) > Int64(minimalModel().count))
    }

    @Test func aVoiceIsFoundByNameOrIdentifierInAnyCase() throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        try fake.voices.importVoice(from: fake.model)
        #expect(try fake.voices.voice(named: "xx_XX-test-low").name == "xx_XX-test-low")
        #expect(try fake.voices.voice(named: "piper:XX_xx-TEST-low").name == "xx_XX-test-low")
        #expect(
            throws: NeuralError.voiceNotFound(name: "nope", folder: fake.voices.folder, installed: ["xx_XX-test-low"])
        ) {
            try fake.voices.voice(named: "nope")
        }
    }

    @Test func importingTwiceNeedsReplacing() throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        try fake.voices.importVoice(from: fake.model)
        #expect(throws: NeuralError.voiceExists(name: "xx_XX-test-low", folder: fake.voices.folder)) {
            try fake.voices.importVoice(from: fake.model)
        }
        try fake.voices.importVoice(from: fake.model, replacing: true)
        #expect(fake.voicesFolderEntries == ["xx_XX-test-low"])
    }

    @Test func aBrokenJSONIsNamedAndLeavesNothing() throws {
        let fake = try FakePiperVoice(json: piperJSON(removing: ["phoneme_id_map"]))
        defer { fake.remove() }
        #expect(throws: NeuralError.invalidVoice(path: fake.model + ".json", reason: "it has no phoneme_id_map")) {
            try fake.voices.importVoice(from: fake.model)
        }
        #expect(fake.voicesFolderEntries.isEmpty)
    }

    @Test func aTruncatedModelIsRefusedAtImport() throws {
        let fake = try FakePiperVoice(model: Array(minimalModel().dropLast(3)))
        defer { fake.remove() }
        do {
            try fake.voices.importVoice(from: fake.model)
            Issue.record("a truncated model was imported")
        } catch {
            guard case .invalidVoice(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == fake.model)
            #expect(reason.contains("not a complete ONNX model"))
        }
        #expect(fake.voicesFolderEntries.isEmpty)
    }

    @Test func aModelChangedAfterImportIsRefusedBeforeLoading() throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        let voice = try fake.voices.importVoice(from: fake.model)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: voice.modelPath))
        try handle.truncate(atOffset: 10)
        try handle.close()
        #expect(throws: NeuralError.self) { try VoiceCheck.loadable(voice) }
    }

    @Test func anEspeakDataFolderWithoutTheLanguageIsRefused() throws {
        let fake = try FakePiperVoice()
        defer { fake.remove() }
        let data = fake.root + "/espeak-ng-data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        for file in ESpeakData.requiredFiles {
            try #require(FileManager.default.createFile(atPath: data + "/" + file, contents: nil))
        }
        do {
            try fake.voices.importVoice(from: fake.model, espeakData: data)
            Issue.record("data without en_dict was accepted")
        } catch {
            #expect(error.description.contains("en_dict"))
        }
    }

    @Test(arguments: ["", ".hidden", "a/b", "with space", String(repeating: "x", count: 101)])
    func unusableNamesAreRefused(name: String) {
        #expect(!VoiceLibrary.isValidName(name))
    }

    @Test func theDefaultFolderFollowsXDG() {
        #expect(
            VoiceLibrary.defaultFolder(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/epub2audio/voices")
        #expect(VoiceLibrary.defaultFolder(environment: ["HOME": "/h"]) == "/h/.local/share/epub2audio/voices")
    }

    @Test func voiceJSONWithoutLaterKeysReadsWithDefaults() throws {
        let json = #"{"name": "old", "sampleRate": 16000, "espeakVoice": "de"}"#
        let voice = try JSONDecoder().decode(NeuralVoice.self, from: Data(json.utf8))
        #expect(voice.version == 1)
        #expect(voice.speakers == 1)
        #expect(voice.noiseScale == 0.667)
        #expect(voice.speaks("de-AT"))
        #expect(!voice.speaks("en"))
    }
}
